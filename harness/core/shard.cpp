#include "harness/core/shard.hpp"

#include <cctype>

#include "harness/core/errors.hpp"

namespace mmaemu {
namespace {

// A whole number of at most six digits (no sign, no spaces), or -1.
long whole_number(const std::string& s) {
  if (s.empty() || s.size() > 6) return -1;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stol(s);
}

}  // namespace

ShardInfo parse_shard(const std::string& text, const std::string& where) {
  const size_t slash = text.find('/');
  const std::string usage = "'" + text + "' is not a shard: write I/N with 1 <= I <= N (for example 2/3)";
  if (slash == std::string::npos) throw InputError(where, usage);
  const long index = whole_number(text.substr(0, slash));
  const long count = whole_number(text.substr(slash + 1));
  if (index < 1 || count < 1 || index > count) throw InputError(where, usage);
  ShardInfo s;
  s.index = static_cast<unsigned>(index);
  s.count = static_cast<unsigned>(count);
  return s;
}

std::string shard_text(const ShardInfo& shard) {
  return shard.sharded() ? std::to_string(shard.index) + "/" + std::to_string(shard.count) : "";
}

}  // namespace mmaemu
