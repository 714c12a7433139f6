#include "harness/signoff/process.hpp"

#include <unistd.h>

#include <atomic>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/core/child_process.hpp"

namespace mmaemu::signoff {
namespace fs = std::filesystem;

ProgramOutput run_program(const std::vector<std::string>& argv, const fs::path& workdir, double timeout_seconds) {
  // The output goes to a log in a directory of its own, so that a program writing files into
  // `workdir` (cuobjdump -xelf) never meets it.
  ScratchDir logs("mmaemu-signoff");
  ChildRequest request;
  request.argv = argv;
  request.workdir = workdir;
  request.log = logs.path() / "output.log";
  request.timeout_seconds = timeout_seconds;
  const std::atomic<bool> never{false};
  const ChildResult r = run_child(request, never);
  ProgramOutput out;
  std::ifstream in(request.log, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  out.output = text.str();
  switch (r.end) {
    case ChildResult::End::exited:
      out.ran = true;
      out.exit_code = r.exit_code;
      break;
    case ChildResult::End::signalled:
      out.error = argv.front() + " ended by " + signal_name(r.signal);
      break;
    case ChildResult::End::timed_out:
      out.error = argv.front() + " did not finish within " + std::to_string(static_cast<int>(timeout_seconds)) + " s";
      break;
    default:
      out.error = r.error.empty() ? argv.front() + " did not run" : r.error;
  }
  return out;
}

fs::path find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    if (dir.empty()) continue;
    const fs::path candidate = fs::path(dir) / name;
    if (::access(candidate.c_str(), X_OK) == 0 && fs::is_regular_file(candidate)) return candidate;
  }
  return {};
}

}  // namespace mmaemu::signoff
