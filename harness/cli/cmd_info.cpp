// `mmaemu info`: profiles and their instructions, backends, devices, versions (harness/api/info.hpp
// gathers them; Python's mmaemu.info() returns the same data), and T5's properties.
#include <iostream>

#include "harness/api/info.hpp"
#include "harness/cli/commands.hpp"
#include "harness/properties/property.hpp"
#include "mmaemu/reference/decline.hpp"

namespace mmaemu::cli {
namespace {

void print_profiles(const nlohmann::json& info) {
  std::cout << "Architecture profiles (instruction   [block model: L products per block, F fraction "
               "bits, rounding, block result]):\n";
  for (const auto& a : info["architectures"]) {
    std::cout << a["name"].get<std::string>() << " (" << a["instruction_count"].get<size_t>() << " instructions)\n";
    for (const auto& i : a["instructions"])
      std::cout << "  " << i["name"].get<std::string>() << "   [" << i["block_model"].get<std::string>() << "]\n";
  }
}

// Per backend: every instruction when it runs them all, else per profile how many and why not the rest.
void print_backends(const nlohmann::json& info) {
  std::cout << "\nBackends (fallback ladder of --backend auto, fastest first; coverage here, wgmma at n8):\n";
  int rung = 1;
  for (const auto& b : info["backends"]) {
    std::cout << "  " << rung++ << ". " << b["name"].get<std::string>() << "   " << b["description"].get<std::string>()
              << "\n";
    size_t total = 0, ran = 0;
    std::string lines;
    for (const auto& c : b["coverage"]) {
      total += c["of"].get<size_t>();
      ran += c["runs"].get<size_t>();
      lines += "      " + c["arch"].get<std::string>() + ": " + std::to_string(c["runs"].get<size_t>()) + " of " +
               std::to_string(c["of"].get<size_t>()) + "\n";
      for (const auto& d : c["declines"])
        lines += "        not " + std::to_string(d["instructions"].get<size_t>()) + " (" + d["code"].get<std::string>() +
                 "): " + d["detail"].get<std::string>() + "\n";
    }
    if (ran == total) std::cout << "      every profile and instruction (" << total << ")\n";
    else std::cout << lines;
  }
}

// T5's catalogue: the names a tier file's `properties:` takes, each with its claim.
void print_properties() {
  std::cout << "\nProperties (T5, tiers/T5.yaml; a suite's `properties:` takes these names):\n";
  for (const props::Property& p : props::catalogue())
    std::cout << "  " << p.name << " (" << p.subject << "): " << p.statement << "\n";
}

// The decline codes: what `allowed_declines` entries name and reports' coverage carries.
void print_decline_codes() {
  std::cout << "\nDecline codes (a tier file's allowed_declines names these; reports carry them):\n";
  for (const DeclineCodeInfo& c : decline_codes()) std::cout << "  " << c.name << ": " << c.meaning << "\n";
}

void print_rest(const nlohmann::json& info) {
  std::cout << "\nLibrary profiles (mmaemu gemm --library, mmaemu resolve):\n";
  for (const auto& p : info["library_profiles"])
    std::cout << "  " << p["name"].get<std::string>() << "   " << p["library"].get<std::string>()
              << "\n      library builds: " << p["builds"].get<std::string>() << "\n";
  const auto& d = info["devices"];
  std::cout << "\nDevices: " << d["status"].get<std::string>() << "\n";
  for (const auto& x : d["devices"])
    std::cout << "  [" << x["index"].get<int>() << "] " << x["name"].get<std::string>() << "  sm_"
              << x["compute_capability"].get<std::string>() << "  " << x["sm_count"].get<int>() << " SMs\n";
  const auto& v = info["versions"];
  std::cout << "\nVersions:\n  compiler: " << v["compiler"].get<std::string>() << "\n  os: " << v["os"].get<std::string>()
            << "\n";
  if (v.contains("cuda_runtime"))
    std::cout << "  CUDA runtime: " << v["cuda_runtime"].get<std::string>()
              << "\n  CUDA driver API: " << v["cuda_driver"].get<std::string>()
              << "\n  cuBLASLt: " << v["cublaslt"].get<std::string>() << "\n";
}

}  // namespace

void add_info(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("info", "Profiles, instructions, backends, devices and versions");
  auto arch = std::make_shared<std::string>();
  auto verbose = std::make_shared<bool>(false);
  cmd->add_option("--arch", *arch, "Show one architecture profile only (sm70 ... sm120)");
  cmd->add_flag("--verbose", *verbose, "List every wgmma N, not only n8");
  cmd->callback([arch, verbose, &status] {
    const nlohmann::json info = api::info(arch->empty() ? std::nullopt : std::optional<std::string>(*arch), *verbose);
    std::cout << "mmaemu " << info["version"].get<std::string>() << "\n\n";
    print_profiles(info);
    print_backends(info);
    print_decline_codes();
    print_properties();
    print_rest(info);
    status = 0;
  });
}

}  // namespace mmaemu::cli
