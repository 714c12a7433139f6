// `mmaemu gemm --library cublaslt-h200`: one cuBLASLt matmul as the library model computes it
// (reference/library_gemm.hpp), from .npy operands in mmaemu's row-major contract:
//   A [M, K] in --a-type, B [K, N] in --b-type, C [M, N] in --d-type -> D [M, N] in --d-type
// cuBLASLt's column-major TN call with lda = ldb = K and ldc = ldd = M reads the same A bytes, B and C
// transposed, and writes D transposed (harness/cublaslt/lt_call.hpp). The algorithm configuration is
// `--algo FILE` (a JSON object as in a recording's "config") or `--algo auto`: the configuration the
// profile's resolver (harness/cublaslt/lt_resolver.hpp) says the heuristic picks for this call, given
// the layout the library sees (--layout) and the workspace limit (--workspace). The operands are in
// the library's view whatever the layout: A' [M][K], B' [K][N] (for a PyTorch call, A' = W^T, B' = X^T,
// C' = C^T, and D' = D^T: harness/api/library_call.hpp).
#include "harness/api/library.hpp"
#include "harness/cli/cmd_gemm_library.hpp"
#include "harness/cli/operand_files.hpp"
#include "harness/core/errors.hpp"

namespace mmaemu::cli {

int run_library_gemm(const LibraryGemmArgs& args) {
  api::describe_library_call(args.call, 0, 0, 0);  // the options' errors before any file is read
  api::LibraryRequest r;
  r.call = args.call;
  r.engine = args.engine;
  if (args.algo != "auto") r.config = lt::read_algo_config(args.algo);
  r.a = operand_file(args.a);
  r.b = operand_file(args.b);
  r.c = operand_file(args.c);
  write_npy(args.out, api::library_gemm(r));
  return kExitOk;
}

}  // namespace mmaemu::cli
