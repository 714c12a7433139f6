// What `mmaemu probe --cublaslt` asks: D of a library call run with one algorithm at a chosen split-K,
// from cuBLASLt on this GPU or, for tests and dry runs, from the library model.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::probe {

class LibraryOracle {
 public:
  virtual ~LibraryOracle() = default;
  virtual std::string describe() const = 0;
  // D[M][N] of `call` run with algorithm `algo_id` at split-K `split` and custom option `custom`; nullopt
  // with *why when the library offers no such configuration for the call, or refuses it. *ran receives
  // the configuration that ran.
  virtual std::optional<std::vector<uint32_t>> run(const lt::LtCall& call, int algo_id, int split, int custom,
                                                   const lt::LtOperands& ops, std::string* why, lt::LtAlgoConfig* ran) = 0;
};

// The library model (reference/library_gemm) as installed.
std::unique_ptr<LibraryOracle> reference_library_oracle();
// cuBLASLt on `device`; nullptr with *why without a GPU or CUDA.
std::unique_ptr<LibraryOracle> live_library_oracle(int device, std::string* why);

}  // namespace mmaemu::probe
