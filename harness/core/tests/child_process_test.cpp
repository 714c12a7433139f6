#include "harness/core/child_process.hpp"

#include <gtest/gtest.h>

#include <signal.h>

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <string>

#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu {
namespace {

std::string read_text(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
using testing::TempDir;

ChildResult run_sh(const TempDir& dir, const std::string& script, double timeout = 0,
                   std::map<std::string, std::optional<std::string>> environment = {}) {
  const std::atomic<bool> stop{false};
  ChildRequest r;
  r.argv = {"sh", "-c", script};
  r.workdir = dir.path();
  r.log = dir / "log.txt";
  r.environment = std::move(environment);
  r.timeout_seconds = timeout;
  return run_child(r, stop);
}

TEST(ChildProcess, ReportsTheExitCodeAndCapturesOutput) {
  TempDir dir;
  const ChildResult r = run_sh(dir, "echo out; echo err >&2; pwd; exit 3");
  EXPECT_EQ(r.end, ChildResult::End::exited);
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_EQ(read_text(dir / "log.txt"), "out\nerr\n" + dir.path().string() + "\n");
}

TEST(ChildProcess, InheritsTheEnvironmentWithTheRequestsChanges) {
  TempDir dir;
  ::setenv("MMAEMU_CHILD_TEST_A", "inherited", 1);
  ::setenv("MMAEMU_CHILD_TEST_B", "inherited", 1);
  EXPECT_EQ(run_sh(dir, "test \"$MMAEMU_CHILD_TEST_A\" = inherited").exit_code, 0);
  // Removed: a setting of the parent must not leak into a child that is told otherwise.
  EXPECT_EQ(run_sh(dir, "test -z \"${MMAEMU_CHILD_TEST_A+set}\"", 0, {{"MMAEMU_CHILD_TEST_A", std::nullopt}}).exit_code, 0);
  EXPECT_EQ(run_sh(dir, "test \"$MMAEMU_CHILD_TEST_A\" = 7 && test \"$MMAEMU_CHILD_TEST_B\" = inherited", 0,
                   {{"MMAEMU_CHILD_TEST_A", "7"}}).exit_code, 0);
  EXPECT_EQ(run_sh(dir, "test \"$MMAEMU_CHILD_TEST_C\" = new", 0, {{"MMAEMU_CHILD_TEST_C", "new"}}).exit_code, 0);
  ::unsetenv("MMAEMU_CHILD_TEST_A");
  ::unsetenv("MMAEMU_CHILD_TEST_B");
}

TEST(ChildProcess, ACrashIsASignal) {
  TempDir dir;
  const ChildResult r = run_sh(dir, "kill -SEGV $$");
  EXPECT_EQ(r.end, ChildResult::End::signalled);
  EXPECT_EQ(signal_name(r.signal), "SIGSEGV");
}

// Whether `pid` still runs: absent from /proc, or a zombie waiting for its reaper, counts as ended.
bool still_running(pid_t pid) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;
  const size_t paren = line.rfind(')');
  return paren == std::string::npos || line.size() < paren + 3 || line[paren + 2] != 'Z';
}

TEST(ChildProcess, ATimeoutKillsTheWholeGroup) {
  TempDir dir;
  // The grandchild (sleep) would outlive a kill of the shell alone. The check is on the grandchild
  // itself, not on a wall-clock bound, so that a loaded machine cannot fail it.
  const ChildResult r = run_sh(dir, "sleep 60 & echo $! > grandchild.pid; while :; do :; done", 3);
  EXPECT_EQ(r.end, ChildResult::End::timed_out);
  const std::string text = read_text(dir / "grandchild.pid");
  ASSERT_FALSE(text.empty()) << "the shell did not start its grandchild within its time limit";
  const pid_t grandchild = static_cast<pid_t>(std::stol(text));
  // SIGKILL of the group ends it at once; the loop only waits for the kernel to tear it down.
  for (int i = 0; i < 200 && still_running(grandchild); ++i) ::usleep(50000);
  EXPECT_FALSE(still_running(grandchild)) << "the grandchild " << grandchild << " survived the timeout";
  if (still_running(grandchild)) ::kill(grandchild, SIGKILL);
}

TEST(ChildProcess, AMissingProgramIsNotStarted) {
  TempDir dir;
  const std::atomic<bool> stop{false};
  ChildRequest req;
  req.argv = {"./no-such-program"};
  req.workdir = dir.path();
  req.log = dir / "log.txt";
  const ChildResult r = run_child(req, stop);
  EXPECT_EQ(r.end, ChildResult::End::not_started);
  EXPECT_NE(r.error.find("no-such-program"), std::string::npos);
}

}  // namespace
}  // namespace mmaemu
