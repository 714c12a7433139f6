#include "harness/record/recording.hpp"

#include <bit>
#include <cmath>

#include "generators/format_bits.hpp"

#include "generators/rng.hpp"
#include "generators/scales.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::record {

const std::vector<std::string>& recordable_instructions() {
  static const std::vector<std::string> names = {
      "mma.m16n8k16.f32.f16.f16.f32",  "mma.m16n8k16.f32.bf16.bf16.f32", "mma.m16n8k16.f16.f16.f16.f16",
      "mma.m16n8k8.f32.tf32.tf32.f32", "mma.m16n8k32.f32.e4m3.e4m3.f32", "mma.m16n8k32.f32.e5m2.e5m2.f32",
      "wgmma.m64n8k16.f32.f16.f16",    "wgmma.m64n8k16.f32.bf16.bf16",   "wgmma.m64n8k8.f32.tf32.tf32",
      "wgmma.m64n8k32.f32.e4m3.e4m3",  "wgmma.m64n8k32.f32.e5m2.e5m2",   "mma.m8n8k4.f64.f64.f64.f64",
      "mma.m16n8k4.f64.f64.f64.f64",   "mma.m16n8k8.f64.f64.f64.f64",    "mma.m16n8k16.f64.f64.f64.f64"};
  return names;
}

uint64_t element_pattern(ref::FormatId f, const std::vector<uint32_t>& words, size_t i) {
  if (ref::words_per_element(f) == 1) return words[i];
  return uint64_t{words[2 * i]} | uint64_t{words[2 * i + 1]} << 32;
}

ref::ValueClass element_class(ref::FormatId f, const std::vector<uint32_t>& words, size_t i) {
  if (ref::words_per_element(f) == 1) return gen::FormatBits(f).classify(words[i]);
  switch (std::fpclassify(element_value(f, words, i))) {
    case FP_ZERO: return ref::ValueClass::zero;
    case FP_SUBNORMAL: return ref::ValueClass::subnormal;
    case FP_INFINITE: return ref::ValueClass::inf;
    case FP_NAN: return ref::ValueClass::nan;
    default: return ref::ValueClass::normal;
  }
}

double element_value(ref::FormatId f, const std::vector<uint32_t>& words, size_t i) {
  if (ref::words_per_element(f) == 1) return gen::FormatBits(f).to_double(words[i]);
  return std::bit_cast<double>(element_pattern(f, words, i));
}

int default_tiles_per_family(const ref::Instruction& instr) {
  constexpr int kMinOutputs = 50000;
  const int per_tile = instr.m * instr.n;
  const int families = static_cast<int>(gen::all_families().size());
  const int tiles = (kMinOutputs + per_tile - 1) / per_tile;
  return (tiles + families - 1) / families;
}

namespace {

uint64_t fnv1a(const std::string& s) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char ch : s) h = (h ^ ch) * 0x100000001B3ull;
  return h;
}

}  // namespace

InstructionRecording plan_recording(const ref::Instruction& instr, uint64_t seed, int tiles_per_family) {
  InstructionRecording r;
  r.instr = instr;
  const auto& families = gen::all_families();
  r.tiles = tiles_per_family * static_cast<int>(families.size());
  // Sizes in words (two per fp64 element).
  const size_t a_size = static_cast<size_t>(instr.m) * instr.k * ref::words_per_element(instr.a),
               b_size = static_cast<size_t>(instr.k) * instr.n * ref::words_per_element(instr.b),
               c_size = static_cast<size_t>(instr.m) * instr.n * ref::words_per_element(instr.c);
  r.a.resize(a_size * r.tiles);
  r.b.resize(b_size * r.tiles);
  r.c.resize(c_size * r.tiles);
  r.scales_per_row = instr.scale ? ref::scale_count(instr, static_cast<size_t>(instr.k)) : 0;
  const size_t sa_size = static_cast<size_t>(instr.m) * r.scales_per_row, sb_size = r.scales_per_row * instr.n;
  r.sa.resize(sa_size * r.tiles);
  r.sb.resize(sb_size * r.tiles);
  const uint64_t instr_seed = gen::mix_seed(seed, fnv1a(instr.name));
  int tile = 0;
  for (gen::Family f : families) {
    r.families.push_back({f, tile, tile + tiles_per_family});
    for (int i = 0; i < tiles_per_family; ++i, ++tile) {
      const uint64_t tile_seed = gen::mix_seed(instr_seed, (static_cast<uint64_t>(f) << 32) | static_cast<uint32_t>(i));
      gen::generate_tile(f, instr, tile_seed, &r.a[a_size * tile], &r.b[b_size * tile], &r.c[c_size * tile]);
      if (r.scales_per_row)
        gen::generate_scales(f, instr, tile_seed, static_cast<size_t>(instr.m), r.scales_per_row,
                             static_cast<size_t>(instr.n), &r.sa[sa_size * tile], &r.sb[sb_size * tile]);
    }
  }
  return r;
}

}  // namespace mmaemu::record
