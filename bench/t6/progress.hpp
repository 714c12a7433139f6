// Progress of a long run on stderr: done/total, rate, time left; only when stderr is a terminal
// (quiet in CI logs) and not asked to be quiet.
#pragma once
#include <chrono>
#include <string>

namespace mmaemu::t6 {

class Progress {
 public:
  explicit Progress(bool quiet);
  // Shows "[section] done/total, rate/s, about N s left: what" on one line, rewritten in place.
  void update(const std::string& section, size_t done, size_t total, const std::string& what);
  void finish();  // ends the line

 private:
  bool on_;
  bool open_ = false;
  std::string section_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace mmaemu::t6
