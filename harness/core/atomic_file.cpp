#include "harness/core/atomic_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"

namespace mmaemu {
namespace {

// The temporary file's name: the process and a counter, so that two threads (a campaign's workers)
// writing the same file never share one. A leading dot keeps it out of globs such as *.json.
std::filesystem::path temp_name(const std::filesystem::path& path) {
  static std::atomic<unsigned long> counter{0};
  return path.parent_path() / ("." + path.filename().string() + ".tmp." + std::to_string(::getpid()) + "." +
                               std::to_string(counter.fetch_add(1)));
}

// Registered for the whole time the temporary file exists: a stop at once removes it.
class PendingFile {
 public:
  explicit PendingFile(const std::filesystem::path& p) : slot_(register_pending_file(p.c_str())) {}
  ~PendingFile() { unregister_pending_file(slot_); }
  PendingFile(const PendingFile&) = delete;
  PendingFile& operator=(const PendingFile&) = delete;

 private:
  int slot_;
};

[[noreturn]] void fail(const std::filesystem::path& path, const std::string& what, int error) {
  throw InputError(path.string(), "cannot write the file: " + what + ": " + std::strerror(error));
}

}  // namespace

void write_file_atomic(const std::filesystem::path& path, std::string_view bytes) {
  namespace fs = std::filesystem;
  if (path.has_parent_path()) {
    std::error_code ec;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw InputError(path.parent_path().string(), "cannot create the directory: " + ec.message());
  }
  const fs::path tmp = temp_name(path);
  PendingFile pending(tmp);
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) fail(path, "cannot create " + tmp.filename().string(), errno);
  auto abandon = [&](const std::string& what) {
    const int e = errno;
    if (fd >= 0) ::close(fd);
    ::unlink(tmp.c_str());
    fail(path, what, e);
  };
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      abandon("write");
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  // A full disk may show only here (delayed allocation, network file systems): checked, never assumed.
  if (::fsync(fd) != 0 && errno != EINVAL) abandon("fsync");
  const int closed = ::close(fd);
  fd = -1;
  if (closed != 0) abandon("close");
  if (::rename(tmp.c_str(), path.c_str()) != 0) abandon("rename into place");
}

}  // namespace mmaemu
