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

bool takes_any_n(InstrFamily f) { return f == InstrFamily::wgmma || f == InstrFamily::tcgen05; }
bool is_wide_n_variant(const Instruction& in) { return takes_any_n(in.family) && in.n != 8; }

std::string spell(const Instruction& in) {
  const auto t = [](FormatId f) {
    return std::string(f == FormatId::fp32 ? "f32" : f == FormatId::fp16 ? "f16" : f == FormatId::fp64 ? "f64" : format_name(f));
  };
  std::string s = in.family == InstrFamily::mma_sync ? "mma." : in.family == InstrFamily::wgmma ? "wgmma." : "tcgen05.mma.";
  s += "m" + std::to_string(in.m) + "n" + std::to_string(in.n) + "k" + std::to_string(in.k);
  if (!in.kind.empty()) s += ".kind::" + in.kind;
  if (in.scale) s += ".block_scale.block" + std::to_string(in.scale->block);
  s += "." + t(in.d) + "." + t(in.a) + "." + t(in.b);
  if (in.family == InstrFamily::mma_sync) s += "." + t(in.c);
  if (in.scale) s += "." + t(in.scale->format);
  return s;
}

// Grammar (dot-separated):
//   mma . SHAPE [. kind::KIND] [. block_scale . blockB] . D . A . B . C [. S]
//   wgmma . SHAPE . D . A . B
//   tcgen05 . mma . SHAPE . kind::KIND [. block_scale . blockB] . D . A . B [. S]
std::optional<Instruction> parse_instruction(std::string_view ptx, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<Instruction> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  const std::string whole(ptx);
  const auto parts = split_dots(ptx);
  Instruction in;
  in.name = whole;
  size_t i = 1;
  if (parts[0] == "mma") {
    in.family = InstrFamily::mma_sync;
  } else if (parts[0] == "wgmma") {
    in.family = InstrFamily::wgmma;
  } else if (parts[0] == "tcgen05" && parts.size() > 1 && parts[1] == "mma") {
    in.family = InstrFamily::tcgen05;
    i = 2;
  } else {
    return fail("'" + whole + "': expected 'mma.', 'wgmma.' or 'tcgen05.mma.' followed by shape and types");
  }
  const std::string expected =
      in.family == InstrFamily::mma_sync ? "mma.mMnNkK[.kind::KIND][.block_scale.blockB].D.A.B.C[.S]"
      : in.family == InstrFamily::wgmma  ? "wgmma.mMnNkK.D.A.B"
                                         : "tcgen05.mma.mMnNkK.kind::KIND[.block_scale.blockB].D.A.B[.S]";
  const auto malformed = [&] {
    return fail("'" + whole + "': expected " + expected + " (PTX spelling without .sync.aligned/.row.col)");
  };
  if (i >= parts.size()) return malformed();
  if (!parse_shape(parts[i], in.m, in.n, in.k))
    return fail("'" + std::string(parts[i]) + "' is not a shape like m16n8k16");
  ++i;
  if (in.family != InstrFamily::wgmma && i < parts.size() && parts[i].rfind("kind::", 0) == 0) {
    in.kind = std::string(parts[i].substr(6));
    if (in.kind.empty()) return malformed();
    ++i;
  }
  if (in.family == InstrFamily::tcgen05 && in.kind.empty()) return malformed();
  bool scaled = false;
  int block = 0;
  if (in.family != InstrFamily::wgmma && i < parts.size() && parts[i] == "block_scale") {
    if (++i >= parts.size() || parts[i].rfind("block", 0) != 0) return malformed();
    const std::string_view b = parts[i].substr(5);
    auto [ptr, ec] = std::from_chars(b.data(), b.data() + b.size(), block);
    if (ec != std::errc() || ptr != b.data() + b.size() || block <= 0 || in.k % block != 0)
      return fail("'" + std::string(parts[i]) + "': expected block16 or block32, a divisor of K = " + std::to_string(in.k));
    scaled = true;
    ++i;
  }
  const size_t types_needed = (in.family == InstrFamily::mma_sync ? 4 : 3) + (scaled ? 1 : 0);
  if (parts.size() - i != types_needed) return malformed();
  std::array<FormatId, 5> t{};
  for (size_t j = 0; j < types_needed; ++j, ++i) {
    auto f = parse_format(parts[i]);
    if (!f) return fail("'" + std::string(parts[i]) + "' is not a known type");
    t[j] = *f;
  }
  in.d = t[0];
  in.a = t[1];
  in.b = t[2];
  in.c = in.family == InstrFamily::mma_sync ? t[3] : t[0];
  if (scaled) in.scale = BlockScale{t[types_needed - 1], block};
  return in;
}

}  // namespace mmaemu::ref
