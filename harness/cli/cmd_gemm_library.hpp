// `mmaemu gemm --library ...`: a library call (cuBLASLt on the H200) through the library model.
#pragma once
#include <string>

namespace mmaemu::cli {

struct LibraryGemmArgs {
  std::string library;  // "cublaslt-h200"
  std::string a, b, c, out;
  std::string a_type, b_type, d_type;
  float alpha = 1.0f, beta = 0.0f, scale_a = 1.0f, scale_b = 1.0f;
  bool fast_accum = false;
  std::string algo = "auto";  // "auto" or a JSON file
  std::string resolver;       // the recording holding the heuristic's choices
  std::string engine = "reference";  // --backend: reference, host or cuda (kernels::LibraryEngine)
};

int run_library_gemm(const LibraryGemmArgs& args);

}  // namespace mmaemu::cli
