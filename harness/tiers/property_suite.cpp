#include "harness/tiers/property_suite.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/scratch_dir.hpp"
#include "harness/core/self_path.hpp"
#include "harness/properties/property.hpp"
#include "harness/tiers/decline_rules.hpp"
#include "harness/tiers/kernel_conformance_plan.hpp"

namespace mmaemu {
namespace {

namespace fs = std::filesystem;

std::vector<const props::Property*> read_properties(const SuiteSpec& spec) {
  const SchemaValue& v = spec.values.at("properties");
  std::vector<const props::Property*> out;
  if (v.list.size() == 1 && v.list.front() == "all") {
    for (const props::Property& p : props::catalogue()) out.push_back(&p);
    return out;
  }
  if (v.list.empty()) throw InputError(v.where, "'properties' is empty");
  for (const std::string& name : v.list) {
    const props::Property* p = props::find_property(name);
    if (!p) {
      std::string known;
      for (const props::Property& q : props::catalogue()) known += (known.empty() ? "" : ", ") + q.name;
      throw InputError(v.where, "unknown property '" + name + "' (known: " + known + ", or all)");
    }
    if (std::find(out.begin(), out.end(), p) != out.end()) throw InputError(v.where, "'properties' names '" + name + "' twice");
    out.push_back(p);
  }
  return out;
}

std::vector<std::string> read_library_engines(const SuiteSpec& spec) {
  if (!spec.has("library_engines")) return {"host"};
  const SchemaValue& v = spec.values.at("library_engines");
  for (const std::string& e : v.list)
    if (e != "host" && e != "cpu" && e != "cuda")
      throw InputError(v.where, "unknown library engine '" + e + "' (host, cpu, cuda)");
  return v.list;
}

// cases_by_property: {name: N}; every name must be a property the suite runs.
std::map<std::string, int> read_budgets(const SuiteSpec& spec, const std::vector<const props::Property*>& run) {
  std::map<std::string, int> out;
  if (!spec.has("cases_by_property")) return out;
  const SchemaValue& v = spec.values.at("cases_by_property");
  if (!v.node.IsMap()) throw InputError(v.where, "'cases_by_property' must map property names to case counts");
  for (const auto& kv : v.node) {
    // A key that is itself a list or mapping would throw YAML::BadConversion out of as<std::string>().
    if (!kv.first.IsScalar())
      throw InputError(where(spec.tier_file.string(), kv.first), "a property name must be a plain name");
    const std::string name = kv.first.Scalar();
    if (std::none_of(run.begin(), run.end(), [&](auto* p) { return p->name == name; }))
      throw InputError(where(spec.tier_file.string(), kv.first), "'" + name + "' is not a property this suite runs");
    int n = 0;
    try {
      n = kv.second.as<int>();
    } catch (const YAML::Exception&) {
      n = 0;
    }
    if (n < 1) throw InputError(where(spec.tier_file.string(), kv.second), "a case count must be a whole number >= 1");
    out[name] = n;
  }
  return out;
}

int read_cases(const SuiteSpec& spec) {
  const uint64_t n = spec.number("cases", 0);
  if (n < 1 || n > 10000000) throw InputError(spec.values.at("cases").where, "'cases' must be between 1 and 10000000");
  return static_cast<int>(n);
}

std::string file_safe(std::string s) {
  for (char& ch : s)
    if (ch == '/' || ch == ' ') ch = '_';
  return s;
}

// Writes a counterexample's arrays, texts, replay script and description; returns the directory.
fs::path write_counterexample(const fs::path& dir, const props::GroupOutcome& g, const props::Counterexample& c,
                              const std::string& mmaemu) {
  fs::create_directories(dir);
  for (const auto& [name, array] : c.files) write_npy(dir / (name + ".npy"), array);
  for (const auto& [name, text] : c.text_files) write_file_atomic(dir / name, text);
  // The program that found it, unless MMAEMU names another (a build on another machine).
  std::string script = "#!/bin/sh\n# Replays the counterexample of " + g.group + " (seed " + std::to_string(g.seed) +
                       ").\nset -e\nMMAEMU=${MMAEMU:-" + mmaemu + "}\n";
  for (std::string cmd : c.replay) {
    for (size_t at; (at = cmd.find("{dir}")) != std::string::npos;) cmd.replace(at, 5, dir.string());
    if (cmd.rfind("mmaemu ", 0) == 0) cmd = "\"$MMAEMU\"" + cmd.substr(6);
    script += cmd + "\n";
  }
  write_file_atomic(dir / "replay.sh", script);
  fs::permissions(dir / "replay.sh", fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec,
                  fs::perm_options::add);
  write_file_atomic(dir / "case.txt", "group:    " + g.group + "\nwhat:     " + c.what + "\ninputs:   " + c.inputs +
                                          "\nexpected: " + c.expected + "\ngot:      " + c.got + "\nseed:     " +
                                          std::to_string(g.seed) + "\ncases before it: " + std::to_string(c.cases_before) +
                                          "\nshrinking steps: " + std::to_string(c.shrinks) + "\n");
  return dir;
}

SuiteResult run_properties(const SuiteSpec& spec) {
  const auto properties = read_properties(spec);
  const auto budgets = read_budgets(spec, properties);
  const int cases = read_cases(spec);
  const std::vector<std::string> engines = read_library_engines(spec);
  tiers::check_backend_names(spec, "backends", kernels::backends());
  const std::vector<ref::Arch> profiles = tiers::read_profiles(spec);
  const bool gpu = spec.text("device", "cpu") == "gpu";
  if (gpu) {
    tiers::DeclineRules::read(spec, nullptr);  // checked even where the suite then skips
    if (auto why = tiers::gpu_unavailable_reason()) {
      SuiteResult r;
      r.verdict = Verdict::skip;
      r.reason = *why;
      return r;
    }
  }
  props::Scope scope;
  scope.backends = tiers::read_backends(spec, "backends", kernels::backends(), false);
  scope.library_engines = engines;
  scope.profiles = profiles;
  scope.mmaemu = self_path();
  std::vector<std::string> runs;
  for (const kernels::Backend* b : scope.backends) runs.push_back(b->name());
  const tiers::DeclineRules rules = tiers::DeclineRules::read(spec, &runs);
  const ScratchDir scratch("mmaemu-t5");
  scope.scratch = scratch.path();
  const uint64_t seed = spec.number("seed", 1);
  const fs::path ce_root = spec.report_dir / "properties" / spec.id();

  SuiteResult r;
  tiers::Coverage coverage;
  size_t groups = 0, discarded = 0, confirmed = 0, not_applicable = 0;
  // groups.md: one row per group, for the person who wants to see what each claim covered.
  std::string table = "# " + spec.id() + ": property groups\n\nseed " + std::to_string(seed) +
                      "; a group is one RapidCheck run with its own seed\n\n"
                      "| group | claim | cases | discarded | outcome | why, or the counterexample |\n|---|---|--:|--:|---|---|\n";
  const auto row = [&](const props::GroupOutcome& g, const std::string& claim, const std::string& outcome,
                       const std::string& note) {
    table += "| " + g.group + " | " + claim + " | " + std::to_string(g.cases) + " | " + std::to_string(g.discarded) + " | " +
             outcome + " | " + note + " |\n";
  };
  std::string timing = "\n| property | groups | budget per group | cases held | seconds |\n|---|--:|--:|--:|--:|\n";
  const auto started = std::chrono::steady_clock::now();
  for (size_t done = 0; done < properties.size(); ++done) {
    const props::Property* p = properties[done];
    if (spec.progress) {  // done / total, rate, time left; a terminal only, never a CI log
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << (done == 0 ? "\n" : "\r") << "  properties " << done << "/" << properties.size() << ", " << p->name
                << ", " << static_cast<int>(s) << " s";
      if (done > 0) std::cerr << ", about " << static_cast<int>(s / done * (properties.size() - done)) << " s left";
      std::cerr << "\033[K" << std::flush;
    }
    const auto budget_it = budgets.find(p->name);
    const props::Budget budget{seed, budget_it == budgets.end() ? cases : budget_it->second};
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<props::GroupOutcome> outcomes = p->check(scope, budget);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    size_t property_cases = 0;
    for (const props::GroupOutcome& g : outcomes) property_cases += static_cast<size_t>(g.cases);
    char secs[32];
    std::snprintf(secs, sizeof secs, "%.2f", seconds);
    timing += "| " + p->name + " | " + std::to_string(outcomes.size()) + " | " + std::to_string(budget.cases) + " | " +
              std::to_string(property_cases) + " | " + secs + " |\n";
    for (props::GroupOutcome& g : outcomes) {
      ++groups;
      discarded += static_cast<size_t>(g.discarded);
      for (const auto& [backend, n] : g.ran) coverage[backend].ran += n;
      for (const auto& [backend, reasons] : g.declined)
        for (const auto& [detail, t] : reasons) {
          DeclineTally& into = coverage[backend].declines[detail];
          into.code = t.code;
          into.algorithm = t.algorithm;
          into.problems += t.problems;
        }
      if (g.expect == props::Expect::not_applicable) {
        ++not_applicable;
        row(g, "not applicable", "-", g.why);
        continue;
      }
      GroupCount& count = r.groups[g.group];
      count.compared = static_cast<size_t>(g.cases);
      r.compared += count.compared;
      const std::string claim = g.expect == props::Expect::fails ? "exception" : "holds";
      if (!g.error.empty()) {
        r.failures.push_back(g.group + ": " + g.error);
        row(g, claim, "error", g.error);
        continue;
      }
      if (g.expect == props::Expect::fails) {
        if (g.counterexample) {
          ++confirmed;
          const fs::path dir = write_counterexample(ce_root / file_safe(g.group), g, *g.counterexample, scope.mmaemu);
          row(g, claim, "confirmed", g.why + "; " + dir.string());
        } else {
          r.failures.push_back("exception " + g.group + " unconfirmed: the property held in " + std::to_string(g.cases) +
                               " cases, so the exception hides cases (" + g.why + ")");
          row(g, claim, "UNCONFIRMED", g.why);
        }
        continue;
      }
      if (!g.counterexample) {
        row(g, claim, "held", "");
        continue;
      }
      const props::Counterexample& c = *g.counterexample;
      const fs::path dir = write_counterexample(ce_root / file_safe(g.group), g, c, scope.mmaemu);
      row(g, claim, "REFUTED", dir.string());
      count.mismatched = 1;
      ++r.mismatched;
      Mismatch m;
      m.group = g.group;
      m.case_id = c.what + "; seed " + std::to_string(g.seed) + ", after " + std::to_string(c.cases_before) +
                  " passing cases, shrunk in " + std::to_string(c.shrinks) + " steps; replay: " + (dir / "replay.sh").string();
      m.inputs = c.inputs;
      m.expected = c.expected;
      m.got = c.got;
      r.first_mismatches.push_back(std::move(m));
    }
  }
  if (spec.progress) std::cerr << "\r\033[K" << std::flush;
  for (const std::string& f : rules.failures(coverage)) r.failures.push_back(f);
  for (const auto& [backend, cov] : coverage)
    for (const auto& [detail, t] : cov.declines)
      table += "\n" + backend + " declined " + std::to_string(t.problems) + " problems: " + t.code + ": " + detail + "\n";
  fs::create_directories(ce_root);
  write_file_atomic(ce_root / "groups.md", table + timing);

  std::string reason = std::to_string(properties.size()) + " properties, " + std::to_string(groups) + " groups, " +
                       std::to_string(r.compared) + " cases held (" + std::to_string(discarded) +
                       " discarded outside a property's domain), seed " + std::to_string(seed) + "; " +
                       std::to_string(confirmed) + " exceptions confirmed, " + std::to_string(not_applicable) +
                       " groups not applicable: " + (ce_root / "groups.md").string();
  if (r.mismatched) reason = std::to_string(r.mismatched) + " propert" + (r.mismatched == 1 ? "y" : "ies") + " refuted; " + reason;
  for (const std::string& f : r.failures) reason += "; " + f;
  r.reason = reason;
  r.coverage = coverage;
  r.seed = seed;
  r.verdict = r.mismatched || !r.failures.empty() ? Verdict::fail : Verdict::pass;
  return r;
}

}  // namespace

SuiteKind property_suite_kind() {
  return {
      .name = "properties",
      .description = "properties of the model on random inputs (RapidCheck), failures shrunk to minimal counterexamples",
      .keys =
          {
              required_key("properties", ValueType::string_list),
              tiers::backends_key(),
              optional_key("library_engines", ValueType::string_list),
              tiers::profiles_key(),
              required_key("cases", ValueType::integer),
              optional_key("cases_by_property", ValueType::mapping),
              tiers::seed_key(),
              tiers::require_key(),
              tiers::allowed_declines_key(),
              optional_key("device", ValueType::string).one_of({"cpu", "gpu"}),
          },
      .run = run_properties,
      .seed_replaceable = true,
  };
}

}  // namespace mmaemu
