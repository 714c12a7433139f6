// OpParams: everything the per-element arithmetic needs, as plain data that can be copied to a GPU by
// value (a kernel argument or __constant__). Filled from an architecture profile by
// params_from_profile(); the arithmetic in emu_dot.hpp reads nothing else.
#pragma once
#include <cstdint>

namespace mmaemu::kernels::arith {

// The kernels' own names for the number formats (independent of reference/).
enum class Fmt : uint8_t { fp32, tf32, fp16, bf16, e4m3, e5m2, e8m13, e2m1, e3m2, e2m3 };

// How a format spends its top exponent code.
enum class Specials : uint8_t {
  ieee,            // all-ones exponent: zero fraction = Inf, otherwise NaN
  finite_one_nan,  // no Inf; only S.1111.111 is NaN (e4m3)
  finite_no_nan,   // no Inf, no NaN
};

struct FmtParams {
  Fmt id;
  uint8_t storage_bits;  // width of the raw pattern (tf32 and e8m13: 32, fp32 patterns)
  uint8_t exp_bits;
  uint8_t man_bits;      // fraction bits that carry value
  uint8_t man_shift;     // position of the fraction's LSB in the pattern (tf32: 13, e8m13: 10)
  Specials specials;
  int16_t bias;
};

// One T-FDPA block: L products (plus the addend) aligned to the largest exponent, truncated to F
// fraction bits below it, summed exactly, rounded once.
struct BlockParams {
  int L = 0;
  int F = 0;
  bool floor_truncation = false;     // false: sign-magnitude truncation toward zero
  bool has_zero_product_exp = false; // zero products (and a zero addend) take part in emax at ...
  int zero_product_exp = 0;          // ... this exponent
  FmtParams result{};                // the format a block rounds to (fp32, fp16, e8m13)
  bool round_nearest = false;        // false: toward zero
  bool rz_overflow_to_inf = true;    // an RZ overflow gives Inf, not the largest finite value
  bool tf32_input_nearest = false;   // fp32 patterns read as tf32 by RNE (else by dropping bits)
  bool zero_result_positive = false; // all terms zero: +0 whatever their signs (else -0 when all are -0)
};

// The scale operands of a block-scaled instruction: one per `block` consecutive k of A's row and of B's
// column, in ue8m0 (2^(bits - 127), 0xFF NaN) or ue4m3 (e4m3 without its sign, 7 bits: 0x7F NaN).
struct ScaleParams {
  bool present = false;
  bool ue4m3 = false;  // false: ue8m0
  int block = 0;
  int group = 0;  // 0: each product a*b*sa*sb is a term; G: each G consecutive products summed exactly
                  // first, the group times its scales aligned at the scales' exponent
};

// One tensor-core instruction that is not lowered.
struct InstrParams {
  FmtParams a{}, b{}, c{}, d{};
  int k = 0;  // the instruction's K: one GEMM step
  BlockParams block{};
  ScaleParams scale{};
};

// The instruction being emulated. When `lowered`, each step runs as the compiler's lowering: a and b
// converted (exactly) to via's formats; acc = +0; for each of `parts` parts (the k with
// (k / run) % parts == part, in order) acc = via's block chain over them from acc; d = acc + c by an
// IEEE addition rounded to nearest even.
struct OpParams {
  InstrParams instr{};
  bool lowered = false;
  int parts = 1;
  int run = 1;
  InstrParams via{};
};

}  // namespace mmaemu::kernels::arith
