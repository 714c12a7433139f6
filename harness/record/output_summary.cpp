#include "harness/record/output_summary.hpp"

#include <cstdio>


namespace mmaemu::record {

OutputSummary summarize_outputs(const InstructionRecording& r) {
  OutputSummary s;
  const auto& in = r.instr;
  const auto is_nan = [](ref::FormatId f, const std::vector<uint32_t>& words, size_t i) {
    return element_class(f, words, i) == ref::ValueClass::nan;
  };
  for (int t = 0; t < r.tiles; ++t)
    for (int m = 0; m < in.m; ++m)
      for (int n = 0; n < in.n; ++n) {
        const size_t ci = static_cast<size_t>(t) * in.m * in.n + static_cast<size_t>(m) * in.n + n;
        const uint64_t d = element_pattern(in.d, r.d, ci);
        switch (element_class(in.d, r.d, ci)) {
          case ref::ValueClass::zero: ++s.zero; break;
          case ref::ValueClass::subnormal: ++s.subnormal; break;
          case ref::ValueClass::normal: ++s.normal; break;
          case ref::ValueClass::inf: ++s.inf; break;
          case ref::ValueClass::nan: {
            ++s.nan;
            ++s.nan_patterns[d];
            bool input_nan = is_nan(in.c, r.c, ci);
            for (int k = 0; k < in.k && !input_nan; ++k)
              input_nan = is_nan(in.a, r.a, static_cast<size_t>(t) * in.m * in.k + static_cast<size_t>(m) * in.k + k) ||
                          is_nan(in.b, r.b, static_cast<size_t>(t) * in.k * in.n + static_cast<size_t>(k) * in.n + n);
            if (!input_nan) ++s.nan_in_nan_free_outputs;
            break;
          }
        }
      }
  return s;
}

std::string describe(const OutputSummary& s, int bytes) {
  std::string out = "zero " + std::to_string(s.zero) + ", subnormal " + std::to_string(s.subnormal) + ", normal " +
                    std::to_string(s.normal) + ", inf " + std::to_string(s.inf) + ", nan " + std::to_string(s.nan);
  if (!s.nan_patterns.empty()) {
    out += " (";
    size_t shown = 0;
    for (const auto& [bits, count] : s.nan_patterns) {
      if (shown++ == 6) {
        out += ", ... " + std::to_string(s.nan_patterns.size()) + " patterns in all";
        break;
      }
      char buf[48];
      std::snprintf(buf, sizeof buf, "%s0x%0*llX x%zu", shown > 1 ? ", " : "", 2 * bytes,
                    static_cast<unsigned long long>(bits), count);
      out += buf;
    }
    out += "; " + std::to_string(s.nan_in_nan_free_outputs) + " from NaN-free inputs)";
  }
  return out;
}

}  // namespace mmaemu::record
