// Bit-for-bit comparison of raw output patterns, with counts per group and the first mismatches kept
// the TestFloat way (inputs, expected, got, in hex). Counting is a tight loop; strings are only built
// for the few mismatches that are kept, so replaying a million outputs costs milliseconds.
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "harness/core/result.hpp"

namespace mmaemu {

// A raw pattern in hex, zero-padded to its storage width: (0x3c00, 2) -> "3c00".
std::string hex_bits(uint64_t bits, int word_bytes);

// Element i of an array of words (ref::words_per_element): words[i], or for 8-byte elements the pair
// words[2i], words[2i + 1], low word first.
uint64_t element_bits(const uint32_t* words, size_t i, int word_bytes);
// The same as an offset: where element i's first word is.
inline size_t word_offset(size_t i, int word_bytes) { return word_bytes == 8 ? 2 * i : i; }

// "[3c00 3c00 0000]": n elements read from elements 0, stride, 2*stride, ... of the array at p.
std::string hex_list(const uint32_t* p, size_t n, int word_bytes, size_t stride = 1);

// What a kept mismatch says about the case that produced it.
struct CaseDescription {
  std::string case_id;  // "tile 17 m 3 n 5"
  std::string inputs;   // "a=[...] b=[...] c=3f800000"
};

class BitComparator {
 public:
  static constexpr size_t kKeep = 20;
  // Called only for the mismatches that are kept, with the index of the output in its run.
  using Describe = std::function<CaseDescription(size_t index)>;

  // Counts into `result`: its groups, its totals and its first_mismatches.
  explicit BitComparator(SuiteResult& result) : result_(result) {}

  // Compares expected[i] with got[i] for every i (the spans must have the same length), all in one
  // group. Returns how many differ. 8-byte elements: the spans are words, two per element, and
  // `describe` gets element indices.
  size_t compare(const std::string& group, std::span<const uint32_t> expected, std::span<const uint32_t> got,
                 int word_bytes, const Describe& describe);

  // One output. `describe` is any callable size_t -> CaseDescription; it is called with 0.
  template <class DescribeFn>
  bool compare_one(GroupCount& group_count, const std::string& group, uint32_t expected, uint32_t got,
                   int word_bytes, DescribeFn&& describe) {
    ++group_count.compared;
    ++result_.compared;
    if (expected == got) return true;
    ++group_count.mismatched;
    ++result_.mismatched;
    if (result_.first_mismatches.size() < kKeep) keep(group, expected, got, word_bytes, describe(size_t{0}));
    return false;
  }

  // The counter of a group, created on first use; hold on to it across compare_one calls.
  GroupCount& group(const std::string& name) { return result_.groups[name]; }

 private:
  size_t compare_pairs(const std::string& group, std::span<const uint32_t> expected, std::span<const uint32_t> got,
                       const Describe& describe);
  void keep(const std::string& group, uint64_t expected, uint64_t got, int word_bytes, CaseDescription d);

  SuiteResult& result_;
};

// "g1 (3/10), g2 (1/5) and 4 more groups": the groups with mismatches, for a reason line; `known`
// picks the groups a tier file lists as known mismatches, or the others.
std::string differing_groups(const SuiteResult& result, bool known);

// Sets verdict and reason from the counts: fail when any output differs (the reason names the
// groups that differ), error when nothing was compared (a suite that checks nothing must not pass),
// pass otherwise.
void set_verdict_from_counts(SuiteResult& result);

}  // namespace mmaemu
