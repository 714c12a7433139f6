#include "harness/core/report_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>

#include "harness/core/errors.hpp"

namespace mmaemu {
namespace {

namespace fs = std::filesystem;

struct Held {
  int fd = -1;
  int count = 0;
};

// The locks this process holds, by lock file: flock locks belong to an open file, so a second open
// in the same process would refuse the process itself.
std::mutex& held_mutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, Held>& held() {
  static std::map<std::string, Held> h;
  return h;
}

std::string holder_of(int fd) {
  char buf[32] = {};
  const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
  std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  while (!pid.empty() && (pid.back() == '\n' || pid.back() == ' ')) pid.pop_back();
  return pid.empty() ? "unknown" : pid;
}

}  // namespace

ReportLock::ReportLock(const fs::path& dir, const std::string& name) {
  std::error_code ec;
  fs::create_directories(dir.empty() ? fs::path(".") : dir, ec);
  if (ec) throw InputError(dir.string(), "cannot create the report directory: " + ec.message());
  file_ = fs::absolute(dir.empty() ? fs::path(".") : dir).lexically_normal() / ("." + name + ".lock");
  std::lock_guard<std::mutex> lock(held_mutex());
  Held& h = held()[file_.string()];
  if (h.count > 0) {
    ++h.count;
    return;
  }
  const int fd = ::open(file_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    const int e = errno;
    held().erase(file_.string());
    throw InputError(file_.string(), std::string("cannot create the lock file of the reports: ") + std::strerror(e));
  }
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int e = errno;
    const std::string pid = holder_of(fd);
    ::close(fd);
    held().erase(file_.string());
    if (e == EWOULDBLOCK)
      throw InputError(file_.string(), "the reports in " + dir.string() + " are being written by another mmaemu (pid " +
                                           pid + "): wait for it to end, or choose another directory");
    throw InputError(file_.string(), std::string("cannot lock: ") + std::strerror(e));
  }
  // The holder's pid, for the message of the run that finds the lock taken. Best effort: on a full
  // disk the lock holds all the same, and the report writes then say what is wrong.
  const std::string pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) == 0) {
    const ssize_t ignored = ::pwrite(fd, pid.data(), pid.size(), 0);
    (void)ignored;
  }
  h.fd = fd;
  h.count = 1;
}

ReportLock::~ReportLock() {
  std::lock_guard<std::mutex> lock(held_mutex());
  const auto it = held().find(file_.string());
  if (it == held().end()) return;
  if (--it->second.count > 0) return;
  ::close(it->second.fd);  // releases the flock
  held().erase(it);
}

}  // namespace mmaemu
