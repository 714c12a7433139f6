// Runs that survive being interrupted, through the real `mmaemu` program as a child process: SIGINT or
// SIGTERM while suites (mutants) are in progress leaves whole reports marked "interrupted", says what
// finished, exits 128 + the signal, and a resumed run ends with the verdicts of an uninterrupted one;
// the report lock refuses a second run naming the first one's pid; a full disk or a read-only report
// directory is exit 2 naming the path, with no partial or temporary file left behind.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <thread>

#include "harness/core/child_process.hpp"

namespace fs = std::filesystem;
using mmaemu::ChildRequest;
using mmaemu::ChildResult;
using nlohmann::json;

namespace {

// Four copies of T3's quick host suite (about a second each): a run long enough to be interrupted
// between suites, short enough for a test. `after_first`: one more GEMM in the suites after the first,
// for a test that must act while the suite after the first still runs.
constexpr size_t kSuites = 4;

std::string test_tier(const std::string& after_first = "") {
  std::string t = "tier: TI\ndescription: interruption test\nsuites:\n";
  for (size_t i = 1; i <= kSuites; ++i)
    t += "  - name: q" + std::to_string(i) +
         "\n    kind: kernel-conformance\n    labels: [T3, cpu]\n    backends: [host]\n    profiles: [sm80, sm90]\n"
         "    instructions: [all]\n    families: [all]\n    tiles: 1\n    gemms: [1x1x1, 3x5x7, 17x9x33" +
         (!after_first.empty() && i > 1 ? ", " + after_first : std::string()) +
         "]\n    trace: true\n    seed: 1\n    require: [host]\n";
  return t;
}

class TempDir {
 public:
  TempDir() {
    path_ = fs::temp_directory_path() / ("mmaemu-interrupt-" + std::to_string(::getpid()) + "-" +
                                         ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }
  fs::path operator/(const std::string& name) const { return path_ / name; }

 private:
  fs::path path_;
};

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p) << text;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

struct Outcome {
  ChildResult result;
  std::string output;  // stdout and stderr together
  int status() const { return result.end == ChildResult::End::exited ? result.exit_code : -1; }
};

ChildRequest request(const TempDir& d, std::vector<std::string> args, const std::string& log_name) {
  ChildRequest r;
  r.argv = {MMAEMU_BIN};
  r.argv.insert(r.argv.end(), args.begin(), args.end());
  r.workdir = d.path();
  r.log = d / ("logs/" + log_name);
  r.timeout_seconds = 300;
  fs::create_directories(r.log.parent_path());
  return r;
}

Outcome run(const ChildRequest& r) {
  static const std::atomic<bool> never{false};
  Outcome out;
  out.result = mmaemu::run_child(r, never);
  out.output = read_text(r.log);
  return out;
}

// Starts the request, waits until `ready` says the work is in progress, then sends `signal` to the
// holder of `lock` (the pid the report lock records) and waits for the end.
// `sent`: whether the signal was sent (a test that retries a race reads it rather than failing).
Outcome interrupt_when(const ChildRequest& r, const fs::path& lock, const std::function<bool()>& ready, int signal,
                       bool* sent_out = nullptr) {
  Outcome out;
  std::atomic<bool> ended{false};
  std::thread child([&] {
    out = run(r);
    ended.store(true);
  });
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  bool sent = false;
  while (std::chrono::steady_clock::now() < give_up && !ended.load()) {
    if (ready()) {
      const pid_t pid = static_cast<pid_t>(std::atoll(read_text(lock).c_str()));
      if (pid > 0 && ::kill(pid, signal) == 0) sent = true;
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  child.join();
  out.output = read_text(r.log);
  if (sent_out)
    *sent_out = sent;
  else
    EXPECT_TRUE(sent) << "the work never reached the moment to interrupt it:\n" << out.output;
  return out;
}

// The document, or a test failure when it does not parse whole.
json parse_file(const fs::path& p) {
  try {
    return json::parse(read_text(p));
  } catch (const json::exception& e) {
    ADD_FAILURE() << p << " does not parse: " << e.what();
    return json();
  }
}

// Every file in `dir` is a whole document (JSON parses, JSONL line by line) and none is a leftover
// temporary file; the lock files are the only extra files.
void expect_all_whole(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "a temporary file is left: " << e.path();
    if (e.path().extension() == ".json") {
      parse_file(e.path());
    } else if (e.path().extension() == ".jsonl") {
      std::istringstream lines(read_text(e.path()));
      for (std::string line; std::getline(lines, line);) EXPECT_NO_THROW((void)json::parse(line)) << e.path() << ": " << line;
    }
  }
}

size_t suites_in(const fs::path& report) {
  try {
    return json::parse(read_text(report)).at("suites").size();
  } catch (const json::exception&) {
    return 0;  // not there yet (a report is never seen half-written: that is checked after the run)
  }
}

// tier.suite -> verdict and compared count: what must agree between a resumed and a whole run.
std::map<std::string, std::string> verdicts(const json& report) {
  std::map<std::string, std::string> out;
  for (const json& s : report.at("suites"))
    out[s.at("tier").get<std::string>() + "." + s.at("suite").get<std::string>()] =
        s.at("verdict").get<std::string>() + " " + std::to_string(s.at("compared").get<size_t>()) + " " +
        std::to_string(s.at("mismatched").get<size_t>());
  return out;
}

void interrupt_and_resume(int signal, int expected_status, const char* name) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  const std::vector<std::string> args = {"run", "TI.yaml", "--report-dir", "reports", "--quiet"};
  const fs::path report = d / "reports/TI.json";
  const Outcome cut = interrupt_when(request(d, args, "cut.log"), d / "reports/.TI.lock",
                                 [&] { return suites_in(report) >= 1; }, signal);

  EXPECT_EQ(cut.status(), expected_status) << cut.output;
  expect_all_whole(d / "reports");
  const json partial = parse_file(report);
  EXPECT_EQ(partial.value("state", ""), "interrupted");
  const size_t finished = partial.at("suites").size();
  EXPECT_GE(finished, 1u);
  EXPECT_LT(finished, kSuites) << "the run ended before the signal: nothing was interrupted";
  EXPECT_EQ(partial.value("planned", size_t{0}), kSuites);
  EXPECT_NE(cut.output.find(std::string("interrupted by ") + name + ": " + std::to_string(finished) + " of " + std::to_string(kSuites) + " suites finished (TI.q1"),
            std::string::npos)
      << cut.output;
  EXPECT_NE(cut.output.find("--resume"), std::string::npos) << cut.output;
  EXPECT_NE(read_text(d / "reports/TI.md").find("Interrupted"), std::string::npos);

  std::vector<std::string> resume_args = args;
  resume_args.push_back("--resume");
  const Outcome resumed = run(request(d, resume_args, "resumed.log"));
  ASSERT_EQ(resumed.status(), 0) << resumed.output;
  EXPECT_NE(resumed.output.find("resumed: " + std::to_string(finished) + " of " + std::to_string(kSuites) + " suites kept"), std::string::npos)
      << resumed.output;
  expect_all_whole(d / "reports");
  const json whole_after = parse_file(report);
  EXPECT_EQ(whole_after.value("state", ""), "complete");
  // The finished suites were kept, not run again: the same result, to the second.
  for (size_t i = 0; i < finished; ++i)
    EXPECT_EQ(whole_after.at("suites").at(i).at("seconds"), partial.at("suites").at(i).at("seconds")) << i;

  const Outcome whole = run(request(d, {"run", "TI.yaml", "--report-dir", "whole", "--quiet"}, "whole.log"));
  ASSERT_EQ(whole.status(), 0) << whole.output;
  EXPECT_EQ(verdicts(whole_after), verdicts(parse_file(d / "whole/TI.json")));
  EXPECT_EQ(verdicts(whole_after).size(), kSuites);
}

}  // namespace

TEST(RunInterrupted, SigintKeepsFinishedSuitesAndResumes) { interrupt_and_resume(SIGINT, 130, "SIGINT"); }

TEST(RunInterrupted, SigtermKeepsFinishedSuitesAndResumes) { interrupt_and_resume(SIGTERM, 143, "SIGTERM"); }

// --resume keeps nothing of a report made from other inputs: it says so (exit 2, the file named).
TEST(RunInterrupted, ResumeRefusesAReportOfOtherInputs) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  ASSERT_EQ(run(request(d, {"run", "TI.yaml", "--suite", "q1", "--report-dir", "r", "--report-stem", "s", "--quiet"}, "a.log")).status(), 0);
  const Outcome other = run(request(d, {"run", "TI.yaml", "--suite", "q2", "--report-dir", "r", "--report-stem", "s", "--quiet", "--resume"}, "b.log"));
  EXPECT_EQ(other.status(), 2) << other.output;
  EXPECT_NE(other.output.find("r/s.json: was written by a run of other inputs"), std::string::npos)
      << other.output;
}

// A second run on the same reports while the first runs: exit 2 at once, naming the lock file and
// the first one's pid; the first run is not disturbed.
TEST(ReportLock, SecondRunOnTheSameReportsFailsNamingTheHolder) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  const std::vector<std::string> args = {"run", "TI.yaml", "--report-dir", "reports", "--quiet"};
  Outcome first;
  std::thread t([&] { first = run(request(d, args, "first.log")); });
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
  while (suites_in(d / "reports/TI.json") < 1 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  const std::string holder = read_text(d / "reports/.TI.lock");
  const auto started = std::chrono::steady_clock::now();
  const Outcome second = run(request(d, args, "second.log"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  t.join();
  EXPECT_EQ(second.status(), 2) << second.output;
  EXPECT_LT(seconds, 5.0) << "the second run waited instead of failing at once";
  EXPECT_NE(second.output.find((d / "reports/.TI.lock").string()), std::string::npos) << second.output;
  EXPECT_NE(second.output.find("pid " + holder.substr(0, holder.find('\n')) + ")"), std::string::npos) << second.output;
  EXPECT_EQ(first.status(), 0) << first.output;
  EXPECT_EQ(parse_file(d / "reports/TI.json").at("suites").size(), kSuites);
}

namespace {

// A campaign of six mutants whose one test takes 0.4 s (killed by any active mutant), in `d`.
void write_small_campaign(const TempDir& d) {
  std::string catalogue = "parts: {t: the test code}\nmutants:\n";
  for (int id = 1; id <= 6; ++id)
    catalogue += "  - {id: " + std::to_string(id) + ", name: m" + std::to_string(id) +
                 ", target: \"t.cpp:f\", fault: \"exit 1\", expect: killed, tier: cpu, part: t}\n";
  write_text(d / "catalogue.yaml", catalogue);
  write_text(d / "T4.yaml", R"(tier: T4-int
catalogue: catalogue.yaml
catalogue_tiers: [cpu]
program: /bin/sh
jobs: 1
timeout: {factor: 10, slack_seconds: 10, min_seconds: 10, confirm_factor: 2}
tests:
  - name: a
    command: [sh, -c, 'sleep 0.4; test -z "$MMAEMU_MUTANT" || test "$MMAEMU_MUTANT" = 0']
)");
}

size_t lines_in(const fs::path& file) {
  const std::string j = read_text(file);
  return static_cast<size_t>(std::count(j.begin(), j.end(), '\n'));
}

}  // namespace

// A mutation campaign interrupted between mutants keeps its journal and kill matrix whole, exits 130,
// and --resume ends with the kill matrix of an uninterrupted campaign.
TEST(MutateInterrupted, KeepsJudgedMutantsAndResumes) {
  TempDir d;
  write_small_campaign(d);
  const std::vector<std::string> args = {"mutate", "T4.yaml", "--report-dir", "reports", "--quiet"};
  const fs::path journal = d / "reports/T4-int.journal.jsonl";
  const Outcome cut = interrupt_when(request(d, args, "cut.log"), d / "reports/.T4-int.lock",
                                     [&] { return lines_in(journal) >= 2; }, SIGINT);
  EXPECT_EQ(cut.status(), 130) << cut.output;
  expect_all_whole(d / "reports");
  const json partial = parse_file(d / "reports/T4-int.json");
  const size_t judged = partial.at("mutants").size();
  EXPECT_GE(judged, 2u);
  EXPECT_LT(judged, 6u) << "the campaign ended before the signal";
  EXPECT_NE(cut.output.find("interrupted by SIGINT: " + std::to_string(judged) + " of 6 mutants judged"), std::string::npos)
      << cut.output;

  std::vector<std::string> resume_args = args;
  resume_args.push_back("--resume");
  const Outcome resumed = run(request(d, resume_args, "resumed.log"));
  ASSERT_EQ(resumed.status(), 0) << resumed.output;
  expect_all_whole(d / "reports");
  const Outcome whole = run(request(d, {"mutate", "T4.yaml", "--report-dir", "whole", "--quiet"}, "whole.log"));
  ASSERT_EQ(whole.status(), 0) << whole.output;
  auto outcomes = [](const json& m) {
    std::map<int, std::string> out;
    for (const json& r : m.at("mutants")) out[r.at("id").get<int>()] = r.at("outcome").get<std::string>();
    return out;
  };
  const auto after = outcomes(parse_file(d / "reports/T4-int.json"));
  EXPECT_EQ(after.size(), 6u);
  EXPECT_EQ(after, outcomes(parse_file(d / "whole/T4-int.json")));
}

// A throughput run interrupted in its harness section (child runs of `mmaemu run`, which it stops):
// exit 130, the reports hold the finished reference section marked "interrupted", nothing half-written.
TEST(BenchInterrupted, KeepsFinishedSectionsMarkedInterrupted) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  write_text(d / "T6.yaml", R"(tier: T6i
reference: {profiles: [sm90], formats: [fp16], threads: ["1"], batch: 256, min_time_ms: 5, repetitions: 2, seed: 1}
harness:
  repetitions: 4
  timeout_seconds: 120
  suites:
    - {tier: TI.yaml, suite: q1}
    - {tier: TI.yaml, suite: q2}
)");
  const fs::path report = d / "reports/T6i.json";
  auto running = [&] {
    try {
      return json::parse(read_text(report)).value("state", "") == "running";
    } catch (const json::exception&) {
      return false;
    }
  };
  const Outcome cut = interrupt_when(request(d, {"bench", "T6.yaml", "--report-dir", "reports", "--quiet"}, "cut.log"),
                                     d / "reports/.T6i.lock", running, SIGINT);
  EXPECT_EQ(cut.status(), 130) << cut.output;
  expect_all_whole(d / "reports");
  const json partial = parse_file(report);
  EXPECT_EQ(partial.value("state", ""), "interrupted");
  EXPECT_TRUE(partial.at("sections").contains("reference"));
  EXPECT_FALSE(partial.at("sections").contains("harness")) << "a section cut short is not reported as measured";
  EXPECT_NE(cut.output.find("interrupted by SIGINT: 1 of 2 sections finished (reference)"), std::string::npos) << cut.output;
  EXPECT_NE(read_text(d / "reports/T6i.md").find("Interrupted"), std::string::npos);
}

// A second signal while the run stops is the way out at once: exit 130 without waiting for the suite
// in progress, every report on disk whole (the last one written after a finished suite), no temporary
// file left, and --resume still ends with every suite's verdict.
TEST(RunInterrupted, ASecondSignalStopsAtOnceLeavingWholeReports) {
  TempDir d;
  const std::vector<std::string> args = {"run", "TI.yaml", "--report-dir", "reports", "--quiet"};
  const fs::path report = d / "reports/TI.json";
  const fs::path lock = d / "reports/.TI.lock";
  const ChildRequest cut_request = request(d, args, "cut.log");
  // The second signal must come while the suite after the first still runs. On a loaded machine that
  // suite can end (and the run exit with 130, its whole reports written) before the test sees the first
  // signal handled: then the scenario is run again with a longer suite in progress.
  Outcome cut;
  for (const char* longer : {"40x33x65", "65x40x97", "97x65x129"}) {
    fs::remove_all(d / "reports");
    write_text(d / "TI.yaml", test_tier(longer));
    bool first_sent = false, second_sent = false;
    cut = interrupt_when(cut_request, lock,
                         [&] {
                           if (!first_sent) {
                             if (suites_in(report) < 1) return false;
                             const pid_t pid = static_cast<pid_t>(std::atoll(read_text(lock).c_str()));
                             first_sent = pid > 0 && ::kill(pid, SIGINT) == 0;
                             return false;
                           }
                           // interrupt_when sends the second once the first was handled: two SIGINTs
                           // pending at once are delivered as one.
                           return read_text(cut_request.log).find("SIGINT: stopping") != std::string::npos;
                         },
                         SIGINT, &second_sent);
    if (cut.output.find("stopping at once") != std::string::npos) break;
    EXPECT_EQ(cut.status(), 130) << "a run that stopped on the first signal alone:\n" << cut.output;
  }
  EXPECT_EQ(cut.status(), 130) << cut.output;
  EXPECT_NE(cut.output.find("stopping at once"), std::string::npos) << cut.output;
  expect_all_whole(d / "reports");
  EXPECT_GE(parse_file(report).at("suites").size(), 1u);

  std::vector<std::string> resume_args = args;
  resume_args.push_back("--resume");
  const Outcome resumed = run(request(d, resume_args, "resumed.log"));
  ASSERT_EQ(resumed.status(), 0) << resumed.output;
  expect_all_whole(d / "reports");
  EXPECT_EQ(verdicts(parse_file(report)).size(), kSuites);
}

// A mutation tier run by `mmaemu run` (as the main job runs T4) stops between mutants like `mutate`:
// exit 130, the kill matrix and journal whole, and `mutate --resume` finishes the campaign.
TEST(RunInterrupted, AMutationTierInsideRunKeepsJudgedMutants) {
  TempDir d;
  write_small_campaign(d);
  const fs::path journal = d / "reports/T4-int.journal.jsonl";
  const Outcome cut = interrupt_when(request(d, {"run", "T4.yaml", "--report-dir", "reports", "--quiet"}, "cut.log"),
                                     d / "reports/.T4-int.run.lock", [&] { return lines_in(journal) >= 2; }, SIGTERM);
  EXPECT_EQ(cut.status(), 143) << cut.output;
  expect_all_whole(d / "reports");
  const size_t judged = parse_file(d / "reports/T4-int.json").at("mutants").size();
  EXPECT_GE(judged, 2u);
  EXPECT_LT(judged, 6u) << "the campaign ended before the signal";
  const Outcome resumed = run(request(d, {"mutate", "T4.yaml", "--report-dir", "reports", "--quiet", "--resume"}, "resumed.log"));
  ASSERT_EQ(resumed.status(), 0) << resumed.output;
  EXPECT_EQ(parse_file(d / "reports/T4-int.json").at("mutants").size(), 6u);
}

namespace {

// Why `mmaemu record` cannot run here (no CUDA in this build, no usable GPU), or nothing: the program
// itself is asked, with the smallest recording there is. Any other failure of that recording fails the
// test: only the two documented reasons are a skip.
std::optional<std::string> record_unavailable(const TempDir& d) {
  const Outcome probe = run(request(d, {"record", "--out", "probe", "--instr", "mma.m16n8k16.f32.f16.f16.f32",
                                        "--tiles-per-family", "1"},
                                    "probe.log"));
  if (probe.status() == 0) return std::nullopt;
  const bool no_cuda = probe.output.find("this build has no CUDA support") != std::string::npos;
  // kernels::no_cuda_device_reason's two wordings: no GPU at all, or one CUDA cannot use.
  const bool no_gpu = probe.output.find("no NVIDIA GPU on this machine") != std::string::npos ||
                      probe.output.find("no usable CUDA device") != std::string::npos;
  if (probe.status() == 2 && (no_cuda || no_gpu)) return "mmaemu record cannot run here: " + probe.output;
  ADD_FAILURE() << "the probe recording failed (exit " << probe.status() << "):\n" << probe.output;
  return "the probe recording failed";
}

}  // namespace

// An instruction recording interrupted between instructions writes nothing (a fixture set is whole
// or absent) and says how far it got.
TEST(RecordInterrupted, AFixtureRecordingWritesNothingAndSaysSo) {
  TempDir d;
  if (auto why = record_unavailable(d)) GTEST_SKIP() << *why;
  const fs::path log = d / "logs/cut.log";
  const Outcome cut = interrupt_when(request(d, {"record", "--out", "set", "--tiles-per-family", "200"}, "cut.log"),
                                     d / "set/.mmaemu.lock",
                                     [&] { return read_text(log).find(" tiles, ") != std::string::npos; }, SIGINT);
  EXPECT_EQ(cut.status(), 130) << cut.output;
  EXPECT_NE(cut.output.find("interrupted by SIGINT: "), std::string::npos) << cut.output;
  EXPECT_NE(cut.output.find("nothing written"), std::string::npos) << cut.output;
  EXPECT_FALSE(fs::exists(d / "set/manifest.yaml")) << "an interrupted fixture set has no manifest";
  expect_all_whole(d / "set");
}

// A cuBLASLt recording interrupted between calls keeps what it recorded as a whole recording.json
// listing exactly the calls it finished.
TEST(RecordInterrupted, ACublasltRecordingKeepsTheCallsItFinished) {
  TempDir d;
  if (auto why = record_unavailable(d)) GTEST_SKIP() << *why;
  std::string shapes;
  for (int k = 16; k <= 16 * 40; k += 16) shapes += (shapes.empty() ? "" : ", ") + std::string("24x16x") + std::to_string(k);
  write_text(d / "plan.yaml", "plan: interrupt-test\ndescription: many small calls\nseed: 1\nheuristic_results: 1\n"
                              "groups:\n  - name: many\n    types: [\"bf16 bf16 fp32 32F\", \"fp16 fp16 fp32 32F\"]\n"
                              "    shapes: [" + shapes + "]\n    scalars: [\"1 0\", \"0.5 2\"]\n"
                              "    families: [realistic, cancellation]\n");  // 2 x 40 x 2 x 2 = 320 calls
  const fs::path recording = d / "rec/recording.json";
  const Outcome cut = interrupt_when(request(d, {"record", "--cublaslt", "plan.yaml", "--out", "rec"}, "cut.log"),
                                     d / "rec/.mmaemu.lock", [&] { return fs::exists(recording); }, SIGTERM);
  EXPECT_EQ(cut.status(), 143) << cut.output;
  expect_all_whole(d / "rec");
  const size_t calls = parse_file(recording).at("calls").size();
  EXPECT_GE(calls, 64u);
  EXPECT_LT(calls, 320u) << "the recording ended before the signal";
  EXPECT_NE(cut.output.find("interrupted by SIGTERM: " + std::to_string(calls) + " of 320 calls recorded"), std::string::npos)
      << cut.output;
}

namespace {

// Unmounts what mount_tmpfs mounted when the test ends, before its TempDir is removed (declared after
// it): a mount left behind outlives the test and keeps its directory.
struct Unmount {
  fs::path at;
  ~Unmount() {
    if (!at.empty()) ::umount2(at.c_str(), MNT_DETACH);
  }
};

// A tmpfs of `options` at `dir`; false (with why) where this process may not mount.
bool mount_tmpfs(const fs::path& dir, const std::string& options, std::string& why) {
  fs::create_directories(dir);
  if (::mount("tmpfs", dir.c_str(), "tmpfs", 0, options.c_str()) == 0) return true;
  why = std::string("cannot mount a tmpfs: ") + std::strerror(errno);
  return false;
}

void expect_no_partial_files(const fs::path& dir) {
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    const std::string name = e.path().filename().string();
    EXPECT_EQ(name.find(".tmp."), std::string::npos) << "a temporary file is left: " << e.path();
    if (e.path().extension() == ".json") parse_file(e.path());
  }
}

}  // namespace

// A full disk: exit 2 naming the report that could not be written; no partial or temporary file.
// Where no tmpfs can be mounted, a file size limit stands in (SIGXFSZ ignored, so writes fail with EFBIG).
TEST(ReportsUnwritable, FullDiskIsExit2NamingTheFile) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  const fs::path out = d / "full";
  std::string why;
  ChildRequest r = request(d, {"run", "TI.yaml", "--suite", "q1", "--report-dir", out.string(), "--quiet"}, "full.log");
  Unmount unmount;
  if (mount_tmpfs(out, "size=64k", why)) {
    unmount.at = out;
  } else {
    r.argv.insert(r.argv.begin(), {"sh", "-c", "trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\""});
  }
  const Outcome full = run(r);
  EXPECT_EQ(full.status(), 2) << full.output;
  EXPECT_NE(full.output.find((out / "TI.q1.json").string() + ": cannot write the file"), std::string::npos) << full.output;
  expect_no_partial_files(out);
  EXPECT_FALSE(fs::exists(out / "TI.q1.json")) << "a report that does not fit is not there at all";
}

// A read-only report directory: exit 2 before anything runs, naming the directory.
TEST(ReportsUnwritable, ReadOnlyDirectoryIsExit2NamingIt) {
  TempDir d;
  write_text(d / "TI.yaml", test_tier());
  const fs::path out = d / "ro";
  std::string why;
  Unmount unmount;
  if (mount_tmpfs(out, "size=64k", why)) unmount.at = out;
  bool mounted = !unmount.at.empty() && ::mount(nullptr, out.c_str(), nullptr, MS_REMOUNT | MS_RDONLY, nullptr) == 0;
  if (!mounted) {
    fs::create_directories(out);
    fs::permissions(out, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::others_read);
    // Root writes through permissions: chmod then proves nothing.
    if (::access(out.c_str(), W_OK) == 0) GTEST_SKIP() << why << "; and chmod 0555 does not stop this user writing";
  }
  const auto started = std::chrono::steady_clock::now();
  const Outcome ro = run(request(d, {"run", "TI.yaml", "--report-dir", out.string(), "--quiet"}, "ro.log"));
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  EXPECT_EQ(ro.status(), 2) << ro.output;
  EXPECT_NE(ro.output.find(out.string() + "/.TI.lock: cannot create the lock file"), std::string::npos) << ro.output;
  EXPECT_LT(seconds, 5.0) << "a read-only directory is found before the suites run";
  EXPECT_TRUE(fs::is_empty(out));
  if (!mounted) fs::permissions(out, fs::perms::owner_all);
}
