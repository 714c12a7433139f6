// The lane kernel: LaneTile (lane_tile.hpp) on W 32-bit lanes, one GEMM output per lane, written with
// the compiler's generic vectors so that one source serves every instruction set. Included by lanes.cpp,
// which CMake compiles once per ISA with that ISA's flags: everything here is in an anonymous namespace
// and nothing may have external linkage (an inline function shared with other translation units could be
// merged into them with instructions their machine lacks), so no std:: and no arith:: calls.
//
// Per block (arith::block in emu_dot.hpp is the scalar statement of the same arithmetic):
//   pass 1: the alignment exponent emax over the products (ea + eb) and the addend;
//   pass 2: each product's significand (B's pre-shifted by F - (ma + mb)) shifted right by emax - e,
//           truncated toward zero (or floor), summed into a positive and a negative 32-bit sum;
//   round:  |pos - neg| * 2^(emax - F) rounded once to the result format.
// Lanes the vectors do not finish (NaN / Inf addend, a block whose terms are all zero) are flagged
// irregular; the backend recomputes those outputs with the scalar arithmetic.

#include <cstddef>
#include <cstdint>

#include "kernels/cpu/lane_tile.hpp"

namespace mmaemu::kernels::cpu {
namespace {

template <int W>
struct V {
  typedef uint32_t U __attribute__((vector_size(W * 4)));
  typedef int32_t I __attribute__((vector_size(W * 4)));
  typedef float Fl __attribute__((vector_size(W * 4)));
};

template <int W>
inline typename V<W>::U load_u(const uint32_t* p) {
  typename V<W>::U v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
template <int W>
inline typename V<W>::I load_i(const int32_t* p) {
  typename V<W>::I v;
  __builtin_memcpy(&v, p, sizeof v);
  return v;
}
template <class Vec>
inline Vec vmax(Vec a, Vec b) { return a > b ? a : b; }
template <class Vec>
inline Vec vmin(Vec a, Vec b) { return a < b ? a : b; }

// Index of the top set bit of each lane (x != 0): through an exact int-to-float conversion of the top
// or the bottom 16 bits, whichever holds it (no vector count-leading-zeros before AVX-512).
template <int W>
inline typename V<W>::I msb32(typename V<W>::U x) {
  using U = typename V<W>::U;
  using I = typename V<W>::I;
  const U hi = x >> 16u;
  const I has_hi = hi != 0u;
  const U sel = has_hi ? hi : (x & 0xFFFFu);
  const typename V<W>::Fl f = __builtin_convertvector((I)(sel), typename V<W>::Fl);
  I bits;
  __builtin_memcpy(&bits, &f, sizeof bits);
  return ((bits >> 23) - 127) + (has_hi & 16);
}

// (-1)^neg * mag * 2^scale rounded once to the result format (arith::round_to on lanes), as a block
// result: a sum that rounds to zero is +0, a zero sum +0.
template <int W, bool kNearest>
inline typename V<W>::U round_lanes(const LanePlan& P, typename V<W>::U mag, typename V<W>::I neg,
                                    typename V<W>::I scale) {
  using U = typename V<W>::U;
  using I = typename V<W>::I;
  const LaneFormat& R = P.result;
  const int m = R.man_bits;
  const I E = msb32<W>(mag) + scale;
  I lsb = vmax(E, I{} + (1 - R.bias)) - m;  // weight of the result's last fraction bit
  const I sh = lsb - scale;                  // bits of mag below it
  const U q_exact = mag << (U)(vmin(vmax(-sh, I{}), I{} + 31));
  const U shr = (U)(vmin(vmax(sh, I{}), I{} + 31));
  const U q_cut = sh > 31 ? U{} : mag >> shr;
  U q = sh <= 0 ? q_exact : q_cut;
  if constexpr (kNearest) {
    const U rem = mag - (q_cut << shr);
    const U half = (U{} + 1u) << (shr - 1u);
    const I up_in = (rem > half) | ((rem == half) & ((q_cut & 1u) != 0u));
    const I up_far = (sh == 32) & (mag > 0x80000000u);  // past the window: above half of one unit
    const I up = (sh >= 1) & (sh <= 31) ? up_in : up_far;
    q += (U)(up & 1);
  }
  const I carry = (q >> static_cast<uint32_t>(m + 1)) != 0u;  // rounding carried into the next binade
  q = carry ? q >> 1u : q;
  lsb += carry & 1;
  const I normal = (q >> static_cast<uint32_t>(m)) != 0u;
  const I biased = lsb + m + R.bias;
  const uint32_t mmask = (1u << m) - 1u, top = (1u << R.exp_bits) - 1u;
  U bits = normal ? ((U)(biased) << static_cast<uint32_t>(m)) | (q & mmask) : q;
  const I overflow = normal & (biased >= static_cast<int32_t>(top));
  const uint32_t on_overflow = (kNearest || P.rz_overflow_to_inf) ? top << m : ((top - 1u) << m) | mmask;
  bits = overflow ? U{} + on_overflow : bits;
  bits <<= static_cast<uint32_t>(R.man_shift);
  const uint32_t sign_bit = 1u << (R.storage_bits - 1);
  bits |= (U)(neg & (bits != 0u)) & sign_bit;
  return mag == 0u ? U{} : bits;
}

template <int W, bool kFloor, bool kZeroProductExp, bool kNearest>
void run_tile(const LaneTile& t) {
  using U = typename V<W>::U;
  using I = typename V<W>::I;
  const LanePlan& P = *t.plan;
  const int F = P.F, k = P.k, steps = t.k_count / k;
  // The addend's pattern.
  const int cm = P.acc.man_bits;
  const uint32_t c_emask = (1u << P.acc.exp_bits) - 1u, c_mmask = (1u << cm) - 1u;
  const uint32_t c_lsh = F > cm ? static_cast<uint32_t>(F - cm) : 0u;
  const int c_rsh = cm > F ? cm - F : 0;
  const int c_emin = 1 - P.acc.bias;
  const size_t lanes = static_cast<size_t>(t.lanes);
  for (int j0 = 0; j0 < t.lanes; j0 += W) {
    const int32_t* be = t.b_exp + j0;
    const uint32_t* bs = t.b_sig + j0;
    const uint32_t* bn = t.b_neg + j0;
    for (int r = 0; r < t.rows; ++r) {
      const int32_t* ae = t.a_exp + static_cast<size_t>(r) * t.a_stride;
      const uint32_t* as = t.a_sig + static_cast<size_t>(r) * t.a_stride;
      const uint32_t* an = t.a_neg + static_cast<size_t>(r) * t.a_stride;
      uint32_t* acc_out = t.acc + static_cast<size_t>(r) * lanes + j0;
      U acc = load_u<W>(acc_out);
      I irregular{};
      for (int s = 0; s < steps; ++s) {
        for (int start = 0; start < k; start += P.L) {
          const int i0 = s * k + start, i1 = i0 + (P.L < k - start ? P.L : k - start);
          // The addend: the chain so far.
          const U bexp = (acc >> static_cast<uint32_t>(cm)) & c_emask, frac = acc & c_mmask;
          const I c_zero = (bexp == 0u) & (frac == 0u);
          irregular |= bexp == c_emask;  // NaN or Inf
          I c_exp = bexp == 0u ? I{} + c_emin : (I)(bexp) - P.acc.bias;
          c_exp = c_zero ? I{} + kZeroExp : c_exp;
          const U c_sig = bexp == 0u ? frac : frac | (1u << cm);
          const U c_neg = (U)(-(I)((acc >> static_cast<uint32_t>(P.acc.storage_bits - 1)) & 1u));
          // Pass 1: the alignment exponent.
          I emax = c_exp, lowest = c_exp;
          for (int i = i0; i < i1; ++i) {
            const I e = load_i<W>(be + i * lanes) + ae[i];
            emax = vmax(emax, e);
            if constexpr (kZeroProductExp) lowest = vmin(lowest, e);
          }
          irregular |= emax < kZeroExp / 2;  // every term zero: the zero's sign is the scalar code's
          if constexpr (kZeroProductExp) emax = lowest < kZeroExp / 2 ? vmax(emax, I{} + P.zero_product_exp) : emax;
          // Pass 2: the truncated terms, positive and negative apart.
          U pos{}, neg{};
          for (int i = i0; i < i1; ++i) {
            const I e = load_i<W>(be + i * lanes) + ae[i];
            const U d = (U)(vmin(emax - e, I{} + 31));
            const U p = load_u<W>(bs + i * lanes) * as[i];
            U term = p >> d;
            const U g = load_u<W>(bn + i * lanes) ^ an[i];
            if constexpr (kFloor) term += (U)((term << d) != p) & g & 1u;
            pos += term & ~g;
            neg += term & g;
          }
          {
            const U d = (U)(vmin(emax - c_exp + c_rsh, I{} + 31));
            const U x = c_sig << c_lsh;
            U term = x >> d;
            if constexpr (kFloor) term += (U)((term << d) != x) & c_neg & 1u;
            pos += term & ~c_neg;
            neg += term & c_neg;
          }
          const U mag = vmax(pos, neg) - vmin(pos, neg);
          acc = round_lanes<W, kNearest>(P, mag, neg > pos, emax - F);
        }
        if (t.trace) {
          uint32_t* tr = t.trace + static_cast<size_t>(r) * t.trace_row + t.first_step + static_cast<size_t>(s);
          for (int l = 0; l < W && j0 + l < t.cols; ++l) tr[static_cast<size_t>(j0 + l) * t.trace_col] = acc[l];
        }
      }
      __builtin_memcpy(acc_out, &acc, sizeof acc);
      uint8_t* irr = t.irregular + static_cast<size_t>(r) * lanes + j0;
      for (int l = 0; l < W; ++l) irr[l] |= irregular[l] != 0;
    }
  }
}

template <int W>
void run_width(const LaneTile& t) {
  const LanePlan& P = *t.plan;
  const int key = (P.floor_truncation ? 4 : 0) | (P.has_zero_product_exp ? 2 : 0) | (P.round_nearest ? 1 : 0);
  switch (key) {
    case 0: return run_tile<W, false, false, false>(t);
    case 1: return run_tile<W, false, false, true>(t);
    case 2: return run_tile<W, false, true, false>(t);
    case 3: return run_tile<W, false, true, true>(t);
    case 4: return run_tile<W, true, false, false>(t);
    case 5: return run_tile<W, true, false, true>(t);
    case 6: return run_tile<W, true, true, false>(t);
    default: return run_tile<W, true, true, true>(t);
  }
}

}  // namespace
}  // namespace mmaemu::kernels::cpu
