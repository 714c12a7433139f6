// Integers read from outside JSON (recordings, reports, records, configurations).
//
// nlohmann's get<int>() on a number the parser stored as a double (1e20, 2.5, a literal too large for
// 64 bits) converts it with a plain cast: undefined behaviour when the value is out of the type's
// range, a silent truncation otherwise; an integer out of range wraps. Found by fuzzing the cuBLASLt
// recording and --algo configuration readers. json_integer<T> takes only an integer that fits T and
// throws nlohmann's own exceptions otherwise, so that every reader's existing handler turns it into
// an InputError naming the file.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

namespace mmaemu {

template <class T>
T json_integer(const nlohmann::json& v) {
  static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
  using Limits = std::numeric_limits<T>;
  if (v.is_number_unsigned()) {
    const uint64_t u = v.get<uint64_t>();
    if (u <= static_cast<uint64_t>(Limits::max())) return static_cast<T>(u);
  } else if (v.is_number_integer()) {
    const int64_t i = v.get<int64_t>();
    const bool fits = std::is_signed_v<T> ? i >= static_cast<int64_t>(Limits::min()) &&
                                                i <= static_cast<int64_t>(Limits::max())
                                          : i >= 0 && static_cast<uint64_t>(i) <= static_cast<uint64_t>(Limits::max());
    if (fits) return static_cast<T>(i);
  } else {
    throw nlohmann::json::type_error::create(302, std::string("expected an integer, not ") + v.type_name() +
                                                      (v.is_number() ? " " + v.dump() : ""), &v);
  }
  throw nlohmann::json::out_of_range::create(406, "the integer " + v.dump() + " is out of range here", &v);
}

}  // namespace mmaemu
