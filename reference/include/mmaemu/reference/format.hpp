// Number formats of tensor-core operands and results, as raw bit patterns.
//
// A format is data (FormatSpec), not code: adding fp6, fp4 or a block-scale format (ue8m0, ue4m3)
// means adding a row to the table in format.cpp, not a new decoder.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace mmaemu::ref {

enum class FormatId : uint8_t {
  fp32,
  tf32,   // stored as an fp32 bit pattern; the low 13 fraction bits are not part of the value
  fp16,
  bf16,
  e4m3,
  e5m2,
  e8m13,  // internal: fp32 range with 13 fraction bits, the FP8 accumulator of Ada and Hopper
  // OCP MX element formats of Blackwell's kind::f8f6f4: no infinities, no NaN. Stored one element
  // per byte (the low 4 or 6 bits), like every operand format that is narrower than its storage.
  e2m1,  // fp4: +-{0, 0.5, 1, 1.5, 2, 3, 4, 6}
  e3m2,  // fp6: largest 28, smallest subnormal 1/16
  e2m3,  // fp6: largest 7.5, smallest subnormal 1/8
  // Block-scale formats (the scale operands of kind::mxf8f6f4, mxf4, mxf4nvf4), unsigned:
  ue8m0,  // 2^(bits - 127), no zero, no subnormals; 0xFF is NaN (OCP MX E8M0)
  ue4m3,  // e4m3 without its sign: 7 bits in the low bits of a byte; 0x7F is NaN, 0x00 is zero
  // IEEE binary64, the operands and results of fp64 mma (an IEEE fma chain, fma_chain.cpp). Wider than a
  // word: an element travels as two 32-bit words (words_per_element), and nothing here that takes or
  // returns one uint32_t pattern (decode, round_to_format, convert, ...) accepts it.
  fp64,
  count
};

// How a format spends its top exponent code.
enum class SpecialStyle : uint8_t {
  ieee,            // all-ones exponent: zero fraction = Inf, otherwise NaN (fp32, fp16, bf16, e5m2)
  finite_one_nan,  // no infinities; only S.1111.111 is NaN (OCP e4m3 "fn")
  finite_no_nan,   // no infinities and no NaN (OCP fp6 and fp4): the all-ones exponent is finite
};

struct FormatSpec {
  std::string_view name;
  int storage_bits;  // width of the raw pattern (tf32: 32; fp4: 4, fp6: 6, each kept in a byte)
  int exp_bits;
  int man_bits;      // fraction bits that carry value
  int bias;
  SpecialStyle specials;
  int man_shift;     // position of the fraction's LSB inside the stored pattern (tf32: 13)
  bool is_signed = true;  // false: no sign bit (the scale formats); storage_bits are all magnitude

  // Exponent of the smallest normal and of every subnormal. A format without fraction bits (ue8m0)
  // has no subnormals: its exponent code 0 is the normal 2^-bias.
  int emin() const { return man_bits == 0 ? -bias : 1 - bias; }
  int storage_bytes() const { return (storage_bits + 7) / 8; }  // bytes an element takes in memory: 1, 2 or 4
};

const FormatSpec& spec(FormatId f);

// Raw bits travel as 32-bit words: a format of up to 32 bits takes one word per element (widened), fp64
// two, low word first, so that an array of words is the little-endian image of its elements.
int words_per_element(FormatId f);
std::optional<FormatId> parse_format(std::string_view name);  // "fp32","f32","tf32","f16","fp16","f64",...
std::string_view format_name(FormatId f);

enum class ValueClass : uint8_t { zero, subnormal, normal, inf, nan };

// value = (-1)^neg * sig * 2^(exp - man_bits); sig includes the implicit bit for normals, so
// sig < 2^(man_bits+1). Subnormals carry exp = emin and no implicit bit.
struct Decoded {
  ValueClass cls;
  bool neg;
  int16_t exp;
  uint32_t sig;
};

Decoded decode(FormatId f, uint32_t bits);

// Canonical quiet NaN the tensor cores return for this format (fp32 0x7FFFFFFF, fp16 0x7FFF, ...):
// every bit but the sign (ue8m0 0xFF, ue4m3 0x7F); formats without NaN (fp4, fp6): their largest
// positive value. The scale formats are operands only: nothing rounds to them but the tests.
uint32_t canonical_nan(FormatId f);
uint32_t infinity_bits(FormatId f, bool neg);  // finite-only formats: their max-magnitude value
uint32_t zero_bits(FormatId f, bool neg);

enum class Rounding : uint8_t { toward_zero, nearest_even };

// Rounds the exact value (-1)^neg * mag * 2^scale to `f`. mag is an unsigned magnitude of any size up
// to 127 bits. Handles subnormal results and overflow (RNE: Inf; RZ: Inf when `rz_overflow_to_inf`,
// else the largest finite value).
uint32_t round_to_format(FormatId f, bool neg, unsigned __int128 mag, int scale, Rounding r,
                         bool rz_overflow_to_inf = false);

// Re-encodes a value of format `from` in format `to` exactly (widening: fp16/bf16/fp8 -> fp32),
// or with rounding `r` when it does not fit.
uint32_t convert(FormatId from, uint32_t bits, FormatId to, Rounding r);

// Converts an fp32 value to a format's raw bits: exactly, or nullopt when the value is not
// representable (used to read third-party recordings that store inputs as fp32).
std::optional<uint32_t> from_fp32_exact(FormatId to, uint32_t fp32_bits);

}  // namespace mmaemu::ref
