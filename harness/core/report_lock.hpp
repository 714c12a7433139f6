// One writer at a time for a set of reports: `mmaemu run`, `mutate`, `bench`, `record` and `signoff`
// hold a lock for as long as they run, so that two runs never interleave their rewrites of the same
// reports (each would leave the other's results half replaced).
//
// The lock is an flock(2) on `<dir>/.<name>.lock`, `name` being what the run writes there: its report
// stem for `run` and `bench`, the tier for `mutate`, the whole directory ("mmaemu") for `signoff` and
// `record`, whose directories are theirs alone. Per name, not per directory, because CTest runs the
// tier suites side by side in one report directory, each under its own stem. The second run fails at
// once (exit 2) naming the lock file and the holder's pid: waiting would hide that two runs were
// started on the same reports, which is a mistake. The kernel drops the lock when its holder ends,
// however it ends, so a stale lock file is never a problem; the file itself stays (removing it would
// race with a run opening it).
#pragma once
#include <filesystem>
#include <string>

namespace mmaemu {

class ReportLock {
 public:
  // Creates `dir`. Throws InputError (exit 2) naming the lock file: held by another process (with its
  // pid), or cannot be created (a read-only directory: found before any work is done). A process may
  // take the same lock again (a mutation tier inside `mmaemu run`): it is counted, not refused.
  ReportLock(const std::filesystem::path& dir, const std::string& name);
  ~ReportLock();
  ReportLock(const ReportLock&) = delete;
  ReportLock& operator=(const ReportLock&) = delete;

  const std::filesystem::path& file() const { return file_; }

 private:
  std::filesystem::path file_;
};

}  // namespace mmaemu
