// `mmaemu info`: profiles and their instructions, backends, devices, versions.
#include <iostream>
#include <map>

#include "harness/core/host_info.hpp"
#include "harness/properties/property.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/devices.hpp"
#include "harness/cli/library_call.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::cli {
namespace {

std::string describe(const ref::InstructionModel& m) {
  if (m.fma_chain) return "IEEE fp64 fma chain: c first, k ascending, each fma rounded to nearest even";
  if (m.lowering)
    return "lowered: " + std::to_string(m.lowering->parts) + " x " + m.lowering->via + " chained from +0, then + c (RNE)";
  const ref::BlockModel& b = m.block;
  std::string s = "L=" + std::to_string(b.block_k) + " F=" + std::to_string(b.frac_bits) + " " +
                  (b.rounding == ref::Rounding::toward_zero ? "RZ" : "RNE") + " to " +
                  std::string(ref::format_name(b.block_result));
  return s;
}

void print_profile(ref::Arch a, bool verbose) {
  const auto& all = ref::instructions_of(a);
  std::cout << ref::arch_name(a) << " (" << all.size() << " instructions)\n";
  for (const auto& m : all) {
    // wgmma is listed for n8 only unless --verbose; every N that is a multiple of 8 up to 256 exists.
    if (!verbose && ref::is_wide_n_variant(m.instr)) continue;
    std::cout << "  " << m.instr.name << "   [" << describe(m) << "]\n";
  }
}

// Which instructions (at their own shape, wgmma at n8) a backend runs here, per profile, and why not
// the others, each distinct reason once with how many instructions it covers.
void print_coverage(const kernels::Backend& b, const std::vector<ref::Arch>& archs) {
  size_t total = 0, ran = 0;
  std::string lines;
  for (ref::Arch a : archs) {
    size_t arch_total = 0, arch_ran = 0;
    std::map<std::string, size_t> reasons;
    for (const auto& m : ref::instructions_of(a)) {
      if (ref::is_wide_n_variant(m.instr)) continue;
      ++arch_total;
      const kernels::GemmShape shape{1, static_cast<size_t>(m.instr.m), static_cast<size_t>(m.instr.n),
                                     static_cast<size_t>(m.instr.k)};
      if (auto why = b.declines(m, shape, false)) ++reasons[*why]; else ++arch_ran;
    }
    total += arch_total;
    ran += arch_ran;
    lines += "      " + std::string(ref::arch_name(a)) + ": " + std::to_string(arch_ran) + " of " +
             std::to_string(arch_total) + "\n";
    for (const auto& [why, count] : reasons)
      lines += "        not " + std::to_string(count) + ": " + why + "\n";
  }
  if (ran == total) {
    std::cout << "      every profile and instruction (" << total << ")\n";
    return;
  }
  std::cout << lines;
}

void print_backends(const std::vector<ref::Arch>& archs) {
  std::cout << "\nBackends (fallback ladder of --backend auto, fastest first; coverage here, wgmma at n8):\n";
  int rung = 1;
  for (const kernels::Backend* b : kernels::backends()) {
    std::cout << "  " << rung++ << ". " << b->name() << "   " << b->description() << "\n";
    print_coverage(*b, archs);
  }
}

// T5's catalogue: the names a tier file's `properties:` takes, each with its claim.
void print_properties() {
  std::cout << "\nProperties (T5, tiers/T5.yaml; a suite's `properties:` takes these names):\n";
  for (const props::Property& p : props::catalogue())
    std::cout << "  " << p.name << " (" << p.subject << "): " << p.statement << "\n";
}

}  // namespace

void add_info(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("info", "Profiles, instructions, backends, devices and versions");
  auto arch = std::make_shared<std::string>();
  auto verbose = std::make_shared<bool>(false);
  cmd->add_option("--arch", *arch, "Show one architecture profile only (sm70 ... sm120)");
  cmd->add_flag("--verbose", *verbose, "List every wgmma N, not only n8");
  cmd->callback([arch, verbose, &status] {
    std::cout << "mmaemu " << MMAEMU_VERSION << "\n\n";
    std::cout << "Architecture profiles (instruction   [block model: L products per block, F fraction "
                 "bits, rounding, block result]):\n";
    std::vector<ref::Arch> archs = ref::all_archs();
    if (!arch->empty()) {
      auto a = ref::parse_arch(*arch);
      if (!a) throw std::invalid_argument("--arch: unknown architecture '" + *arch + "'");
      archs = {*a};
    }
    for (ref::Arch a : archs) print_profile(a, *verbose);
    print_backends(archs);
    print_properties();
    std::cout << "\nLibrary profiles (mmaemu gemm --library, mmaemu resolve):\n";
    for (const auto& p : library_profiles())
      std::cout << "  " << p.name << "   " << p.library << "\n      library builds: " << p.builds << "\n";
    const DeviceReport d = query_devices();
    std::cout << "\nDevices: " << d.status << "\n";
    for (const auto& x : d.devices)
      std::cout << "  [" << x.index << "] " << x.name << "  sm_" << x.compute_capability << "  " << x.sm_count
                << " SMs\n";
    std::cout << "\nVersions:\n  compiler: " << host_compiler() << "\n  os: " << operating_system() << "\n";
    if (d.built_with_cuda)
      std::cout << "  CUDA runtime: " << d.cuda_runtime << "\n  CUDA driver API: "
                << (d.cuda_driver.empty() ? "none" : d.cuda_driver) << "\n";
    status = 0;
  });
}

}  // namespace mmaemu::cli
