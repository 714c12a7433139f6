// Test-only backends for the kernel tiers: the host backend, spoilt in one precise way, so that the
// tests can prove the suites catch what they must (a flipped bit, an unwritten output, a decline, a failure).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernels/backend.hpp"
#include "kernels/registry.hpp"

namespace mmaemu::testing {

class FakeBackend final : public kernels::Backend {
 public:
  enum class Spoil { none, flip_bit, leave_unwritten, flip_trace, fail };

  FakeBackend(std::string name, Spoil spoil, std::string declines_arch = "")
      : name_(std::move(name)), spoil_(spoil), declines_arch_(std::move(declines_arch)) {}

  std::string name() const override { return name_; }
  std::string description() const override { return "test fake over the host backend"; }
  // Declines on `declines_arch` with this code and detail text (default: foreign-target, "<name>: no
  // <arch> here"), so that tests can reword the text and change the code independently.
  FakeBackend& declining_with(DeclineCode code, std::string detail) {
    code_ = code;
    detail_ = std::move(detail);
    return *this;
  }
  Declined declines(const ref::InstructionModel& m, const kernels::GemmShape&, bool) const override {
    if (ref::arch_name(m.arch) != declines_arch_) return std::nullopt;
    return decline(code_, detail_.empty() ? name_ + ": no " + declines_arch_ + " here" : detail_);
  }
  // Output 5 (or trace entry 5) of every run is spoilt; the CPU backends get rows in slices, so only
  // slices that hold that output are touched. Runs are whole problems here (the name is not "host").
  kernels::RunInfo run(const kernels::GemmProblem& p) const override {
    if (spoil_ == Spoil::fail) throw kernels::KernelError("fake: kernel execution: an illegal memory access was encountered");
    const size_t n = kernels::c_count(p.shape), w = ref::words_per_element(p.model->instr.d);  // fp64: 2 words
    std::vector<uint32_t> d(n * w);
    std::vector<uint32_t> trace(p.trace ? n * w * ref::gemm_steps(*p.model, p.shape.K) : 0);
    kernels::GemmProblem q = p;
    q.D = d.data();
    q.trace = p.trace ? trace.data() : nullptr;
    kernels::host_backend().run(q);
    const size_t spoilt = std::min<size_t>(5, n - 1);
    for (size_t i = 0; i < n * w; ++i)
      if (!(spoil_ == Spoil::leave_unwritten && i / w == spoilt)) p.D[i] = d[i];
    if (spoil_ == Spoil::flip_bit) p.D[spoilt * w] ^= 1u;
    if (p.trace) {
      std::copy(trace.begin(), trace.end(), p.trace);
      if (spoil_ == Spoil::flip_trace) p.trace[std::min<size_t>(5, trace.size() - 1)] ^= 0x8000u;
    }
    return {name_, 0};
  }

 private:
  std::string name_;
  Spoil spoil_;
  std::string declines_arch_;
  DeclineCode code_ = DeclineCode::foreign_target;
  std::string detail_;
};

}  // namespace mmaemu::testing
