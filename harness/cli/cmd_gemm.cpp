// `mmaemu gemm`: D = A*B + C for any M, N, K, as an architecture's MMA loop computes it (the
// instruction applied step by step along K, K padded with zeros to a multiple of the instruction's K),
// on a chosen backend. Layouts (raw bits, C order, dtype by format as for `mmaemu mma`):
//   A [M, K] or [batch, M, K];  B [K, N] or [batch, K, N];  C, D [M, N] or [batch, M, N];
//   trace (optional) [M, N, steps] or [batch, M, N, steps], steps = ceil(K / instruction K): the
//   accumulator after every step, in D's format.
#include <memory>
#include <string>

#include "harness/api/compute.hpp"
#include "harness/cli/cmd_gemm_library.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/operand_files.hpp"
#include "harness/cli/library_call_options.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/scale_operands.hpp"

namespace mmaemu::cli {
namespace {

struct GemmArgs : InstructionFiles {
  std::string out, trace;
};

int run_gemm(const GemmArgs& args) {
  api::ComputeRequest r = read_compute_request(args);
  r.trace = !args.trace.empty();
  const api::ComputeResult out = api::gemm(r);
  std::cerr << api::describe_run(out.run);
  write_npy(args.out, out.d);
  if (r.trace) write_npy(args.trace, out.trace);
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
