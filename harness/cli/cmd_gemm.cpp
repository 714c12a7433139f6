// `mmaemu gemm`: D = A*B + C for any M, N, K, as an architecture's MMA loop computes it (the
// instruction applied step by step along K, K padded with zeros to a multiple of the instruction's K),
// on a chosen backend. Layouts (raw bits, C order, dtype by format as for `mmaemu mma`):
//   A [M, K] or [batch, M, K];  B [K, N] or [batch, K, N];  C, D [M, N] or [batch, M, N];
//   trace (optional) [M, N, steps] or [batch, M, N, steps], steps = ceil(K / instruction K): the
//   accumulator after every step, in D's format.
#include <cmath>
#include <memory>
#include <string>

#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/scale_operands.hpp"
#include "harness/cli/cmd_gemm_library.hpp"
#include "harness/cli/commands.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/cli/run_backend.hpp"

namespace mmaemu::cli {
namespace {

struct GemmArgs {
  std::string arch, instr, a, b, c, out, trace, backend = "reference";
  ScaleFiles scales;  // block-scaled instructions
};

const char* dtype_of(ref::FormatId f) {
  const int bytes = storage_bytes(f);
  return bytes == 1 ? "uint8" : bytes == 2 ? "uint16" : bytes == 8 ? "uint64" : "uint32";
}

// One operand's [rows, cols] (rank 2) or [batch, rows, cols] (rank 3), and its dtype.
struct Matrix {
  size_t batch, rows, cols;
  bool batched;
};

Matrix check_matrix(const NpyArray& arr, const std::string& file, char role, const char* dims, ref::FormatId f,
                    const std::string& instr) {
  if (arr.shape.size() != 2 && arr.shape.size() != 3)
    throw InputError(file, std::string(1, role) + " has shape " + arr.shape_string() + "; mmaemu gemm needs " + dims);
  if (arr.word_bytes != storage_bytes(f))
    throw InputError(file, std::string(1, role) + " has dtype " + arr.dtype_name() + "; " + instr + " reads " +
                               std::string(1, role) + " as " + std::string(ref::format_name(f)) + ", stored as " +
                               dtype_of(f));
  const bool batched = arr.shape.size() == 3;
  const size_t off = batched ? 1 : 0;
  return {batched ? arr.shape[0] : 1, arr.shape[off], arr.shape[off + 1], batched};
}

int run_gemm(const GemmArgs& args) {
  if (args.arch.empty() || args.instr.empty())
    throw InputError(args.arch.empty() ? "--arch" : "--instr",
                     "mmaemu gemm needs --arch and --instr (or --library for a library call)");
  const auto arch = ref::parse_arch(args.arch);
  if (!arch) throw InputError("--arch", "unknown architecture '" + args.arch + "' (sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120)");
  const ref::InstructionModel& model = ref::lookup(*arch, args.instr);  // exit 2 when absent
  const ref::Instruction& in = model.instr;
  const NpyArray A = read_npy(args.a), B = read_npy(args.b), C = read_npy(args.c);
  const Matrix a = check_matrix(A, args.a, 'A', "[M, K] or [batch, M, K]", in.a, in.name);
  const Matrix b = check_matrix(B, args.b, 'B', "[K, N] or [batch, K, N]", in.b, in.name);
  const Matrix c = check_matrix(C, args.c, 'C', "[M, N] or [batch, M, N]", in.c, in.name);
  if (b.batched != a.batched || b.batch != a.batch)
    throw InputError(args.b, "B has shape " + B.shape_string() + " but A (" + args.a + ") has " + A.shape_string() +
                                 ": both [.., K] with the same batch, or neither batched");
  if (c.batched != a.batched || c.batch != a.batch)
    throw InputError(args.c, "C has shape " + C.shape_string() + " but A (" + args.a + ") has " + A.shape_string() +
                                 ": both with the same batch, or neither batched");
  if (b.rows != a.cols)
    throw InputError(args.b, "B has K = " + std::to_string(b.rows) + " rows but A (" + args.a + ") has K = " +
                                 std::to_string(a.cols) + " columns");
  if (c.rows != a.rows || c.cols != b.cols)
    throw InputError(args.c, "C has shape " + C.shape_string() + "; A and B make D [" + std::to_string(a.rows) + ", " +
                                 std::to_string(b.cols) + "]");
  if (a.batch == 0 || a.rows == 0 || b.cols == 0)
    throw InputError(args.a, "the GEMM is empty (batch, M and N must be at least 1)");

  const kernels::GemmShape shape{a.batch, a.rows, b.cols, a.cols};
  NpyArray SA, SB;
  read_scale_operands(in, args.scales, {shape.batch, shape.M, shape.N, shape.K}, a.batched, SA, SB);
  NpyArray D;
  D.word_bytes = storage_bytes(in.d);
  D.shape = C.shape;
  D.values.resize(D.word_count());
  NpyArray T;
  if (!args.trace.empty()) {
    T.word_bytes = D.word_bytes;
    T.shape = C.shape;
    T.shape.push_back(ref::gemm_steps(model, shape.K));
    T.values.resize(T.word_count());
  }
  run_on_backend(args.backend, {&model, shape, A.values.data(), B.values.data(), C.values.data(), D.values.data(),
                                args.trace.empty() ? nullptr : T.values.data(),
                                SA.values.empty() ? nullptr : SA.values.data(), SB.values.empty() ? nullptr : SB.values.data()});
  write_npy(args.out, D);
  if (!args.trace.empty()) write_npy(args.trace, T);
  return kExitOk;
}

}  // namespace

void add_gemm(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("gemm", "Compute D = A*B + C for any M, N, K, as an architecture's MMA loop does "
                                         "(or, with --library, as a library call does)");
  auto args = std::make_shared<GemmArgs>();
  auto lib = std::make_shared<LibraryGemmArgs>();
  cmd->add_option("--arch", args->arch, "Architecture profile: sm70 sm75 sm80 sm86 sm89 sm90 sm100 sm120");
  cmd->add_option("--instr", args->instr, "Instruction each step runs, e.g. mma.m16n8k16.f32.bf16.bf16.f32");
  cmd->add_option("--a", args->a, "A.npy [M,K] or [batch,M,K] raw bits")->required();
  cmd->add_option("--b", args->b, "B.npy [K,N] or [batch,K,N] raw bits")->required();
  cmd->add_option("--c", args->c, "C.npy [M,N] or [batch,M,N] raw bits")->required();
  cmd->add_option("--out", args->out, "D.npy to write, shaped as C")->required();
  cmd->add_option("--trace", args->trace, "TRACE.npy to write: the accumulator after every step, [..., M, N, steps]");
  cmd->add_option("--backend", args->backend,
                  "reference (default), a backend name (see mmaemu info), or auto; with --library: reference, host "
                  "or cuda (the kernels' library GEMM)");
  // A library call (see cmd_gemm_library.cpp): D = alpha * scale_a * scale_b * A x B + beta * C.
  auto* library = cmd->add_option("--library", lib->call.library, "Library profile of the call: cublaslt-h200");
  add_library_call_options(cmd, lib->call, library);
  // --scale-a/--scale-b: a block-scaled instruction's scale operands (files), or a library call's
  // per-tensor scale factors (numbers).
  auto scale_a = std::make_shared<std::string>(), scale_b = std::make_shared<std::string>();
  cmd->add_option("--scale-a", *scale_a,
                  "Block-scaled --instr: SA.npy [M,S] or [batch,M,S] uint8, S = ceil(K/block); with --library, FP8: A's "
                  "scale factor (a number)");
  cmd->add_option("--scale-b", *scale_b,
                  "Block-scaled --instr: SB.npy [S,N] or [batch,S,N] uint8; with --library, FP8: B's "
                  "scale factor");
  cmd->add_option("--algo", lib->algo, "With --library: auto (the configuration the profile's resolver picks) or a "
                                       "JSON file")->needs(library);
  cmd->callback([args, lib, scale_a, scale_b, &status] {
    if (lib->call.library.empty()) {
      args->scales = {*scale_a, *scale_b};
      status = run_gemm(*args);
      return;
    }
    lib->call.scale_a = *scale_a;
    lib->call.scale_b = *scale_b;
    lib->a = args->a;
    lib->b = args->b;
    lib->c = args->c;
    lib->out = args->out;
    lib->engine = args->backend;
    status = run_library_gemm(*lib);
  });
}

}  // namespace mmaemu::cli
