#include "harness/api/info.hpp"

#include <map>

#include "harness/api/devices.hpp"
#include "harness/api/library_call.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/host_info.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::api {
namespace {

std::string describe(const ref::InstructionModel& m) {
  if (m.fma_chain) return "IEEE fp64 fma chain: c first, k ascending, each fma rounded to nearest even";
  if (m.lowering)
    return "lowered: " + std::to_string(m.lowering->parts) + " x " + m.lowering->via + " chained from +0, then + c (RNE)";
  const ref::BlockModel& b = m.block;
  return "L=" + std::to_string(b.block_k) + " F=" + std::to_string(b.frac_bits) + " " +
         (b.rounding == ref::Rounding::toward_zero ? "RZ" : "RNE") + " to " + std::string(ref::format_name(b.block_result));
}

// Which instructions (at their own shape, wgmma at n8) a backend runs here, per profile, and why not
// the others: each distinct reason once, with its code and how many instructions it covers.
nlohmann::json coverage(const kernels::Backend& b, const std::vector<ref::Arch>& archs) {
  nlohmann::json out = nlohmann::json::array();  // in profile order
  for (ref::Arch a : archs) {
    size_t total = 0, ran = 0;
    std::map<std::string, std::pair<std::string, size_t>> reasons;  // detail -> code, instructions
    for (const auto& m : ref::instructions_of(a)) {
      if (ref::is_wide_n_variant(m.instr)) continue;
      ++total;
      const kernels::GemmShape shape{1, static_cast<size_t>(m.instr.m), static_cast<size_t>(m.instr.n),
                                     static_cast<size_t>(m.instr.k)};
      if (auto why = b.declines(m, shape, false)) {
        auto& [code, n] = reasons[why->detail];
        code = why->code_name();
        ++n;
      } else {
        ++ran;
      }
    }
    nlohmann::json declines = nlohmann::json::array();
    for (const auto& [detail, tally] : reasons)
      declines.push_back({{"code", tally.first}, {"detail", detail}, {"instructions", tally.second}});
    out.push_back({{"arch", ref::arch_name(a)}, {"runs", ran}, {"of", total}, {"declines", declines}});
  }
  return out;
}

}  // namespace

nlohmann::json info(const std::optional<std::string>& arch, bool every_n) {
  std::vector<ref::Arch> archs = ref::all_archs();
  if (arch) {
    const auto a = ref::parse_arch(*arch);
    if (!a) throw InputError("--arch", "unknown architecture '" + *arch + "'");
    archs = {*a};
  }
  nlohmann::json out;
  out["version"] = MMAEMU_VERSION;
  out["architectures"] = nlohmann::json::array();
  for (ref::Arch a : archs) {
    nlohmann::json instrs = nlohmann::json::array();
    for (const auto& m : ref::instructions_of(a)) {
      if (!every_n && ref::is_wide_n_variant(m.instr)) continue;
      instrs.push_back({{"name", m.instr.name}, {"block_model", describe(m)}});
    }
    out["architectures"].push_back({{"name", ref::arch_name(a)}, {"instructions", instrs},
                                    {"instruction_count", ref::instructions_of(a).size()}});
  }
  out["backends"] = nlohmann::json::array();
  for (const kernels::Backend* b : kernels::backends())
    out["backends"].push_back({{"name", b->name()}, {"description", b->description()}, {"coverage", coverage(*b, archs)}});
  out["library_profiles"] = nlohmann::json::array();
  for (const auto& p : library_profiles())
    out["library_profiles"].push_back({{"name", p.name}, {"library", p.library}, {"builds", p.builds}});
  const DeviceReport d = query_devices();
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& x : d.devices)
    devices.push_back({{"index", x.index}, {"name", x.name}, {"compute_capability", x.compute_capability},
                       {"sm_count", x.sm_count}});
  out["devices"] = {{"status", d.status}, {"built_with_cuda", d.built_with_cuda}, {"devices", devices}};
  out["versions"] = {{"compiler", host_compiler()}, {"os", operating_system()}};
  if (d.built_with_cuda) {
    out["versions"]["cuda_runtime"] = d.cuda_runtime;
    out["versions"]["cuda_driver"] = d.cuda_driver.empty() ? "none" : d.cuda_driver;
    out["versions"]["cublaslt"] = d.cublaslt;
  }
  return out;
}

}  // namespace mmaemu::api
