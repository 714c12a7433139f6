// Summation-order probes for whole GEMMs, where the library (not the instruction) decides the order in
// which K products meet: split-K slices, their interleaving and the reduction tree.
#include <stdexcept>

#include "generators/tile.hpp"

namespace mmaemu::gen {

// Output (m, n) sums K products equal to 1, except +X at k = p_m (row m of A) and -X at k = q_n
// (column n of B), X = 2^40: larger than any count of ones by more than fp32's precision, so every one
// added into a partial sum that holds +-X is lost, and +X and -X cancel exactly where they meet. D(m, n)
// = K - (the number of products under the summation-tree node where p_m and q_n meet), which reads the
// tree off the bits (p_m = q_n gives -X^2, a control). Only for formats with fp32's exponent range.
void generate_pair_probe(Tile& t) {
  constexpr int kBigExp = 40;
  if (t.fa.emax() < 2 * kBigExp || t.fb.emax() < 2 * kBigExp || t.fd.emax() < 2 * kBigExp)
    throw std::invalid_argument("the pair_probe family needs A, B and D formats with fp32's exponent range "
                                "(fp32, tf32, bf16)");
  const uint32_t one_a = t.fa.normal(false, 0, 0), one_b = t.fb.normal(false, 0, 0);
  for (int m = 0; m < t.M; ++m) {
    const int p = t.rng.uniform_int(0, t.K - 1);
    for (int k = 0; k < t.K; ++k) t.A(m, k) = k == p ? t.fa.normal(false, kBigExp, 0) : one_a;
  }
  for (int n = 0; n < t.N; ++n) {
    const int q = t.rng.uniform_int(0, t.K - 1);
    for (int k = 0; k < t.K; ++k) t.B(k, n) = k == q ? t.fb.normal(true, kBigExp, 0) : one_b;
  }
  for (int i = 0; i < t.M * t.N; ++i) t.c[i] = t.normal(t.fc, [&] { return 0; });  // read only when beta != 0
}

}  // namespace mmaemu::gen
