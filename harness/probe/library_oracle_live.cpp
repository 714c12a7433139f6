// cuBLASLt as the library probe's oracle: the heuristic's algorithms for the call, the one asked for,
// with its split-K count and custom option set (lt::LtSession::with_split), run on the operands.
#include <stdexcept>

#include "harness/cublaslt/lt_live.hpp"
#include "harness/probe/library_oracle.hpp"
#include "harness/record/gpu_run.hpp"

namespace mmaemu::probe {
namespace {

class LiveLibraryOracle final : public LibraryOracle {
 public:
  LiveLibraryOracle(int device, std::string name) : session_(device), name_(std::move(name)) {}
  std::string describe() const override { return "cuBLASLt " + session_.library_version() + " on " + name_; }
  std::optional<std::vector<uint32_t>> run(const lt::LtCall& call, int algo_id, int split, int custom,
                                           const lt::LtOperands& ops, std::string* why, lt::LtAlgoConfig* ran) override {
    std::string reason;
    // The heuristic ranks algorithms per shape: where it does not offer this one for the probe's small
    // shape, the configuration it offers for a larger call of the same types is tried on this one.
    std::vector<lt::LtChoice> choices;
    for (size_t mn : {size_t{0}, size_t{256}, size_t{1024}, size_t{4096}}) {
      lt::LtCall asked = call;
      if (mn) asked.M = asked.N = mn;
      for (auto& c : session_.heuristic(asked, 64, &reason))
        if (c.config.algo_id == algo_id) choices.push_back(std::move(c));
    }
    for (const auto& c : choices) {
      if (c.config.algo_id != algo_id) continue;
      const lt::LtChoice chosen = session_.with_split(c, split, custom);
      if (chosen.config.split_k != split) continue;
      const lt::LtOutcome out = session_.run(call, chosen, ops);
      if (out.rejected) {
        reason = *out.rejected;
        continue;
      }
      if (ran) *ran = chosen.config;
      return out.d;
    }
    if (why) *why = "the heuristic offers no algorithm " + std::to_string(algo_id) + " at split-K " + std::to_string(split) +
                    " for " + call.name() + (reason.empty() ? "" : " (" + reason + ")");
    return std::nullopt;
  }

 private:
  lt::LtSession session_;
  std::string name_;
};

}  // namespace

std::unique_ptr<LibraryOracle> live_library_oracle(int device, std::string* why) {
  const auto dev = record::open_device(device, why);
  if (!dev) return nullptr;
  return std::make_unique<LiveLibraryOracle>(device, dev->name);
}

}  // namespace mmaemu::probe
