// `mmaemu gemm --library ...`: a library call (cuBLASLt on the H200) through the library model.
#pragma once
#include <string>

#include "harness/api/library_call.hpp"

namespace mmaemu::cli {

struct LibraryGemmArgs {
  api::LibraryCallOptions call;  // the profile, types, scalars, layout, workspace limit, resolver
  std::string a, b, c, out;
  std::string algo = "auto";  // "auto" (the profile's resolver) or a JSON file
  std::string engine = "reference";  // --backend: reference, host or cuda (kernels::LibraryEngine)
};

int run_library_gemm(const LibraryGemmArgs& args);

}  // namespace mmaemu::cli
