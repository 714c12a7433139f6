// Internal: the state one family generator works on (shape, formats, random source, the three tiles).
#pragma once
#include <algorithm>
#include <cstdint>

#include "generators/format_bits.hpp"
#include "mmaemu/reference/instruction.hpp"
#include "generators/rng.hpp"

namespace mmaemu::gen {

struct Tile {
  Tile(const ref::Instruction& in, uint64_t seed, uint32_t* a_, uint32_t* b_, uint32_t* c_)
      : M(in.m), N(in.n), K(in.k), fa(in.a), fb(in.b), fc(in.c), fd(in.d), rng(seed), a(a_), b(b_), c(c_) {}

  int M, N, K;
  FormatBits fa, fb, fc, fd;
  Rng rng;
  uint32_t *a, *b, *c;

  uint32_t& A(int m, int k) { return a[m * K + k]; }
  uint32_t& B(int k, int n) { return b[k * N + n]; }
  uint32_t& C(int m, int n) { return c[m * N + n]; }

  bool sign() { return rng.chance(0.5); }
  uint32_t frac(const FormatBits& f) { return rng.bits(f.man_bits()); }

  // Random values of one format, drawn in one fixed order: the fraction, then the exponent (`exp`,
  // which may draw too), then the sign. Written as f.normal(sign(), e, frac(f)) the order was the
  // compiler's (a call's arguments are unsequenced: GCC evaluated them right to left, clang left to
  // right), so clang drew other inputs and the recordings' operand SHA-256s failed. The order here
  // is the one GCC gave, in which every recording was made.
  template <class Exp>
  uint32_t normal(const FormatBits& f, Exp exp) {
    const uint32_t fr = frac(f);
    const int e = exp();
    const bool neg = sign();
    return f.normal(neg, e, fr);
  }
  uint32_t subnormal(const FormatBits& f) {
    const uint32_t fr = frac(f);
    const bool neg = sign();
    return f.subnormal(neg, fr);
  }
  uint32_t nan(const FormatBits& f) {  // random payload, quiet or signalling
    const uint32_t payload = rng.bits(f.man_bits());
    const bool neg = sign();
    return f.nan(neg, payload);
  }

  // ceil(log2(K)): how far a sum of K like terms can grow.
  int log2_k() const {
    int l = 0;
    while ((1 << l) < K) ++l;
    return l;
  }
  // Largest operand exponent e such that K products of two 2^(e+1) values stay finite in D.
  int safe_operand_exp(int margin = 1) const {
    const int by_output = (fd.emax() - log2_k() - margin) / 2 - 1;
    return std::min({fa.emax(), fb.emax(), by_output});
  }
};

// The family generators (one per Family), split by theme over four files.
void generate_realistic(Tile& t);
void generate_random_bits(Tile& t);
void generate_small_int(Tile& t);
void generate_subnormal(Tile& t);
void generate_specials(Tile& t);
void generate_extreme_acc(Tile& t);
void generate_cancellation(Tile& t);
void generate_dominant(Tile& t);
void generate_carry_chain(Tile& t);
void generate_pair_probe(Tile& t);  // families_probe.cpp

}  // namespace mmaemu::gen
