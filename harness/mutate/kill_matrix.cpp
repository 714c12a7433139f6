#include "harness/mutate/kill_matrix.hpp"
#include "harness/core/json_integer.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <sstream>

#include "harness/core/errors.hpp"

namespace mmaemu::mutate {
namespace {

using nlohmann::json;

constexpr TestOutcome kTestOutcomes[] = {TestOutcome::passed, TestOutcome::failed, TestOutcome::timeout,
                                         TestOutcome::crash, TestOutcome::not_run, TestOutcome::error};
constexpr Outcome kOutcomes[] = {Outcome::killed, Outcome::timeout, Outcome::crash,
                                 Outcome::survived, Outcome::equivalent, Outcome::equivalent_killed,
                                 Outcome::identity_survived, Outcome::identity_killed, Outcome::error};

TestOutcome test_outcome_from_string(const std::string& s, const std::string& source) {
  for (TestOutcome o : kTestOutcomes)
    if (s == to_string(o)) return o;
  throw InputError(source, "unknown test outcome '" + s + "'");
}

Expectation expectation_from_string(const std::string& s, const std::string& source) {
  for (Expectation e : {Expectation::killed, Expectation::equivalent, Expectation::identity})
    if (s == to_string(e)) return e;
  throw InputError(source, "unknown expectation '" + s + "'");
}

json cell_json(const TestCell& c) {
  json j = {{"outcome", to_string(c.outcome)}, {"seconds", c.seconds}};
  if (c.outcome == TestOutcome::failed) j["exit_code"] = c.exit_code;
  if (c.outcome == TestOutcome::crash) j["signal"] = c.signal;
  if (!c.log.empty()) j["log"] = c.log;
  if (!c.error.empty()) j["error"] = c.error;
  if (c.first_timeout_seconds > 0) j["first_timeout_seconds"] = c.first_timeout_seconds;
  return j;
}

json result_json(const MutantResult& r) {
  const Mutant& m = r.mutant;
  json tests = json::object();
  json order = json::array();
  for (const TestCell& c : r.cells) {
    tests[c.test] = cell_json(c);
    order.push_back(c.test);
  }
  json j = {{"id", m.id},           {"name", m.name},       {"target", m.target},
            {"fault", m.fault},     {"expect", to_string(m.expect)},
            {"tier", m.tier},       {"outcome", to_string(r.outcome)},
            {"killed_by", r.killed_by}, {"seconds", r.seconds}, {"test_order", order}, {"tests", tests}};
  if (!m.justification.empty()) j["justification"] = m.justification;
  return j;
}

MutantResult result_from(const json& j, const std::string& source) {
  MutantResult r;
  Mutant& m = r.mutant;
  m.id = json_integer<int>(j.at("id"));
  m.name = j.at("name").get<std::string>();
  m.target = j.value("target", "");
  m.fault = j.value("fault", "");
  m.expect = expectation_from_string(j.at("expect").get<std::string>(), source);
  m.tier = j.value("tier", "");
  m.justification = j.value("justification", "");
  const auto outcome = outcome_from_string(j.at("outcome").get<std::string>());
  if (!outcome) throw InputError(source, "mutant " + std::to_string(m.id) + ": unknown outcome");
  r.outcome = *outcome;
  r.killed_by = j.at("killed_by").get<std::vector<std::string>>();
  r.seconds = j.value("seconds", 0.0);
  const json& tests = j.at("tests");
  for (const json& name : j.at("test_order")) {
    const json& t = tests.at(name.get<std::string>());
    TestCell c;
    c.test = name.get<std::string>();
    c.outcome = test_outcome_from_string(t.at("outcome").get<std::string>(), source);
    c.exit_code = t.value("exit_code", 0);
    c.signal = t.value("signal", "");
    c.seconds = t.value("seconds", 0.0);
    c.log = t.value("log", "");
    c.error = t.value("error", "");
    c.first_timeout_seconds = t.value("first_timeout_seconds", 0.0);
    r.cells.push_back(std::move(c));
  }
  return r;
}

std::string percent(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100.0 * v);
  return buf;
}

std::string seconds_text(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", s);
  return buf;
}

// A kill-matrix cell in Markdown: what the test did.
std::string cell_text(const TestCell& c) {
  switch (c.outcome) {
    case TestOutcome::passed: return "·";
    case TestOutcome::failed: return "**killed**";
    case TestOutcome::timeout: return "**timeout**";
    case TestOutcome::crash: return "**crash** " + c.signal;
    case TestOutcome::not_run: return "not run";
    case TestOutcome::error: return "error";
  }
  return "?";
}

std::string escape_cell(std::string s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

std::string list_text(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

}  // namespace

const char* to_string(TestOutcome o) {
  switch (o) {
    case TestOutcome::passed: return "passed";
    case TestOutcome::failed: return "failed";
    case TestOutcome::timeout: return "timeout";
    case TestOutcome::crash: return "crash";
    case TestOutcome::not_run: return "not-run";
    case TestOutcome::error: return "error";
  }
  return "?";
}

const char* to_string(Outcome o) {
  switch (o) {
    case Outcome::killed: return "killed";
    case Outcome::timeout: return "timeout";
    case Outcome::crash: return "crash";
    case Outcome::survived: return "survived";
    case Outcome::equivalent: return "equivalent";
    case Outcome::equivalent_killed: return "equivalent-killed";
    case Outcome::identity_survived: return "identity-survived";
    case Outcome::identity_killed: return "identity-killed";
    case Outcome::error: return "error";
  }
  return "?";
}

std::optional<Outcome> outcome_from_string(const std::string& s) {
  for (Outcome o : kOutcomes)
    if (s == to_string(o)) return o;
  return std::nullopt;
}

bool is_problem(Outcome o) {
  return o == Outcome::survived || o == Outcome::equivalent_killed || o == Outcome::identity_killed || o == Outcome::error;
}

bool counts_as_killed(Outcome o) { return o == Outcome::killed || o == Outcome::timeout || o == Outcome::crash; }

MutantResult judge(const Mutant& mutant, std::vector<TestCell> cells) {
  MutantResult r;
  r.mutant = mutant;
  bool crash = false, timeout = false, failed = false, error = false;
  for (const TestCell& c : cells) {
    r.seconds += c.seconds;
    crash |= c.outcome == TestOutcome::crash;
    timeout |= c.outcome == TestOutcome::timeout;
    failed |= c.outcome == TestOutcome::failed;
    error |= c.outcome == TestOutcome::error;
    if (c.kills()) r.killed_by.push_back(c.test);
  }
  r.cells = std::move(cells);
  const bool killed = crash || timeout || failed;
  if (error && !killed) {
    r.outcome = Outcome::error;
  } else if (mutant.expect == Expectation::identity) {
    r.outcome = killed ? Outcome::identity_killed : Outcome::identity_survived;
  } else if (mutant.expect == Expectation::equivalent) {
    r.outcome = killed ? Outcome::equivalent_killed : Outcome::equivalent;
  } else {
    r.outcome = crash ? Outcome::crash : timeout ? Outcome::timeout : failed ? Outcome::killed : Outcome::survived;
  }
  return r;
}

Score KillMatrix::score() const {
  Score s;
  for (const MutantResult& r : mutants) {
    if (r.mutant.expect != Expectation::killed) continue;
    ++s.scored;
    if (counts_as_killed(r.outcome)) ++s.killed;
  }
  return s;
}

size_t KillMatrix::count(Outcome o) const {
  return static_cast<size_t>(std::count_if(mutants.begin(), mutants.end(), [o](const MutantResult& r) { return r.outcome == o; }));
}

const MutantResult* KillMatrix::find(int id) const {
  for (const MutantResult& r : mutants)
    if (r.mutant.id == id) return &r;
  return nullptr;
}

std::string score_text(const Score& s) {
  return std::to_string(s.killed) + "/" + std::to_string(s.scored) + " = " + percent(s.value());
}

std::string to_json(const KillMatrix& m) {
  json tests = json::array();
  for (const TestInfo& t : m.tests)
    tests.push_back({{"name", t.name}, {"command", t.command}, {"baseline_seconds", t.baseline_seconds},
                     {"timeout_seconds", t.timeout_seconds}});
  json summary = json::object();
  for (Outcome o : kOutcomes) summary[to_string(o)] = m.count(o);
  const Score s = m.score();
  json mutants = json::array();
  for (const MutantResult& r : m.mutants) mutants.push_back(result_json(r));
  json j = {{"tier", m.tier},
                  {"catalogue", m.catalogue},
                  {"commit", m.commit},
                  {"started", m.started},
                  {"complete", m.mutants.size() == m.planned},
                  {"planned", m.planned},
                  {"score", {{"killed", s.killed}, {"scored", s.scored}, {"value", s.value()}, {"text", score_text(s)}}},
                  {"summary", summary},
                  {"tests", tests},
                  {"mutants", mutants}};
  if (!m.baseline_file.empty()) j["baseline"] = {{"file", m.baseline_file}, {"changes", m.baseline_changes}};
  if (m.shard.sharded()) j["shard"] = {{"index", m.shard.index}, {"count", m.shard.count}};
  return j.dump(2) + "\n";
}

KillMatrix kill_matrix_from_json(const std::string& text, const std::string& source) {
  try {
    const json j = json::parse(text);
    KillMatrix m;
    m.tier = j.at("tier").get<std::string>();
    m.catalogue = j.value("catalogue", "");
    m.commit = j.value("commit", "");
    m.started = j.value("started", "");
    for (const json& t : j.at("tests")) {
      TestInfo info;
      info.name = t.at("name").get<std::string>();
      info.command = t.value("command", std::vector<std::string>{});
      info.baseline_seconds = t.value("baseline_seconds", 0.0);
      info.timeout_seconds = t.value("timeout_seconds", 0.0);
      m.tests.push_back(std::move(info));
    }
    for (const json& r : j.at("mutants")) m.mutants.push_back(result_from(r, source));
    m.planned = j.value("planned", m.mutants.size());
    if (j.contains("baseline")) {
      m.baseline_file = j["baseline"].value("file", "");
      m.baseline_changes = j["baseline"].value("changes", std::vector<std::string>{});
    }
    if (j.contains("shard")) {
      m.shard.index = json_integer<unsigned>(j["shard"].at("index"));
      m.shard.count = json_integer<unsigned>(j["shard"].at("count"));
    }
    return m;
  } catch (const json::exception& e) {
    throw InputError(source, std::string("not a kill matrix: ") + e.what());
  }
}

std::string to_json_line(const MutantResult& r) { return result_json(r).dump() + "\n"; }

MutantResult mutant_result_from_json(const std::string& text, const std::string& source) {
  try {
    return result_from(json::parse(text), source);
  } catch (const json::exception& e) {
    throw InputError(source, std::string("not a mutant result: ") + e.what());
  }
}

std::string to_markdown(const KillMatrix& m) {
  std::ostringstream md;
  const Score s = m.score();
  md << "# " << m.tier << ": mutation campaign\n\n";
  md << "Catalogue `" << m.catalogue << "`, commit `" << m.commit << "`, started " << m.started << ".";
  if (m.mutants.size() != m.planned) md << " **Incomplete: " << m.mutants.size() << " of " << m.planned << " mutants.**";
  md << "\n\n**Mutation score " << score_text(s)
     << "** (killed, timeouts and crashes included, over the mutants expected killed; equivalent mutants and "
        "identity controls are not scored).\n\n";
  md << "| outcome | mutants |\n|---|---:|\n";
  for (Outcome o : kOutcomes)
    if (m.count(o)) md << "| " << to_string(o) << (is_problem(o) ? " (fails the campaign)" : "") << " | " << m.count(o) << " |\n";
  md << "\n## Tests\n\n| test | command | baseline s | timeout s |\n|---|---|---:|---:|\n";
  for (const TestInfo& t : m.tests) {
    std::string cmd;
    for (const std::string& a : t.command) cmd += (cmd.empty() ? "" : " ") + a;
    md << "| " << t.name << " | `" << escape_cell(cmd) << "` | " << seconds_text(t.baseline_seconds) << " | "
       << seconds_text(t.timeout_seconds) << " |\n";
  }
  md << "\n## Kill matrix\n\n| id | name | target | expect | outcome |";
  for (const TestInfo& t : m.tests) md << " " << t.name << " |";
  md << "\n|---:|---|---|---|---|";
  for (size_t i = 0; i < m.tests.size(); ++i) md << ":---:|";
  md << "\n";
  for (const MutantResult& r : m.mutants) {
    const std::string outcome = is_problem(r.outcome) ? "**" + std::string(to_string(r.outcome)) + "**" : to_string(r.outcome);
    md << "| " << r.mutant.id << " | " << escape_cell(r.mutant.name) << " | `" << escape_cell(r.mutant.target) << "` | "
       << to_string(r.mutant.expect) << " | " << outcome << " |";
    for (const TestInfo& t : m.tests) {
      const auto c = std::find_if(r.cells.begin(), r.cells.end(), [&](const TestCell& x) { return x.test == t.name; });
      md << " " << (c == r.cells.end() ? "not run" : cell_text(*c)) << " |";
    }
    md << "\n";
  }
  if (!m.baseline_file.empty()) {
    md << "\n## Against the baseline `" << m.baseline_file << "`\n\n";
    if (m.baseline_changes.empty()) md << "Every mutant has the outcome it had, killed by the same tests.\n";
    for (const std::string& c : m.baseline_changes) md << "- " << c << "\n";
  }
  md << "\n## Mutants\n\n";
  for (const MutantResult& r : m.mutants) {
    md << "- **" << r.mutant.id << " " << r.mutant.name << "** (" << to_string(r.outcome) << "): " << r.mutant.fault;
    if (!r.killed_by.empty()) md << " Killed by " << list_text(r.killed_by) << ".";
    if (!r.mutant.justification.empty()) md << " Justification: " << r.mutant.justification;
    md << "\n";
  }
  return md.str();
}

}  // namespace mmaemu::mutate
