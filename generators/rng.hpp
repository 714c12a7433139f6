// A small, named, seeded random source for the input generators.
//
// std::mt19937_64 is specified bit for bit by the C++ standard, and the helpers below avoid the
// standard distributions (whose output differs between standard libraries), so a seed names the
// same tiles on every platform.
#pragma once
#include <cmath>
#include <cstdint>
#include <random>

namespace mmaemu::gen {

// splitmix64 finaliser: turns nearby seeds (1, 2, 3, ...) into unrelated engine states.
constexpr uint64_t splitmix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Combines a seed with a stream number (family, tile index, instruction hash, ...).
constexpr uint64_t mix_seed(uint64_t seed, uint64_t stream) {
  return splitmix64(seed ^ splitmix64(stream + 0x632BE59BD9B4E019ull));
}

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(splitmix64(seed)) {}

  uint64_t next() { return engine_(); }

  // n uniformly random low bits (0 <= n <= 32).
  uint32_t bits(int n) { return n <= 0 ? 0u : static_cast<uint32_t>(next() >> (64 - n)); }

  // Uniform integer in [lo, hi] (inclusive). The modulo bias is below 2^-32: irrelevant here.
  int uniform_int(int lo, int hi) {
    const uint64_t span = static_cast<uint64_t>(static_cast<int64_t>(hi) - lo + 1);
    return lo + static_cast<int>(next() % span);
  }

  // Uniform double in [0, 1) with 53 random bits.
  double uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  bool chance(double p) { return uniform01() < p; }

  // Standard normal deviate (Box-Muller; one of the pair is discarded for simplicity).
  double normal() {
    const double u1 = 1.0 - uniform01();  // (0, 1]: log is finite
    const double u2 = uniform01();
    return std::sqrt(-2.0 * std::log(u1)) * std::cos(6.283185307179586 * u2);
  }

 private:
  std::mt19937_64 engine_;
};

}  // namespace mmaemu::gen
