#include "harness/core/report_junit.hpp"

#include <cstdio>
#include <sstream>
#include <vector>

#include "harness/core/reports.hpp"

namespace mmaemu::report_junit {
namespace {

std::string seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s);
  return buf;
}

struct TierGroup {
  std::string tier;
  std::vector<const SuiteResult*> suites;
};

// Tiers in the order their first suite ran.
std::vector<TierGroup> group_by_tier(const RunReport& run) {
  std::vector<TierGroup> tiers;
  for (const SuiteResult& s : run.suites) {
    TierGroup* g = nullptr;
    for (TierGroup& t : tiers)
      if (t.tier == s.tier) g = &t;
    if (!g) g = &tiers.emplace_back(TierGroup{s.tier, {}});
    g->suites.push_back(&s);
  }
  return tiers;
}

std::string counts_attributes(const std::vector<const SuiteResult*>& suites) {
  VerdictCounts n;
  double time = 0;
  for (const SuiteResult* s : suites) {
    time += s->seconds;
    n.add(s->verdict);
  }
  return "tests=\"" + std::to_string(n.total()) + "\" failures=\"" + std::to_string(n.fail) + "\" errors=\"" +
         std::to_string(n.error) + "\" skipped=\"" + std::to_string(n.skip) + "\" time=\"" + seconds(time) + "\"";
}

// Every group, known ones with their reason: a suite that passes with known mismatches says so here.
std::string group_lines(const SuiteResult& s) {
  std::string out;
  for (const auto& [name, count] : s.groups) out += format_group_count(name, count) + "\n";
  return out;
}

void write_testcase(std::ostringstream& x, const SuiteResult& s) {
  x << "    <testcase classname=\"" << xml_escape(s.tier) << "\" name=\"" << xml_escape(s.suite) << "\" time=\""
    << seconds(s.seconds) << "\">\n";
  switch (s.verdict) {
    case Verdict::pass: break;
    case Verdict::skip: x << "      <skipped message=\"" << xml_escape(s.reason) << "\"/>\n"; break;
    case Verdict::error:
      x << "      <error type=\"input\" message=\"" << xml_escape(s.reason) << "\"/>\n";
      break;
    case Verdict::fail: {
      std::string text;
      for (const Mismatch& m : s.first_mismatches)
        if (!m.known) text += format_mismatch(m);  // the failure is about the others; known ones are in system-out
      x << "      <failure type=\"mismatch\" message=\"" << xml_escape(s.reason) << "\">" << xml_escape(text)
        << "</failure>\n";
      break;
    }
  }
  if (!s.groups.empty()) x << "      <system-out>" << xml_escape(group_lines(s)) << "</system-out>\n";
  x << "    </testcase>\n";
}

}  // namespace

std::string xml_escape(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    switch (ch) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      case '\n': out += "&#10;"; break;  // kept inside attributes, where a raw newline would be folded
      case '\t': out += "&#9;"; break;
      default:
        if (u >= 0x20 || u == '\r') out += ch;  // other control characters are not allowed in XML 1.0
    }
  }
  return out;
}

std::string render(const RunReport& run) {
  std::vector<const SuiteResult*> all;
  for (const SuiteResult& s : run.suites) all.push_back(&s);
  std::ostringstream x;
  x << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  x << "<testsuites name=\"mmaemu\" " << counts_attributes(all) << ">\n";
  for (const TierGroup& t : group_by_tier(run)) {
    x << "  <testsuite name=\"" << xml_escape(t.tier) << "\" " << counts_attributes(t.suites) << " timestamp=\""
      << xml_escape(run.started_utc) << "\" hostname=\"" << xml_escape(run.host) << "\">\n";
    x << "    <properties>\n";
    const auto property = [&x](const std::string& name, const std::string& value) {
      x << "      <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value) << "\"/>\n";
    };
    property("tool_version", run.tool_version);
    property("commit", run.commit);
    property("state", run_state_name(run.state));
    for (const auto& [name, value] : run.environment) property(name, value);
    x << "    </properties>\n";
    for (const SuiteResult* s : t.suites) write_testcase(x, *s);
    x << "  </testsuite>\n";
  }
  x << "</testsuites>\n";
  return x.str();
}

}  // namespace mmaemu::report_junit
