// `mmaemu gemm --library cublaslt-h200`: one cuBLASLt matmul as the library model computes it
// (reference/library_gemm.hpp), from .npy operands in mmaemu's row-major contract:
//   A [M, K] in --a-type, B [K, N] in --b-type, C [M, N] in --d-type -> D [M, N] in --d-type
// cuBLASLt's column-major TN call with lda = ldb = K and ldc = ldd = M reads the same A bytes, B and C
// transposed, and writes D transposed (harness/cublaslt/lt_call.hpp). The algorithm configuration is
// `--algo FILE` (a JSON object as in a recording's "config") or `--algo auto`: the heuristic's choice
// recorded on the H200 for this call (the resolver table), an error when the table lacks the call.
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

ref::FormatId format_option(const std::string& name, const char* option) {
  const auto f = ref::parse_format(name);
  if (!f) throw InputError(option, "unknown format '" + name + "'");
  return *f;
}

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
  if (args.library != "cublaslt-h200")
    throw InputError("--library", "unknown library profile '" + args.library + "' (cublaslt-h200)");
  lt::LtCall call;
  call.a = format_option(args.a_type, "--a-type");
  call.b = format_option(args.b_type, "--b-type");
  call.c = call.d = format_option(args.d_type, "--d-type");
  call.compute = call.a == ref::FormatId::tf32 ? lt::ComputeType::f32_fast_tf32 : lt::ComputeType::f32;
  call.alpha = args.alpha;
  call.beta = args.beta;
  call.scale_a = args.scale_a;
  call.scale_b = args.scale_b;
  call.fast_accum = args.fast_accum;
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
    const lt::Recording table = lt::read_recording(args.resolver);
    const auto found = lt::resolve(table, call);
    if (!found)
      throw InputError(args.resolver, "the resolver table has no " + call.name() +
                                          "; give the configuration the library reported with --algo FILE");
    algo = *found;
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
