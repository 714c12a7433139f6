// Building probe inputs: exact operand bit patterns for chosen products m * 2^e, and the range of
// exponents an instruction's formats let the probe work in.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>

#include "mmaemu/reference/instruction.hpp"

namespace mmaemu::probe {

// The bits of (-1)^neg * mag * 2^e in format f, when exactly representable (normal numbers only unless
// allow_subnormal), else nullopt.
std::optional<uint32_t> exact_bits(ref::FormatId f, bool neg, uint64_t mag, int e, bool allow_subnormal = false);

class ValueMaker {
 public:
  explicit ValueMaker(const ref::Instruction& in);

  // Operands a (format A) and b (format B) whose product is m * 2^e exactly, both normal numbers: m goes
  // into a, a power of two into b. nullopt when the formats cannot make it.
  std::optional<std::pair<uint32_t, uint32_t>> product(int64_t m, int e) const;
  // c = m * 2^e in C's format (subnormals allowed when asked), or nullopt.
  std::optional<uint32_t> c_value(int64_t m, int e, bool allow_subnormal = false) const;

  // The working range: powers of two from 2^lo to 2^hi are products of normal operands, results
  // representable as normal numbers in D, hi - lo <= 50. `spread()` = hi - lo.
  int hi() const { return hi_; }
  int lo() const { return lo_; }
  int spread() const { return hi_ - lo_; }
  // The largest odd m (<= 7) that fits A's significand.
  int max_odd() const { return max_odd_; }
  const ref::Instruction& instruction() const { return in_; }

 private:
  ref::Instruction in_;
  int hi_ = 0, lo_ = 0, max_odd_ = 1;
};

}  // namespace mmaemu::probe
