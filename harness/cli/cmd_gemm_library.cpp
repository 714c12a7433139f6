// `mmaemu gemm --library cublaslt-h200`: one cuBLASLt matmul as the library model computes it
// (reference/library_gemm.hpp), from .npy operands in mmaemu's row-major contract:
//   A [M, K] in --a-type, B [K, N] in --b-type, C [M, N] in --d-type -> D [M, N] in --d-type
// cuBLASLt's column-major TN call with lda = ldb = K and ldc = ldd = M reads the same A bytes, B and C
// transposed, and writes D transposed (harness/cublaslt/lt_call.hpp). The algorithm configuration is
// `--algo FILE` (a JSON object as in a recording's "config") or `--algo auto`: the configuration the
// profile's resolver (harness/cublaslt/lt_resolver.hpp) says the heuristic picks for this call, given
// the layout the library sees (--layout) and the workspace limit (--workspace). The operands are in
// the library's view whatever the layout: A' [M][K], B' [K][N] (for a PyTorch call, A' = W^T, B' = X^T,
// C' = C^T, and D' = D^T: harness/cli/library_call.hpp).
#include <fstream>
#include <nlohmann/json.hpp>

#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/operands.hpp"
#include "harness/cli/cmd_gemm_library.hpp"
#include "harness/cublaslt/lt_model.hpp"
#include "harness/cublaslt/lt_resolver.hpp"

namespace mmaemu::cli {
namespace {

std::vector<uint32_t> read_matrix(const std::string& file, char role, ref::FormatId f, size_t rows, size_t cols) {
  NpyArray a = read_npy(file);
  if (a.word_bytes != storage_bytes(f) || a.shape.size() != 2 || (rows && a.shape[0] != rows) ||
      (cols && a.shape[1] != cols))
    throw InputError(file, std::string(1, role) + " has " + a.dtype_name() + " " + a.shape_string() + "; expected " +
                               std::string(ref::format_name(f)) + " [" + (rows ? std::to_string(rows) : "rows") +
                               ", " + (cols ? std::to_string(cols) : "cols") + "]");
  return std::move(a.values);
}

}  // namespace

int run_library_gemm(const LibraryGemmArgs& args) {
  lt::LtCall call = describe_library_call(args.call, 0, 0, 0);  // checks the options before reading files
  lt::LtOperands ops;
  ops.a = read_matrix(args.a, 'A', call.a, 0, 0);
  const NpyArray a_shape = read_npy(args.a);
  call.M = a_shape.shape[0];
  call.K = a_shape.shape[1];
  ops.b = read_matrix(args.b, 'B', call.b, call.K, 0);
  call.N = read_npy(args.b).shape[1];
  ops.c = read_matrix(args.c, 'C', call.c, call.M, call.N);
  if (const auto why = ref::library_refuses(lt::library_call(call)))
    throw InputError("", "cuBLASLt refuses this call on the H200: " + *why);

  lt::LtAlgoConfig algo;
  if (args.algo == "auto") {
    const lt::Resolution r = lt::Resolver::load(args.call.resolver).resolve(call);
    if (!r.config)
      throw InputError("--algo auto", "the resolver (" + args.call.resolver + ") says cuBLASLt refuses " + call.name() +
                                          " (" + r.refused + "); the library model runs it: give a configuration with --algo FILE");
    if (const auto why = ref::model_declines(lt::library_algo(*r.config)))
      throw InputError("--algo auto", "the heuristic picks " + r.config->describe() + " for " + call.name() + ": " + *why);
    algo = *r.config;
  } else {
    algo = lt::read_algo_config(args.algo);
  }
  NpyArray D;
  D.word_bytes = storage_bytes(call.d);
  D.shape = {call.M, call.N};
  const auto engine = kernels::parse_library_engine(args.engine);
  if (!engine) throw InputError("--backend", "a library call runs on reference, host or cuda, not '" + args.engine + "'");
  D.values = lt::model_d(call, algo, ops, *engine);
  write_npy(args.out, D);
  return kExitOk;
}

}  // namespace mmaemu::cli
