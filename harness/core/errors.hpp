// Error types that map onto mmaemu's exit-status contract:
//   0 all good, 1 a check failed, 2 unusable input.
// Everything that is the user's fault (bad YAML, missing or corrupt file, shape or dtype mismatch,
// an instruction an architecture lacks) is an InputError, and its message names the file (and line).
#pragma once
#include <stdexcept>
#include <string>

namespace mmaemu {

inline constexpr int kExitOk = 0;
inline constexpr int kExitCheckFailed = 1;
inline constexpr int kExitBadInput = 2;

// Unusable input: exit status 2. `where` is "file", "file:line" or "file:line:column" (may be empty
// when the input is a command-line value).
class InputError : public std::runtime_error {
 public:
  InputError(std::string where, const std::string& what)
      : std::runtime_error(where.empty() ? what : where + ": " + what), where_(std::move(where)) {}
  const std::string& where() const { return where_; }

 private:
  std::string where_;
};

}  // namespace mmaemu
