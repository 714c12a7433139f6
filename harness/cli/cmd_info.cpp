// `mmaemu info`: profiles and their instructions, backends, devices, versions.
#include <iostream>
#include <map>

#include "../core/host_info.hpp"
#include "commands.hpp"
#include "devices.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::cli {
namespace {

std::string describe(const ref::InstructionModel& m) {
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
    if (!verbose && m.instr.family == ref::InstrFamily::wgmma && m.instr.n != 8) continue;
    std::cout << "  " << m.instr.name << "   [" << describe(m) << "]\n";
  }
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
    if (!arch->empty()) {
      auto a = ref::parse_arch(*arch);
      if (!a) throw std::invalid_argument("--arch: unknown architecture '" + *arch + "'");
      print_profile(*a, *verbose);
    } else {
      for (ref::Arch a : ref::all_archs()) print_profile(a, *verbose);
    }
    std::cout << "\nBackends (fallback ladder, fastest first):\n  reference   CPU, scalar, exact; "
                 "every profile and instruction\n";
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
