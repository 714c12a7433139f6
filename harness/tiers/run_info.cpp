#include <cstdlib>
#include "harness/tiers/run_info.hpp"

#include "harness/core/host_info.hpp"
#include "harness/core/program_variant.hpp"
#include "mmaemu/reference/model.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <ctime>
#include <optional>

#ifndef MMAEMU_VERSION
#define MMAEMU_VERSION "unknown"
#endif

namespace mmaemu {
namespace {

// First line of a shell command's output ("" when it prints nothing), or nullopt when it fails.
std::optional<std::string> first_line_of(const std::string& command) {
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) return std::nullopt;
  std::array<char, 256> buf{};
  std::string line;
  if (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) line = buf.data();
  // Read to the end, so that the command does not die of a broken pipe.
  while (std::fgets(buf.data(), static_cast<int>(buf.size()), p)) {
  }
  if (::pclose(p) != 0) return std::nullopt;
  while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
  return line;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string git_command(const std::filesystem::path& dir) {
  return "git -C " + shell_quote(dir.empty() ? "." : dir.string());
}

}  // namespace

// MMAEMU_SOURCE_COMMIT overrides git: a run on a copy of the tree whose git metadata is not the
// source's (a GPU machine that receives the files and the binaries) names the commit it was built from.
static const char* source_commit_override() {
  const char* c = std::getenv("MMAEMU_SOURCE_COMMIT");
  return c && *c ? c : nullptr;
}

std::string git_commit(const std::filesystem::path& dir) {
  if (const char* c = source_commit_override()) return c;
  const auto head = first_line_of(git_command(dir) + " rev-parse HEAD 2>/dev/null");
  return head && !head->empty() ? *head : "unknown";
}

std::string git_worktree_state(const std::filesystem::path& dir) {
  if (source_commit_override()) return "as built (MMAEMU_SOURCE_COMMIT)";
  const auto change = first_line_of(git_command(dir) + " status --porcelain --untracked-files=no 2>/dev/null");
  if (!change) return "unknown";
  return change->empty() ? "clean" : "modified";
}


RunReport new_run_report(const std::filesystem::path& source_dir) {
  RunReport r;
  r.tool_version = MMAEMU_VERSION;
  r.commit = git_commit(source_dir);
  r.started_utc = utc_now_iso8601();
  r.host = host_name();
  r.environment["compiler"] = host_compiler();
  r.environment["os"] = operating_system();
  // Results of uncommitted code must not pass for results of the commit.
  r.environment["worktree"] = git_worktree_state(source_dir);
  // Nor results of a mutant program for the product's: "shipped", or which mutant it carried.
  r.environment["program"] = program_variant();
  // Nor results under a user's profile file for the built-in profiles': every profile installed.
  for (ref::Arch a : ref::all_archs())
    if (const std::string origin = ref::profile_origin(a); !origin.empty())
      r.environment["profile " + std::string(ref::arch_name(a))] = origin;
  return r;
}

}  // namespace mmaemu
