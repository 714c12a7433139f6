// Parsing of instruction names (PTX spelling) and architecture names.
#include <array>
#include <charconv>

#include "mmaemu/reference/instruction.hpp"

namespace mmaemu::ref {
namespace {

constexpr std::array<std::string_view, static_cast<size_t>(Arch::count)> kArchNames = {
    "sm70", "sm75", "sm80", "sm86", "sm89", "sm90", "sm100", "sm120"};

std::vector<std::string_view> split_dots(std::string_view s) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == '.') {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  }
  return parts;
}

// "m16n8k16" -> {16, 8, 16}
bool parse_shape(std::string_view s, int& m, int& n, int& k) {
  auto number_after = [&](char tag, size_t& pos, int& out) {
    if (pos >= s.size() || s[pos] != tag) return false;
    ++pos;
    const char* first = s.data() + pos;
    auto [ptr, ec] = std::from_chars(first, s.data() + s.size(), out);
    if (ec != std::errc() || ptr == first || out <= 0) return false;
    pos += static_cast<size_t>(ptr - first);
    return true;
  };
  size_t pos = 0;
  return number_after('m', pos, m) && number_after('n', pos, n) && number_after('k', pos, k) &&
         pos == s.size();
}

}  // namespace

std::string_view arch_name(Arch a) { return kArchNames[static_cast<size_t>(a)]; }

const std::vector<Arch>& all_archs() {
  static const std::vector<Arch> archs = {Arch::sm70, Arch::sm75, Arch::sm80,  Arch::sm86,
                                          Arch::sm89, Arch::sm90, Arch::sm100, Arch::sm120};
  return archs;
}

std::optional<Arch> parse_arch(std::string_view name) {
  std::string n(name);
  if (n.rfind("sm_", 0) == 0) n.erase(2, 1);
  if (!n.empty() && (n.back() == 'a' || n.back() == 'f')) n.pop_back();  // sm90a, sm100f
  for (size_t i = 0; i < kArchNames.size(); ++i)
    if (kArchNames[i] == n) return static_cast<Arch>(i);
  return std::nullopt;
}

std::optional<Instruction> parse_instruction(std::string_view ptx, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<Instruction> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const auto parts = split_dots(ptx);
  if (parts.empty()) return fail("empty instruction name");
  Instruction in;
  in.name = std::string(ptx);
  size_t types_needed;
  if (parts[0] == "mma") {
    in.family = InstrFamily::mma_sync;
    types_needed = 4;  // D A B C
  } else if (parts[0] == "wgmma") {
    in.family = InstrFamily::wgmma;
    types_needed = 3;  // D A B (C is D)
  } else {
    return fail("'" + std::string(ptx) + "': expected 'mma.' or 'wgmma.' followed by shape and types");
  }
  if (parts.size() != 2 + types_needed)
    return fail("'" + std::string(ptx) + "': expected " + std::string(parts[0]) + ".mMnNkK" +
                (types_needed == 4 ? ".D.A.B.C" : ".D.A.B") +
                " (PTX spelling without .sync.aligned/.row.col)");
  if (!parse_shape(parts[1], in.m, in.n, in.k))
    return fail("'" + std::string(parts[1]) + "' is not a shape like m16n8k16");
  std::array<FormatId, 4> t{};
  for (size_t i = 0; i < types_needed; ++i) {
    auto f = parse_format(parts[2 + i]);
    if (!f) return fail("'" + std::string(parts[2 + i]) + "' is not a known type");
    t[i] = *f;
  }
  in.d = t[0];
  in.a = t[1];
  in.b = t[2];
  in.c = types_needed == 4 ? t[3] : t[0];
  return in;
}

}  // namespace mmaemu::ref
