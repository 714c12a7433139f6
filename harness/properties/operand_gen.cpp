#include "harness/properties/operand_gen.hpp"

#include <bit>

#include "generators/format_bits.hpp"
#include "generators/rng.hpp"
#include "generators/scales.hpp"

namespace mmaemu::props {

std::vector<uint32_t> simpler_patterns(ref::FormatId f, uint32_t bits) {
  const ref::FormatSpec& s = ref::spec(f);
  const int frac_width = s.man_bits + s.man_shift;  // tf32: the fp32 pattern's 23 bits
  const uint32_t frac_mask = (1u << frac_width) - 1u;
  const uint32_t exp_mask = (1u << s.exp_bits) - 1u;
  const bool neg = (bits >> (s.storage_bits - 1)) & 1u;
  const uint32_t e = (bits >> frac_width) & exp_mask;
  const uint32_t fr = bits & frac_mask;
  const auto pack = [&](bool sg, uint32_t ex, uint32_t fx) {
    return (uint32_t{sg} << (s.storage_bits - 1)) | (ex << frac_width) | fx;
  };
  const uint32_t one = pack(false, static_cast<uint32_t>(s.bias), 0);

  std::vector<uint32_t> out;
  if (bits == 0) return out;
  out.push_back(0);
  if (bits != one) out.push_back(one);
  const ref::ValueClass cls = ref::decode(f == ref::FormatId::tf32 ? ref::FormatId::fp32 : f, bits).cls;
  if (cls == ref::ValueClass::nan || cls == ref::ValueClass::inf) return out;
  if (std::popcount(fr) > 1) out.push_back(pack(neg, e, fr & (fr - 1)));  // one set bit fewer
  if (cls == ref::ValueClass::subnormal) return out;
  const int unbiased = static_cast<int>(e) - s.bias;
  if (unbiased != 0) out.push_back(pack(neg, static_cast<uint32_t>(s.bias + unbiased / 2), fr));
  if (neg) out.push_back(pack(false, e, fr));
  return out;
}

rc::Gen<std::vector<uint32_t>> shrinking_array(std::vector<uint32_t> start, ref::FormatId f) {
  return rc::Gen<std::vector<uint32_t>>([start = std::move(start), f](const rc::Random&, int) {
    return rc::shrinkable::shrinkRecur(start, [f](const std::vector<uint32_t>& v) {
      return rc::shrink::eachElement(v, [f](uint32_t x) { return rc::seq::fromContainer(simpler_patterns(f, x)); });
    });
  });
}

Operands draw_family_operands(const ref::Instruction& formats, const kernels::GemmShape& shape, gen::Family family) {
  const uint64_t seed = *rc::gen::noShrink(rc::gen::arbitrary<uint64_t>());
  ref::Instruction tile = formats;
  tile.m = static_cast<int>(shape.M);
  tile.n = static_cast<int>(shape.N);
  tile.k = static_cast<int>(shape.K);
  Operands o;
  o.A.resize(kernels::a_count(shape));
  o.B.resize(kernels::b_count(shape));
  o.C.resize(kernels::c_count(shape));
  for (size_t t = 0; t < shape.batch; ++t)
    gen::generate_tile(family, tile, gen::mix_seed(seed, t), o.A.data() + t * shape.M * shape.K,
                       o.B.data() + t * shape.K * shape.N, o.C.data() + t * shape.M * shape.N);
  if (formats.scale) {
    const size_t S = ref::scale_count(formats, shape.K);
    o.SA.resize(shape.batch * shape.M * S);
    o.SB.resize(shape.batch * S * shape.N);
    for (size_t t = 0; t < shape.batch; ++t)
      gen::generate_scales(family, formats, gen::mix_seed(seed, t), shape.M, S, shape.N, o.SA.data() + t * shape.M * S,
                           o.SB.data() + t * S * shape.N);
  }
  o.A = *shrinking_array(std::move(o.A), formats.a);
  o.B = *shrinking_array(std::move(o.B), formats.b);
  o.C = *shrinking_array(std::move(o.C), formats.c);
  return o;
}

gen::Family draw_family() { return *rc::gen::elementOf(gen::all_families()); }

const ref::InstructionModel* draw_model(const std::vector<const ref::InstructionModel*>& models) {
  return *rc::gen::elementOf(models);
}

kernels::GemmShape draw_gemm_shape(const ref::Instruction& in, size_t max_batch) {
  kernels::GemmShape s;
  const int n_cap = in.family == ref::InstrFamily::wgmma ? 16 : 2 * in.n + 1;
  s.batch = *rc::gen::inRange<size_t>(1, max_batch + 1);
  s.M = *rc::gen::inRange<size_t>(1, static_cast<size_t>(2 * in.m + 2));
  s.N = *rc::gen::inRange<size_t>(1, static_cast<size_t>(n_cap + 1));
  s.K = *rc::gen::inRange<size_t>(1, static_cast<size_t>(3 * in.k + 2));
  return s;
}

long exact_integer_limit(ref::FormatId f) {
  const long by_precision = 1L << (ref::spec(f).man_bits + 1);
  const gen::FormatBits fb(f);
  const double max_finite = fb.to_double(fb.max_finite(false));
  return max_finite < static_cast<double>(by_precision) ? static_cast<long>(max_finite) : by_precision;
}

rc::Gen<long> small_integer(long limit) {
  return rc::gen::map(rc::gen::inRange<long>(0, 2 * limit + 1), [](long u) { return u % 2 ? -(u + 1) / 2 : u / 2; });
}

std::vector<uint32_t> encode_integers(ref::FormatId f, const std::vector<long>& v) {
  const gen::FormatBits fb(f == ref::FormatId::tf32 ? ref::FormatId::fp32 : f);
  std::vector<uint32_t> out;
  out.reserve(v.size());
  for (long x : v) out.push_back(*fb.encode_exact(static_cast<double>(x)));
  return out;
}

std::vector<const ref::InstructionModel*> models_of(ref::Arch profile) {
  std::vector<const ref::InstructionModel*> out;
  for (const ref::InstructionModel& m : ref::instructions_of(profile))
    if (!ref::is_wide_n_variant(m.instr) && !m.instr.scale && !m.fma_chain) out.push_back(&m);
  return out;
}

std::vector<const ref::InstructionModel*> block_scaled_models_of(ref::Arch profile) {
  std::vector<const ref::InstructionModel*> out;
  for (const ref::InstructionModel& m : ref::instructions_of(profile))
    if (!ref::is_wide_n_variant(m.instr) && m.instr.scale) out.push_back(&m);
  return out;
}

}  // namespace mmaemu::props
