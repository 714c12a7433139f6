#include "harness/external/km_replay.hpp"

#include <chrono>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <vector>

#include "harness/core/errors.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::external {
namespace {

namespace ref = mmaemu::ref;

// One row per GPU x input format x output type. K is the dot-product length the recordings hold;
// the instruction is the one whose K matches it where the architecture has one.
constexpr KmRecipe kRecipes[] = {
    // Volta has only mma.m8n8k4 for fp16 (HMMA.884): K = 4 is one instruction.
    {"V100", "fp16", "fp32", "sm70", "mma.m8n8k4.f32.f16.f16.f32", 4, false},
    {"V100", "fp16", "fp16", "sm70", "mma.m8n8k4.f16.f16.f16.f16", 4, false},
    // Ampere (the A100 is sm80; the A2 is a GA107, sm86): 16-bit inputs K = 8 is mma.m16n8k8,
    // tf32 K = 4 is mma.m16n8k4.
    {"A100", "fp16", "fp32", "sm80", "mma.m16n8k8.f32.f16.f16.f32", 8, false},
    {"A100", "fp16", "fp16", "sm80", "mma.m16n8k8.f16.f16.f16.f16", 8, false},
    {"A100", "bf16", "fp32", "sm80", "mma.m16n8k8.f32.bf16.bf16.f32", 8, false},
    {"A100", "tf32", "fp32", "sm80", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"A2", "fp16", "fp32", "sm86", "mma.m16n8k8.f32.f16.f16.f32", 8, false},
    {"A2", "fp16", "fp16", "sm86", "mma.m16n8k8.f16.f16.f16.f16", 8, false},
    {"A2", "bf16", "fp32", "sm86", "mma.m16n8k8.f32.bf16.bf16.f32", 8, false},
    {"A2", "tf32", "fp32", "sm86", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    // Ada (the L40S is an Ada part): as Ampere, plus FP8 through mma.m16n8k32.
    {"Ada", "fp16", "fp32", "sm89", "mma.m16n8k8.f32.f16.f16.f32", 8, false},
    {"Ada", "fp16", "fp16", "sm89", "mma.m16n8k8.f16.f16.f16.f16", 8, false},
    {"Ada", "bf16", "fp32", "sm89", "mma.m16n8k8.f32.bf16.bf16.f32", 8, false},
    {"Ada", "tf32", "fp32", "sm89", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"Ada", "E4M3", "fp32", "sm89", "mma.m16n8k32.f32.e4m3.e4m3.f32", 32, false},
    {"Ada", "E4M3", "fp16", "sm89", "mma.m16n8k32.f16.e4m3.e4m3.f16", 32, false},
    {"Ada", "E5M2", "fp32", "sm89", "mma.m16n8k32.f32.e5m2.e5m2.f32", 32, false},
    {"Ada", "E5M2", "fp16", "sm89", "mma.m16n8k32.f16.e5m2.e5m2.f16", 32, false},
    {"L40S", "fp16", "fp32", "sm89", "mma.m16n8k8.f32.f16.f16.f32", 8, false},
    {"L40S", "fp16", "fp16", "sm89", "mma.m16n8k8.f16.f16.f16.f16", 8, false},
    {"L40S", "bf16", "fp32", "sm89", "mma.m16n8k8.f32.bf16.bf16.f32", 8, false},
    {"L40S", "tf32", "fp32", "sm89", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"L40S", "E4M3", "fp32", "sm89", "mma.m16n8k32.f32.e4m3.e4m3.f32", 32, false},
    {"L40S", "E5M2", "fp32", "sm89", "mma.m16n8k32.f32.e5m2.e5m2.f32", 32, false},
    // Hopper (H100 and H200 are both sm90): 16-bit inputs K = 16 is mma.m16n8k16, tf32 K = 4 is
    // mma.m16n8k4. FP8 with an fp32 result was recorded with wgmma and a zero accumulator (the c file
    // is not what the GPU was given); FP8 with an fp16 result with mma.sync.m16n8k32 and c rounded
    // to fp16, like every other GPU (the result differs from c = 0 by about c in every line).
    {"H100", "fp16", "fp32", "sm90", "mma.m16n8k16.f32.f16.f16.f32", 16, false},
    {"H100", "fp16", "fp16", "sm90", "mma.m16n8k16.f16.f16.f16.f16", 16, false},
    {"H100", "bf16", "fp32", "sm90", "mma.m16n8k16.f32.bf16.bf16.f32", 16, false},
    {"H100", "tf32", "fp32", "sm90", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"H100", "E4M3", "fp32", "sm90", "wgmma.m64n8k32.f32.e4m3.e4m3", 32, true},
    {"H100", "E4M3", "fp16", "sm90", "mma.m16n8k32.f16.e4m3.e4m3.f16", 32, false},
    {"H100", "E5M2", "fp32", "sm90", "wgmma.m64n8k32.f32.e5m2.e5m2", 32, true},
    {"H100", "E5M2", "fp16", "sm90", "mma.m16n8k32.f16.e5m2.e5m2.f16", 32, false},
    {"H200", "fp16", "fp32", "sm90", "mma.m16n8k16.f32.f16.f16.f32", 16, false},
    {"H200", "fp16", "fp16", "sm90", "mma.m16n8k16.f16.f16.f16.f16", 16, false},
    {"H200", "bf16", "fp32", "sm90", "mma.m16n8k16.f32.bf16.bf16.f32", 16, false},
    {"H200", "tf32", "fp32", "sm90", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"H200", "E4M3", "fp32", "sm90", "wgmma.m64n8k32.f32.e4m3.e4m3", 32, true},
    {"H200", "E4M3", "fp16", "sm90", "mma.m16n8k32.f16.e4m3.e4m3.f16", 32, false},
    {"H200", "E5M2", "fp32", "sm90", "wgmma.m64n8k32.f32.e5m2.e5m2", 32, true},
    {"H200", "E5M2", "fp16", "sm90", "mma.m16n8k32.f16.e5m2.e5m2.f16", 32, false},
    // Blackwell B200 (sm100): Hopper's shapes; no wgmma, so FP8 went through mma.m16n8k32 with c.
    {"B200", "fp16", "fp32", "sm100", "mma.m16n8k16.f32.f16.f16.f32", 16, false},
    {"B200", "fp16", "fp16", "sm100", "mma.m16n8k16.f16.f16.f16.f16", 16, false},
    {"B200", "bf16", "fp32", "sm100", "mma.m16n8k16.f32.bf16.bf16.f32", 16, false},
    {"B200", "tf32", "fp32", "sm100", "mma.m16n8k4.f32.tf32.tf32.f32", 4, false},
    {"B200", "E4M3", "fp32", "sm100", "mma.m16n8k32.f32.e4m3.e4m3.f32", 32, false},
    {"B200", "E4M3", "fp16", "sm100", "mma.m16n8k32.f16.e4m3.e4m3.f16", 32, false},
    {"B200", "E5M2", "fp32", "sm100", "mma.m16n8k32.f32.e5m2.e5m2.f32", 32, false},
    {"B200", "E5M2", "fp16", "sm100", "mma.m16n8k32.f16.e5m2.e5m2.f16", 32, false},
};

// Mismatches kept per group, so that every failing group shows examples.
constexpr size_t kKeepPerGroup = 3;

std::string hex(uint32_t bits, ref::FormatId f) {
  const int digits = (ref::spec(f).storage_bits + 3) / 4;
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*x", digits, bits);
  return buf;
}

std::string hex_list(const std::vector<uint32_t>& v, ref::FormatId f) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? " " : "") + hex(v[i], f);
  return s + "]";
}

// An fp32 pattern of the archive as the operand format's bits; the archive must hold exact values.
uint32_t operand_bits(ref::FormatId f, uint32_t fp32_bits, const std::string& file, size_t line) {
  const auto bits = ref::from_fp32_exact(f, fp32_bits);
  if (!bits)
    throw InputError(km_where(file, line), "fp32 pattern " + hex(fp32_bits, ref::FormatId::fp32) +
                                               " is not a " + std::string(ref::format_name(f)) + " value");
  return *bits;
}

// The addend the GPU was given. An fp16-accumulating instruction takes C in fp16: the recordings
// hold the fp32 value, which the recording program rounded to nearest even (__float2half); every
// fp16-result set of 16-bit inputs matches bit for bit that way.
uint32_t addend_bits(ref::FormatId f, uint32_t fp32_bits) {
  if (f == ref::FormatId::fp32) return fp32_bits;
  return ref::convert(ref::FormatId::fp32, fp32_bits, f, ref::Rounding::nearest_even);
}

}  // namespace

std::span<const KmRecipe> km_recipes() { return kRecipes; }

std::optional<KmRecipe> km_recipe(std::string_view gpu, std::string_view format, std::string_view out) {
  for (const KmRecipe& r : kRecipes)
    if (r.gpu == gpu && r.format == format && r.out == out) return r;
  return std::nullopt;
}

std::string km_group(const KmSet& s) { return s.gpu + "/" + s.format + "/" + s.out + "-out"; }

void replay_km_set(const KmSet& s, const KmRecipe& r, SuiteResult& result) {
  const std::string group = km_group(s);
  const auto arch = ref::parse_arch(r.arch);
  if (!arch) throw std::logic_error("recipe names an unknown architecture " + std::string(r.arch));
  const ref::InstructionModel& model = ref::lookup(*arch, r.instruction);
  const ref::Instruction& in = model.instr;
  if (s.k != r.k)
    throw InputError(s.a_file, std::to_string(s.k) + " products per line where " + group + " has " +
                                   std::to_string(r.k));

  GroupCount& count = result.groups[group];
  size_t kept = 0;
  std::vector<uint32_t> a(s.k), b(s.k);
  for (size_t i = 0; i < s.cases(); ++i) {
    const size_t line = i + 1;
    for (int j = 0; j < s.k; ++j) {
      a[j] = operand_bits(in.a, s.a[i * s.k + j], s.a_file, line);
      b[j] = operand_bits(in.b, s.b[i * s.k + j], s.b_file, line);
    }
    const uint32_t c = r.zero_addend ? ref::zero_bits(in.c, false) : addend_bits(in.c, s.c[i]);
    const auto d = ref::from_fp32_exact(in.d, s.d[i]);
    if (!d)
      throw InputError(km_where(s.d_file, line), "result " + hex(s.d[i], ref::FormatId::fp32) +
                                                     " is not a " + std::string(ref::format_name(in.d)) + " value");
    const uint32_t got = s.k == in.k ? ref::dot(model, a.data(), b.data(), c)
                                     : ref::dot_k(model, a.data(), b.data(), c, s.k);
    ++count.compared;
    ++result.compared;
    if (got == *d) continue;
    ++count.mismatched;
    ++result.mismatched;
    if (kept++ < kKeepPerGroup)
      result.first_mismatches.push_back(
          {group, "line " + std::to_string(line),
           "a=" + hex_list(a, in.a) + " b=" + hex_list(b, in.b) + " c=" + hex(c, in.c) + " (" +
               std::string(r.instruction) + " on " + std::string(r.arch) + ")",
           hex(*d, in.d), hex(got, in.d)});
  }
}

SuiteResult replay_km_archive(const std::filesystem::path& archive) {
  const auto start = std::chrono::steady_clock::now();
  SuiteResult result;
  result.tier = "T2";
  result.suite = "km-tensor-core-validation";
  result.labels = {"T2", "external", "cpu"};

  std::string failed, errors;
  std::map<std::string, bool> profile_reproduced;  // profile -> every set of it replayed, every output equal
  for (const KmSet& s : read_km_archive(archive)) {
    const std::string group = km_group(s);
    const auto recipe = km_recipe(s.gpu, s.format, s.out);
    try {
      if (!recipe) throw std::runtime_error("no recipe says which GPU instruction made this set");
      replay_km_set(s, *recipe, result);
    } catch (const InputError&) {
      throw;
    } catch (const std::exception& e) {  // ref::UnsupportedInstruction, unknown set
      result.groups[group];               // listed, with nothing compared
      errors += (errors.empty() ? "" : "; ") + group + ": " + e.what();
      if (recipe) profile_reproduced[std::string(recipe->arch)] = false;
      continue;
    }
    const GroupCount& g = result.groups[group];
    const auto it = profile_reproduced.try_emplace(std::string(recipe->arch), true).first;
    it->second = it->second && g.compared > 0 && g.mismatched == 0;
    if (g.mismatched)
      failed += (failed.empty() ? "" : ", ") + group + " " + std::to_string(g.mismatched) + "/" +
                std::to_string(g.compared);
  }
  for (const auto& [profile, reproduced] : profile_reproduced)
    if (reproduced) result.pinned_profiles.push_back(profile);

  if (!errors.empty()) result.verdict = Verdict::error;
  else if (!failed.empty()) result.verdict = Verdict::fail;
  if (!failed.empty()) result.reason = "mismatches in " + failed;
  if (!errors.empty())
    result.reason += (result.reason.empty() ? "" : "; ") + std::string("not replayed: ") + errors;
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace mmaemu::external
