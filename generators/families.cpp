// Family names, descriptions and dispatch; the generators themselves live in families_*.cpp.
#include "generators/families.hpp"
#include "generators/families_fp64.hpp"

#include <array>

#include "generators/tile.hpp"

namespace mmaemu::gen {
namespace {

struct FamilyInfo {
  Family family;
  std::string_view name;
  std::string_view description;
  void (*generate)(Tile&);
  double tf32_dirty_fraction;  // share of tf32 operands given non-zero low 13 bits
  bool instruction_family;     // part of all_families(): valid for every instruction's formats
};

constexpr std::array<FamilyInfo, 10> kFamilies = {{
    {Family::realistic, "realistic", "normal-ish values of moderate magnitude (log-normal exponents, random fractions)",
     generate_realistic, 1.0, true},
    {Family::random_bits, "random_bits", "uniform raw bit patterns over the whole encoding, NaN and Inf included",
     generate_random_bits, 1.0, true},
    {Family::subnormal, "subnormal", "subnormal and near-subnormal operands, products near the output's subnormal range, tiny C",
     generate_subnormal, 1.0, true},
    {Family::cancellation, "cancellation", "x, -x product pairs (exact or one ulp apart) plus small residues; C often cancels the sum",
     generate_cancellation, 1.0, true},
    {Family::dominant, "dominant", "one dominant product (or a dominant C) among small ones at gaps of a few to ~60 binades",
     generate_dominant, 1.0, true},
    {Family::specials, "specials", "NaN payloads, +-Inf, +-0, max finite, min subnormal; inf*0 and inf-inf planted",
     generate_specials, 0.75, true},
    {Family::small_int, "small_int", "small integers, every product and sum exact in every format (proves the fragment layouts)",
     generate_small_int, 0.0, true},
    {Family::extreme_acc, "extreme_acc", "C at max finite, near max, tiny, subnormal or +-0 against huge, small or tiny products",
     generate_extreme_acc, 1.0, true},
    {Family::carry_chain, "carry_chain", "all-ones significands, aligned or staggered, so the aligned sum carries through many bits",
     generate_carry_chain, 1.0, true},
    {Family::pair_probe, "pair_probe", "GEMM summation-order probe: ones with +2^40 at one k of each A row and -2^40 at one k of each B column",
     generate_pair_probe, 0.0, false},
}};

const FamilyInfo& info(Family f) { return kFamilies[static_cast<size_t>(f)]; }

// tf32 operands travel as fp32 patterns; the 13 bits below tf32's fraction are given random non-zero
// values so that truncation (or rounding) of them by the hardware shows in D.
void dirty_tf32_low_bits(const FormatBits& f, uint32_t* x, size_t count, double fraction, Rng& rng) {
  if (f.id() != ref::FormatId::tf32 || fraction <= 0.0) return;
  for (size_t i = 0; i < count; ++i)
    if (rng.chance(fraction)) x[i] = (x[i] & ~0x1FFFu) | static_cast<uint32_t>(rng.uniform_int(1, 0x1FFF));
}

}  // namespace

std::string_view family_name(Family f) { return info(f).name; }
std::string_view family_description(Family f) { return info(f).description; }

std::optional<Family> parse_family(std::string_view name) {
  for (const auto& i : kFamilies)
    if (i.name == name) return i.family;
  return std::nullopt;
}

const std::vector<Family>& all_families() {
  static const std::vector<Family> families = [] {
    std::vector<Family> v;
    for (const auto& i : kFamilies)
      if (i.instruction_family) v.push_back(i.family);
    return v;
  }();
  return families;
}

void generate_tile(Family family, const ref::Instruction& instr, uint64_t seed, uint32_t* a, uint32_t* b,
                   uint32_t* c) {
  const FamilyInfo& fi = info(family);
  if (instr.a == ref::FormatId::fp64) return generate_fp64_tile(family, instr, mix_seed(seed, static_cast<uint64_t>(family)), a, b, c);
  Tile t(instr, mix_seed(seed, static_cast<uint64_t>(family)), a, b, c);
  fi.generate(t);
  Rng low_bits(mix_seed(seed, 0x7F32u));
  dirty_tf32_low_bits(t.fa, a, static_cast<size_t>(t.M) * t.K, fi.tf32_dirty_fraction, low_bits);
  dirty_tf32_low_bits(t.fb, b, static_cast<size_t>(t.K) * t.N, fi.tf32_dirty_fraction, low_bits);
}

}  // namespace mmaemu::gen
