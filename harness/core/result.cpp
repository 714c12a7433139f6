#include "harness/core/result.hpp"

#include "mmaemu/reference/model.hpp"

namespace mmaemu {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::skip: return "skip";
    case Verdict::error: return "error";
  }
  return "?";
}

void count_decline(DeclineTallies& into, const Decline& d, size_t problems) {
  DeclineTally& t = into[d.detail];
  t.code = d.code_name();
  t.algorithm = d.algorithm;
  t.problems += problems;
}

const char* run_state_name(RunState s) {
  switch (s) {
    case RunState::complete: return "complete";
    case RunState::running: return "running";
    case RunState::interrupted: return "interrupted";
  }
  return "?";
}

std::map<std::string, std::vector<std::string>> pinned_profiles(const std::vector<SuiteResult>& suites) {
  std::map<std::string, std::vector<std::string>> out;
  for (const SuiteResult& s : suites)
    for (const std::string& p : s.pinned_profiles) out[p].push_back(s.tier + "." + s.suite);
  return out;
}

std::vector<std::string> unpinned_profiles(const std::vector<SuiteResult>& suites) {
  const auto pinned = pinned_profiles(suites);
  std::vector<std::string> out;
  for (ref::Arch a : ref::all_archs())
    if (!pinned.count(std::string(ref::arch_name(a)))) out.emplace_back(ref::arch_name(a));
  return out;
}

}  // namespace mmaemu
