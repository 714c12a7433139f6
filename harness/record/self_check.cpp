#include "harness/record/self_check.hpp"

#include <cstdio>

#include "generators/format_bits.hpp"

namespace mmaemu::record {
namespace {

constexpr size_t kMaxReported = 10;

std::string hex(uint64_t v, int bytes) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%0*llX", 2 * bytes, static_cast<unsigned long long>(v));
  return buf;
}

void report(CheckResult& res, std::string line) {
  ++res.failures;
  if (res.first.size() < kMaxReported) res.first.push_back(std::move(line));
}

}  // namespace

uint64_t poison_pattern(uint8_t byte, int bytes) {
  uint64_t p = 0;
  for (int i = 0; i < bytes; ++i) p |= static_cast<uint64_t>(byte) << (8 * i);
  return p;
}

CheckResult check_runs_agree(const InstructionRecording& r, const std::vector<uint32_t>& d1, uint64_t poison1,
                             const std::vector<uint32_t>& d2, uint64_t poison2) {
  CheckResult res;
  const ref::FormatId fd = r.instr.d;
  const int bytes = storage_bytes(fd);
  const size_t words = static_cast<size_t>(ref::words_per_element(fd));
  const size_t per_tile = static_cast<size_t>(r.instr.m) * r.instr.n;
  for (size_t i = 0; i < d1.size() / words && i < d2.size() / words; ++i) {
    ++res.checked;
    const uint64_t x = element_pattern(fd, d1, i), y = element_pattern(fd, d2, i);
    if (x == y) continue;
    const size_t tile = i / per_tile, m = (i % per_tile) / r.instr.n, n = i % r.instr.n;
    const bool unwritten = x == poison1 && y == poison2;
    report(res, r.instr.name + " tile " + std::to_string(tile) + " m " + std::to_string(m) + " n " +
                    std::to_string(n) + (unwritten ? ": output never written (" : ": runs differ (") +
                    hex(x, bytes) + " vs " + hex(y, bytes) + ")");
  }
  if (d1.size() != d2.size() || d1.size() != r.outputs() * words)
    report(res, r.instr.name + ": expected " + std::to_string(r.outputs()) + " outputs, got " +
                    std::to_string(d1.size()) + " and " + std::to_string(d2.size()));
  return res;
}

CheckResult check_exact_tiles(const InstructionRecording& r) {
  CheckResult res;
  const auto& in = r.instr;
  const size_t a_size = static_cast<size_t>(in.m) * in.k, b_size = static_cast<size_t>(in.k) * in.n,
               c_size = static_cast<size_t>(in.m) * in.n;
  for (const FamilyRange& range : r.families) {
    if (range.family != gen::Family::small_int) continue;
    for (int t = range.first; t < range.last; ++t)
      for (int m = 0; m < in.m; ++m)
        for (int n = 0; n < in.n; ++n) {
          const size_t ci = c_size * t + static_cast<size_t>(m) * in.n + n;
          double expected = element_value(in.c, r.c, ci);
          for (int k = 0; k < in.k; ++k)
            expected += element_value(in.a, r.a, a_size * t + static_cast<size_t>(m) * in.k + k) *
                        element_value(in.b, r.b, b_size * t + static_cast<size_t>(k) * in.n + n);
          ++res.checked;
          const double got = element_value(in.d, r.d, ci);
          if (got == expected) continue;  // +0 == -0: the sign of an exact zero is not a layout matter
          char line[256];
          std::snprintf(line, sizeof line, "%s tile %d m %d n %d: expected %.17g, got %.17g (%s)", in.name.c_str(), t,
                        m, n, expected, got, hex(element_pattern(in.d, r.d, ci), storage_bytes(in.d)).c_str());
          report(res, line);
        }
  }
  return res;
}

}  // namespace mmaemu::record
