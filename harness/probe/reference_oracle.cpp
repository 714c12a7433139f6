// The reference model as the probe's oracle: how the probe is tested without a GPU (it must infer each
// built-in profile back from the model's outputs alone), and a dry run of a profile file.
#include "harness/probe/oracle.hpp"

namespace mmaemu::probe {
namespace {

class ReferenceOracle final : public Oracle {
 public:
  explicit ReferenceOracle(ref::Arch arch) : arch_(arch) {}
  std::string describe() const override {
    const std::string origin = ref::profile_origin(arch_);
    return "reference model of " + std::string(ref::arch_name(arch_)) +
           (origin.empty() ? " (built-in profile)" : " (profile " + origin + ")") + ": a model, not hardware";
  }
  ref::Arch arch() const override { return arch_; }
  bool has(const std::string& instr, std::string* why) const override {
    try {
      ref::lookup(arch_, instr);
      return true;
    } catch (const std::exception& e) {
      if (why) *why = e.what();
      return false;
    }
  }
  record::Provenance provenance(const std::string& command) const override {
    record::Provenance p;
    p.set("date_utc", record::utc_now_iso8601());
    p.set("command", command);
    p.set("commit", record::build_commit());
    p.set("host", record::host_name());
    p.set("oracle", describe());
    return p;
  }
  std::vector<uint32_t> run(const record::InstructionRecording& t) override {
    const ref::InstructionModel& m = ref::lookup(arch_, t.instr.name);
    std::vector<uint32_t> d(t.outputs() * ref::words_per_element(t.instr.d));
    ref::mma(m, static_cast<size_t>(t.tiles), t.a.data(), t.b.data(), t.c.data(), d.data(),
             t.sa.empty() ? nullptr : t.sa.data(), t.sb.empty() ? nullptr : t.sb.data());
    return d;
  }

 private:
  ref::Arch arch_;
};

}  // namespace

std::unique_ptr<Oracle> reference_oracle(ref::Arch arch) { return std::make_unique<ReferenceOracle>(arch); }

#ifndef MMAEMU_PROBE_HAVE_CUDA
std::unique_ptr<Oracle> gpu_oracle(int, std::string* why) {
  if (why) *why = "this mmaemu was built without CUDA";
  return nullptr;
}
#endif

}  // namespace mmaemu::probe
