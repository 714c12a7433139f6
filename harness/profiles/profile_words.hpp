// The words a profile file uses for the model's enumerations: one table per enumeration, read by the
// loader and the writer alike, so that what is written is what is read.
#pragma once
#include <climits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "mmaemu/reference/model.hpp"

namespace mmaemu::profiles {

template <class E>
struct Word {
  std::string_view text;
  E value;
};

inline const std::vector<Word<ref::Rounding>>& rounding_words() {
  static const std::vector<Word<ref::Rounding>> w = {{"toward-zero", ref::Rounding::toward_zero},
                                                     {"nearest-even", ref::Rounding::nearest_even}};
  return w;
}
inline const std::vector<Word<ref::Truncation>>& truncation_words() {
  static const std::vector<Word<ref::Truncation>> w = {{"toward-zero", ref::Truncation::toward_zero},
                                                       {"floor", ref::Truncation::floor}};
  return w;
}
// A rounded-toward-zero overflow: Inf, or the largest finite value.
inline const std::vector<Word<bool>>& overflow_words() {
  static const std::vector<Word<bool>> w = {{"inf", true}, {"max-finite", false}};
  return w;
}
// The sign of a block whose terms are all zero: IEEE's (-0 when every term is -0), or always +0.
inline const std::vector<Word<bool>>& zero_sign_words() {
  static const std::vector<Word<bool>> w = {{"ieee", false}, {"positive", true}};
  return w;
}
// The formats a block may round to.
inline const std::vector<Word<ref::FormatId>>& block_result_words() {
  static const std::vector<Word<ref::FormatId>> w = {
      {"fp32", ref::FormatId::fp32}, {"fp16", ref::FormatId::fp16}, {"bf16", ref::FormatId::bf16},
      {"e8m13", ref::FormatId::e8m13}};
  return w;
}

template <class E>
std::string_view word_of(const std::vector<Word<E>>& table, E value) {
  for (const auto& w : table)
    if (w.value == value) return w.text;
  return "?";
}
template <class E>
std::optional<E> value_of(const std::vector<Word<E>>& table, std::string_view text) {
  for (const auto& w : table)
    if (w.text == text) return w.value;
  return std::nullopt;
}
template <class E>
std::string choices_of(const std::vector<Word<E>>& table) {
  std::string s;
  for (const auto& w : table) s += (s.empty() ? "" : ", ") + std::string(w.text);
  return s;
}

// zero-product-exp: an integer, or "none" (a zero product does not take part in the maximum exponent).
inline std::string zero_exp_word(int e) { return e == INT_MIN ? "none" : std::to_string(e); }

}  // namespace mmaemu::profiles
