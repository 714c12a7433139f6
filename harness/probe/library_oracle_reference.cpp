#include "harness/cublaslt/lt_model.hpp"
#include "harness/probe/library_oracle.hpp"

namespace mmaemu::probe {
namespace {

class ReferenceLibraryOracle final : public LibraryOracle {
 public:
  std::string describe() const override { return "the library model of cuBLASLt 13.1 on an H200 (a model, not hardware)"; }
  std::optional<std::vector<uint32_t>> run(const lt::LtCall& call, int algo_id, int split, int custom,
                                           const lt::LtOperands& ops, std::string* why, lt::LtAlgoConfig* ran) override {
    lt::LtAlgoConfig config;
    config.algo_id = algo_id;
    config.split_k = split;
    config.custom = custom;
    if (ran) *ran = config;
    try {
      return lt::model_d(call, config, ops);
    } catch (const std::invalid_argument& e) {
      if (why) *why = e.what();
      return std::nullopt;
    }
  }
};

}  // namespace

std::unique_ptr<LibraryOracle> reference_library_oracle() { return std::make_unique<ReferenceLibraryOracle>(); }

#ifndef MMAEMU_PROBE_HAVE_CUDA
std::unique_ptr<LibraryOracle> live_library_oracle(int, std::string* why) {
  if (why) *why = "this mmaemu was built without CUDA";
  return nullptr;
}
#endif

}  // namespace mmaemu::probe
