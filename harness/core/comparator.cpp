#include "harness/core/comparator.hpp"

#include <stdexcept>

namespace mmaemu {

std::string hex_bits(uint64_t bits, int word_bytes) {
  static const char* digits = "0123456789abcdef";
  const int n = 2 * (word_bytes > 0 ? word_bytes : 4);
  std::string s(static_cast<size_t>(n), '0');
  for (int i = n - 1; i >= 0; --i, bits >>= 4) s[static_cast<size_t>(i)] = digits[bits & 15];
  return s;
}

uint64_t element_bits(const uint32_t* words, size_t i, int word_bytes) {
  if (word_bytes != 8) return words[i];
  return uint64_t{words[2 * i]} | uint64_t{words[2 * i + 1]} << 32;
}

std::string hex_list(const uint32_t* p, size_t n, int word_bytes, size_t stride) {
  std::string s = "[";
  for (size_t i = 0; i < n; ++i) {
    if (i) s += ' ';
    s += hex_bits(element_bits(p, i * stride, word_bytes), word_bytes);
  }
  return s + "]";
}

size_t BitComparator::compare(const std::string& group, std::span<const uint32_t> expected,
                              std::span<const uint32_t> got, int word_bytes, const Describe& describe) {
  if (expected.size() != got.size())
    throw std::invalid_argument("BitComparator::compare: " + std::to_string(expected.size()) + " expected outputs but " +
                                std::to_string(got.size()) + " got");
  if (word_bytes == 8) return compare_pairs(group, expected, got, describe);
  const size_t n = expected.size();
  // Counting first, in a loop the compiler vectorises; the rare mismatch is then located again.
  size_t differ = 0;
  for (size_t i = 0; i < n; ++i) differ += expected[i] != got[i];
  GroupCount& g = result_.groups[group];
  g.compared += n;
  g.mismatched += differ;
  result_.compared += n;
  result_.mismatched += differ;
  for (size_t i = 0; i < n && differ > 0 && result_.first_mismatches.size() < kKeep; ++i)
    if (expected[i] != got[i]) keep(group, expected[i], got[i], word_bytes, describe(i));
  return differ;
}

size_t BitComparator::compare_pairs(const std::string& group, std::span<const uint32_t> expected,
                                    std::span<const uint32_t> got, const Describe& describe) {
  const size_t n = expected.size() / 2;
  size_t differ = 0;
  for (size_t i = 0; i < n; ++i) differ += expected[2 * i] != got[2 * i] || expected[2 * i + 1] != got[2 * i + 1];
  GroupCount& g = result_.groups[group];
  g.compared += n;
  g.mismatched += differ;
  result_.compared += n;
  result_.mismatched += differ;
  for (size_t i = 0; i < n && differ > 0 && result_.first_mismatches.size() < kKeep; ++i) {
    const uint64_t e = element_bits(expected.data(), i, 8), o = element_bits(got.data(), i, 8);
    if (e != o) keep(group, e, o, 8, describe(i));
  }
  return differ;
}

void BitComparator::keep(const std::string& group, uint64_t expected, uint64_t got, int word_bytes,
                         CaseDescription d) {
  result_.first_mismatches.push_back(
      {group, std::move(d.case_id), std::move(d.inputs), hex_bits(expected, word_bytes), hex_bits(got, word_bytes)});
}

std::string differing_groups(const SuiteResult& result, bool known) {
  // The reason stays one readable line: the first groups that differ, then how many more.
  constexpr size_t kGroupsNamed = 6;
  std::string groups;
  size_t differing = 0;
  for (const auto& [name, count] : result.groups) {
    if (count.mismatched == 0 || count.known() != known) continue;
    if (++differing > kGroupsNamed) continue;
    groups += (groups.empty() ? "" : ", ") + name + " (" + std::to_string(count.mismatched) + "/" +
              std::to_string(count.compared) + ")";
  }
  if (differing > kGroupsNamed) groups += " and " + std::to_string(differing - kGroupsNamed) + " more groups";
  return groups;
}

void set_verdict_from_counts(SuiteResult& result) {
  if (result.mismatched > 0) {
    result.verdict = Verdict::fail;
    result.reason = std::to_string(result.mismatched) + " of " + std::to_string(result.compared) +
                    " outputs differ: " + differing_groups(result, false);
  } else if (result.compared == 0) {
    result.verdict = Verdict::error;
    result.reason = "nothing was compared";
  } else {
    result.verdict = Verdict::pass;
    result.reason.clear();
  }
}

}  // namespace mmaemu
