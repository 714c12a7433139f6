// The GPU as the probe's oracle: the recorder's single-instruction kernels (harness/record), each
// batch run twice with different poison in D, so that an output the kernel leaves unwritten or a
// result that changes between runs is an error and never evidence.
#include "harness/probe/oracle.hpp"

#include <stdexcept>

#include "harness/record/gpu_run.hpp"
#include "harness/record/provenance.hpp"

namespace mmaemu::probe {
namespace {

class GpuOracle final : public Oracle {
 public:
  GpuOracle(record::GpuDevice dev, ref::Arch arch, std::string description)
      : dev_(std::move(dev)), arch_(arch), description_(std::move(description)) {}
  std::string describe() const override { return description_; }
  ref::Arch arch() const override { return arch_; }
  bool has(const std::string& instr, std::string* why) const override {
    std::string reason;  // the recorder's check always says why
    const bool ok = record::device_has_instruction(dev_, instr, &reason);
    if (why) *why = reason;
    return ok;
  }
  record::Provenance provenance(const std::string& command) const override {
    return record::collect_provenance(dev_.index, command, "");
  }
  std::vector<uint32_t> run(const record::InstructionRecording& t) override {
    std::vector<uint32_t> first, second;
    for (auto [poison, out] : {std::pair{uint8_t{0xA5}, &first}, {uint8_t{0x5A}, &second}})
      if (std::string err = record::run_on_gpu(t, poison, *out); !err.empty())
        throw std::runtime_error(t.instr.name + " on " + dev_.name + ": " + err);
    if (first != second)
      throw std::runtime_error(t.instr.name + " on " + dev_.name +
                               ": two runs of the same inputs differ (an output left unwritten, or not deterministic)");
    return first;
  }

 private:
  record::GpuDevice dev_;
  ref::Arch arch_;
  std::string description_;
};

}  // namespace

std::unique_ptr<Oracle> gpu_oracle(int device, std::string* why) {
  const auto dev = record::open_device(device, why);
  if (!dev) return nullptr;
  const auto arch = ref::parse_arch("sm" + std::to_string(dev->cc()));
  if (!arch) {
    if (why) *why = dev->name + " is sm_" + std::to_string(dev->cc()) + ", an architecture mmaemu has no name for";
    return nullptr;
  }
  const record::Provenance p = record::collect_provenance(device, "mmaemu probe", "");
  std::string text = dev->name + " (sm_" + std::to_string(dev->cc()) + ")";
  for (const char* key : {"driver", "cuda_runtime"})
    if (const std::string v = p.get(key); !v.empty()) text += ", " + std::string(key) + " " + v;
  return std::make_unique<GpuOracle>(*dev, *arch, text);
}

}  // namespace mmaemu::probe
