#include "harness/core/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include "harness/core/interrupt_guard.hpp"

extern char** environ;

namespace mmaemu {
namespace {

using Clock = std::chrono::steady_clock;

// How long an interrupted child has to end on its own after SIGTERM.
constexpr int kInterruptGraceSeconds = 5;

// The environment of the child: ours, with the request's changes.
std::vector<std::string> child_environment(const std::map<std::string, std::optional<std::string>>& changes) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    const std::string name = eq ? std::string(*e, static_cast<size_t>(eq - *e)) : std::string(*e);
    if (!changes.count(name)) env.emplace_back(*e);
  }
  for (const auto& [name, value] : changes)
    if (value) env.push_back(name + "=" + *value);
  return env;
}

// The program to exec: a path with a '/' is taken relative to the working directory; a bare name is
// looked up on PATH. Resolved before fork, because the child may only make async-signal-safe calls.
std::string resolve_program(const std::string& name, const std::filesystem::path& workdir) {
  namespace fs = std::filesystem;
  if (name.find('/') != std::string::npos) {
    const fs::path p = fs::path(name).is_absolute() ? fs::path(name) : workdir / name;
    return ::access(p.c_str(), X_OK) == 0 ? p.string() : "";
  }
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    const size_t end = std::min(dirs.find(':', start), dirs.size());
    const fs::path candidate = fs::path(dirs.substr(start, end - start).empty() ? "." : dirs.substr(start, end - start)) / name;
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    start = end + 1;
  }
  return "";
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> p;
  for (std::string& s : strings) p.push_back(s.data());
  p.push_back(nullptr);
  return p;
}

}  // namespace

std::string signal_name(int signal) {
  switch (signal) {
    case SIGSEGV: return "SIGSEGV";
    case SIGABRT: return "SIGABRT";
    case SIGBUS: return "SIGBUS";
    case SIGFPE: return "SIGFPE";
    case SIGILL: return "SIGILL";
    case SIGKILL: return "SIGKILL";
    case SIGTERM: return "SIGTERM";
    case SIGINT: return "SIGINT";
    case SIGTRAP: return "SIGTRAP";
    case SIGPIPE: return "SIGPIPE";
    case SIGSYS: return "SIGSYS";
    case SIGXCPU: return "SIGXCPU";
    default: return "signal " + std::to_string(signal);
  }
}

ChildResult run_child(const ChildRequest& request, const std::atomic<bool>& stop) {
  ChildResult r;
  if (request.argv.empty()) {
    r.error = "empty command";
    return r;
  }
  const std::string program = resolve_program(request.argv.front(), request.workdir);
  if (program.empty()) {
    r.error = "program not found or not executable: " + request.argv.front();
    return r;
  }
  std::vector<std::string> args = request.argv;
  std::vector<std::string> env = child_environment(request.environment);
  std::vector<char*> argv = pointers(args);
  std::vector<char*> envp = pointers(env);
  // O_CLOEXEC: a log opened by one job's thread must not leak into another job's child.
  const int log = ::open(request.log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log < 0) {
    r.error = "cannot open log " + request.log.string() + ": " + std::strerror(errno);
    return r;
  }
  const std::string workdir = request.workdir.string();

  const auto started = Clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(log);
    r.error = std::string("fork failed: ") + std::strerror(errno);
    return r;
  }
  if (pid == 0) {
    // Child: only async-signal-safe calls until exec. Its own process group, so that a timeout can
    // kill it and everything it started at once.
    ::setpgid(0, 0);
    if (::chdir(workdir.c_str()) != 0) ::_exit(126);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::dup2(log, STDOUT_FILENO);
    ::dup2(log, STDERR_FILENO);
    ::execve(program.c_str(), argv.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here, so that the group exists before any kill below
  ::close(log);
  // A stop at once (a second SIGINT, core/interrupt_guard.hpp) kills the group too: no child
  // outlives the run that started it.
  register_child_group(pid);
  struct Unregister {
    pid_t group;
    ~Unregister() { unregister_child_group(group); }
  } unregister{pid};

  const bool limited = request.timeout_seconds > 0;
  const auto deadline = started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(request.timeout_seconds));
  // A pidfd becomes readable when the child ends, so the wait below wakes at once instead of at its next
  // 10 ms step: a start-up of a few milliseconds is measured as it is (T6's process section). Without one
  // (an old kernel) the wait polls.
  const int pidfd = static_cast<int>(::syscall(SYS_pidfd_open, pid, 0));
  struct ClosePidfd {
    int fd;
    ~ClosePidfd() {
      if (fd >= 0) ::close(fd);
    }
  } close_pidfd{pidfd};
  int status = 0;
  struct rusage usage {};
  for (;;) {
    const pid_t done = ::wait4(pid, &status, WNOHANG, &usage);
    if (done == pid) break;
    if (done < 0 && errno != EINTR) {
      r.error = std::string("waitpid failed: ") + std::strerror(errno);
      break;
    }
    const bool late = limited && Clock::now() >= deadline;
    if (late || stop.load()) {
      // Interrupted, the child is asked first (SIGTERM), so that a child mmaemu leaves its reports
      // whole and its temporary files removed; what does not end within the grace period is killed.
      // A hung child (timed out) is killed at once.
      if (!late) {
        ::kill(-pid, SIGTERM);
        const auto grace_end = Clock::now() + std::chrono::seconds(kInterruptGraceSeconds);
        while (Clock::now() < grace_end && ::waitpid(pid, &status, WNOHANG) == 0)
          std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      ::kill(-pid, SIGKILL);
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      r.end = late ? ChildResult::End::timed_out : ChildResult::End::interrupted;
      r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
      return r;
    }
    if (pidfd >= 0) {
      struct pollfd ended {pidfd, POLLIN, 0};
      ::poll(&ended, 1, 10);  // 10 ms at most: the time limit and the stop flag are checked between waits
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  // Whatever the test left running in its group goes too.
  ::kill(-pid, SIGKILL);
  r.seconds = std::chrono::duration<double>(Clock::now() - started).count();
  r.peak_rss_kb = usage.ru_maxrss;
  if (WIFEXITED(status)) {
    r.end = ChildResult::End::exited;
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.end = ChildResult::End::signalled;
    r.signal = WTERMSIG(status);
  }
  return r;
}

}  // namespace mmaemu
