// The probe's experiments: dot products built so that each group of block-model parameters decides
// their outcome while the parameters not yet known cannot (exact powers of two, exact cancellation,
// terms far enough apart that the unknown fraction width cannot matter). Each case is one output:
// D = c + sum_k a[k] * b[k] over the instruction's K.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "harness/probe/probe_values.hpp"

namespace mmaemu::probe {

struct ProbeCase {
  std::vector<uint32_t> a, b;  // K raw patterns each
  uint32_t c = 0;
  std::string what;            // the terms in words, for reports: "c=+2^13 p3=-2^13 p7=+2^-14"
};

struct Experiment {
  std::string name;      // "structure", "fraction", ... (fixture family "probe-<name>")
  std::string isolates;  // what it decides, for the report
  std::vector<ProbeCase> cases;
};

// Which k share a block and in which order blocks chain, where c enters, and lowering: c = +2^hi with
// -2^hi at k = i and 2^lo at k = l, for all i != l; and +2^hi, -2^hi at i < j with 2^lo at l. The small
// term survives exactly when the big pair cancels before it meets it.
Experiment structure_cases(const ValueMaker& v);
// F and the truncation: 2^top - 2^top + m * 2^(top-d) (+ a second term), d = 1 ... spread, inside the
// first block (k < block_k; c carries the big term when the block is shorter than 4).
Experiment fraction_cases(const ValueMaker& v, int block_k);
// The block result's format, rounding and overflow: sums inside the last block needing 1 ... 30 more bits
// than a format holds (ties included), and sums past D's largest finite value.
Experiment result_cases(const ValueMaker& v, int block_k, int frac_bits);
// The exponent a zero product takes: one tiny term with many significant bits (a product or c) among
// zero products, across every exponent the formats reach.
Experiment zero_exp_cases(const ValueMaker& v);
// How fp32 patterns are read as tf32: low 13 bits below, at and above the half, on odd and even tf32.
Experiment tf32_cases(const ValueMaker& v);
// NaN, Inf, -0 and subnormal rules: checked, not fitted (the model's rules are fixed).
Experiment specials_cases(const ValueMaker& v);

}  // namespace mmaemu::probe
