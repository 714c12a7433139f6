// Properties of the number formats (reference/format.hpp), checked against the generators' independent
// decoder and encoder (generators/format_bits):
//   format-round-trip: every pattern decodes to the value the other decoder reads, and re-encodes to
//     itself (tf32: its 13 ignored bits cleared; NaN: the format's canonical NaN, its payload being no
//     value); every finite value widens to fp32 and narrows back exactly. 8- and 16-bit formats are
//     checked exhaustively, 32-bit ones on random patterns.
//   conversion-ties-to-even: an fp32 value halfway between two neighbours of a narrower format rounds
//     to the even one (to nearest) and to the smaller magnitude (toward zero); just off the midpoint it
//     rounds to the nearer one; at the top of an IEEE format the tie rounds to Inf.
#include <cmath>

#include "harness/core/comparator.hpp"
#include "harness/core/operands.hpp"
#include "harness/properties/catalogue_parts.hpp"
#include "generators/format_bits.hpp"
#include "harness/properties/operand_gen.hpp"
#include "harness/properties/rc_check.hpp"

namespace mmaemu::props {
namespace {

using ref::FormatId;

const std::vector<FormatId>& value_formats() {
  static const std::vector<FormatId> f = {FormatId::fp32, FormatId::tf32, FormatId::fp16, FormatId::bf16,
                                          FormatId::e4m3, FormatId::e5m2, FormatId::e8m13};
  return f;
}

int hex_width(FormatId f) { return storage_bytes(f); }

Counterexample format_counterexample(FormatId f, const std::string& what, uint32_t input, uint32_t want, uint32_t got) {
  Counterexample c;
  c.what = std::string(ref::format_name(f)) + ": " + what;
  c.inputs = std::string(ref::format_name(f)) + " " + hex_bits(input, hex_width(f));
  c.expected = hex_bits(want, hex_width(f));
  c.got = hex_bits(got, hex_width(f));
  return c;
}

// The canonical form of a pattern: what decoding and re-encoding gives.
uint32_t canonical(FormatId f, uint32_t bits) {
  const ref::FormatSpec& s = ref::spec(f);
  const ref::Decoded d = ref::decode(f, bits);
  if (d.cls == ref::ValueClass::nan) return ref::canonical_nan(f);
  const uint32_t ignored = (1u << s.man_shift) - 1u;  // tf32: 13 bits, e8m13: 10 bits
  return bits & ~ignored;
}

// One pattern: the checks of format-round-trip. Returns the counterexample, if any.
std::optional<Counterexample> round_trip(FormatId f, uint32_t bits) {
  const ref::FormatSpec& s = ref::spec(f);
  const gen::FormatBits fb(f);
  const ref::Decoded d = ref::decode(f, bits);
  const uint32_t want = canonical(f, bits);
  uint32_t again;
  switch (d.cls) {
    case ref::ValueClass::nan: again = ref::canonical_nan(f); break;
    case ref::ValueClass::inf: again = ref::infinity_bits(f, d.neg); break;
    case ref::ValueClass::zero: again = ref::zero_bits(f, d.neg); break;
    default: again = ref::round_to_format(f, d.neg, d.sig, d.exp - s.man_bits, ref::Rounding::nearest_even);
  }
  if (again != want) return format_counterexample(f, "decoded and re-encoded", bits, want, again);
  // The generators' decoder reads the same value.
  const double other = fb.to_double(bits);
  if (d.cls == ref::ValueClass::nan) {
    if (!std::isnan(other)) return format_counterexample(f, "NaN to the reference, a number to the other decoder", bits, want, want);
  } else {
    const double mine = d.cls == ref::ValueClass::inf ? INFINITY : std::ldexp(static_cast<double>(d.sig), d.exp - s.man_bits);
    if ((d.neg ? -mine : mine) != other || std::signbit(other) != d.neg)
      return format_counterexample(f, "decoded value differs from the other decoder's", bits, fb.encode_nearest(other),
                                   fb.encode_nearest(d.neg ? -mine : mine));
  }
  // Widening to fp32 is exact, and narrowing back gives the pattern again.
  if (f != FormatId::fp32 && d.cls != ref::ValueClass::nan) {
    const uint32_t wide = ref::convert(f, bits, FormatId::fp32, ref::Rounding::nearest_even);
    const uint32_t back = ref::convert(FormatId::fp32, wide, f, ref::Rounding::nearest_even);
    if (back != want) return format_counterexample(f, "widened to fp32 and narrowed back", bits, want, back);
  }
  return std::nullopt;
}

std::vector<GroupOutcome> check_round_trip(const Scope&, const Budget& budget) {
  std::vector<GroupOutcome> out;
  for (FormatId f : value_formats()) {
    const std::string group = "format-round-trip/" + std::string(ref::format_name(f));
    const int width = ref::spec(f).storage_bits;
    if (width <= 16) {  // every pattern, no sampling
      GroupOutcome g;
      g.group = group;
      g.seed = 0;
      for (uint32_t bits = 0; bits < (1u << width); ++bits) {
        if (auto c = round_trip(f, bits)) {
          g.counterexample = std::move(*c);
          g.counterexample->cases_before = g.cases;
          break;
        }
        ++g.cases;
      }
      out.push_back(std::move(g));
      continue;
    }
    out.push_back(run_group(group, Expect::holds, "", budget, [&] {
      const uint32_t start = *rc::gen::noShrink(rc::gen::arbitrary<uint32_t>());
      const uint32_t bits = (*shrinking_array({start}, f))[0];
      if (auto c = round_trip(f, bits)) refute(std::move(*c));
    }));
  }
  return out;
}

// --- conversion-ties-to-even ------------------------------------------------------------------------------
std::vector<GroupOutcome> check_ties(const Scope&, const Budget& budget) {
  std::vector<GroupOutcome> out;
  for (FormatId f : value_formats()) {
    if (f == FormatId::fp32) continue;
    const std::string group = "conversion-ties-to-even/" + std::string(ref::format_name(f));
    out.push_back(run_group(group, Expect::holds, "", budget, [&] {
      const gen::FormatBits fb(f), f32(FormatId::fp32);
      const uint32_t ulp = fb.ulp_bit();
      const uint32_t magnitude_mask = fb.storage_mask() >> 1;
      // A non-negative finite pattern below the largest, as a count of ulps (shrinks toward 0).
      const uint32_t codes = (fb.max_finite(false) & magnitude_mask) / ulp;
      // Half the cases at the edges, where rounding has its own paths: zero, the subnormals' top (the
      // boundary to the normals) and the largest finite values.
      const uint32_t subnormal_top = (1u << fb.man_bits()) - 1u;
      const uint32_t code = *rc::gen::weightedOneOf<uint32_t>(
          {{1, rc::gen::inRange<uint32_t>(0, codes + 1)},
           {1, rc::gen::elementOf(std::vector<uint32_t>{0, 1, subnormal_top - 1, subnormal_top, subnormal_top + 1,
                                                         codes - 1, codes})},
           {1, rc::gen::inRange<uint32_t>(0, subnormal_top + 1)}});
      const bool neg = *rc::gen::arbitrary<bool>();
      const uint32_t sign = neg ? (1u << (fb.width() - 1)) : 0u;
      const uint32_t lo = sign | code * ulp;
      const bool top = code == codes;
      if (top && !fb.has_inf()) discard("the largest finite value of a format without Inf has no upper neighbour");
      const uint32_t hi = top ? fb.inf(neg) : sign | (code + 1) * ulp;
      const double vlo = fb.to_double(lo);
      const double vhi = top ? std::ldexp(1.0, fb.emax() + 1) * (neg ? -1 : 1) : fb.to_double(hi);
      const auto mid = f32.encode_exact((vlo + vhi) / 2);
      if (!mid) discard("the midpoint is not an fp32 value");
      const uint32_t even = top ? hi : ((lo / ulp) % 2 == 0 ? lo : hi);
      const auto check = [&](uint32_t input, ref::Rounding r, uint32_t want, const std::string& what) {
        const uint32_t got = ref::convert(FormatId::fp32, input, f, r);
        if (got != want) {
          Counterexample c = format_counterexample(f, what, input, want, got);
          c.inputs = "fp32 " + hex_bits(input, 4) + " between " + std::string(ref::format_name(f)) + " " +
                     hex_bits(lo, hex_width(f)) + " and " + hex_bits(hi, hex_width(f));
          refute(std::move(c));
        }
      };
      check(*mid, ref::Rounding::nearest_even, even, "a tie rounded to nearest");
      check(*mid, ref::Rounding::toward_zero, lo, "a tie rounded toward zero");
      // One fp32 ulp either side of the midpoint (the pattern's magnitude plus or minus one).
      check(*mid - 1, ref::Rounding::nearest_even, lo, "just below a tie, rounded to nearest");
      check(*mid + 1, ref::Rounding::nearest_even, hi, "just above a tie, rounded to nearest");
    }));
  }
  return out;
}

}  // namespace

Property format_round_trip() {
  return {"format-round-trip", "formats",
          "every pattern of every format decodes to the value an independent decoder reads and re-encodes to itself "
          "(tf32, e8m13: the ignored low bits cleared; NaN: the canonical NaN); finite values widen to fp32 and narrow "
          "back exactly (8- and 16-bit formats: every pattern)",
          check_round_trip};
}

Property conversion_ties_to_even() {
  return {"conversion-ties-to-even", "formats",
          "fp32 to a narrower format: a tie rounds to the even neighbour (to nearest) or the smaller magnitude (toward "
          "zero), one fp32 ulp off it to the nearer neighbour; the tie above the largest finite value of an IEEE "
          "format rounds to Inf",
          check_ties};
}

}  // namespace mmaemu::props
