// `mmaemu mma`: one instruction over T tiles, from .npy operands, per the contract in DESIGN.md.
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/scale_operands.hpp"
#include "harness/cli/commands.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"
#include "harness/cli/run_backend.hpp"

namespace mmaemu::cli {
namespace {

struct MmaArgs {
  std::string arch, instr, a, b, c, out, backend = "reference";
  ScaleFiles scales;
};

int run_mma(const MmaArgs& args) {
  const auto arch = ref::parse_arch(args.arch);
  if (!arch) throw InputError("--arch", "unknown architecture '" + args.arch + "' (sm70, sm75, sm80, sm86, sm89, sm90, sm100, sm120)");
  const ref::InstructionModel& model = ref::lookup(*arch, args.instr);  // exit 2 when absent
  const NpyArray A = read_npy(args.a), B = read_npy(args.b), C = read_npy(args.c);
  const size_t tiles = check_operands(model.instr, A, args.a, B, args.b, C, args.c);
  const size_t M = static_cast<size_t>(model.instr.m), N = static_cast<size_t>(model.instr.n),
               K = static_cast<size_t>(model.instr.k);
  NpyArray SA, SB;
  read_scale_operands(model.instr, args.scales, {tiles, M, N, K}, true, SA, SB);
  NpyArray D;
  D.word_bytes = storage_bytes(model.instr.d);
  D.shape = {tiles, M, N};
  D.values.resize(D.word_count());
  // One instruction over T tiles is a GEMM with batch = T and the instruction's M, N, K.
  const kernels::GemmShape shape{tiles, M, N, K};
  run_on_backend(args.backend, {&model, shape, A.values.data(), B.values.data(), C.values.data(), D.values.data(),
                                nullptr, SA.values.empty() ? nullptr : SA.values.data(),
                                SB.values.empty() ? nullptr : SB.values.data()});
  write_npy(args.out, D);
  return kExitOk;
}

}  // namespace

void add_mma(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("mma", "Compute D = A*B + C for one instruction, as an architecture does");
  auto args = std::make_shared<MmaArgs>();
  cmd->add_option("--arch", args->arch, "Architecture profile: sm70 sm75 sm80 sm86 sm89 sm90 sm100 sm120")->required();
  cmd->add_option("--instr", args->instr, "Instruction in PTX spelling, e.g. mma.m16n8k16.f32.bf16.bf16.f32")->required();
  cmd->add_option("--a", args->a, "A.npy [T,M,K] raw bits")->required();
  cmd->add_option("--b", args->b, "B.npy [T,K,N] raw bits")->required();
  cmd->add_option("--c", args->c, "C.npy [T,M,N] raw bits")->required();
  cmd->add_option("--out", args->out, "D.npy [T,M,N] to write")->required();
  cmd->add_option("--scale-a", args->scales.a, "Block-scaled instructions: SA.npy [T,M,K/block] uint8 (ue8m0, ue4m3)");
  cmd->add_option("--scale-b", args->scales.b, "Block-scaled instructions: SB.npy [T,K/block,N] uint8");
  cmd->add_option("--backend", args->backend, "reference (default), a backend name (see mmaemu info), or auto: the fastest that can run it");
  cmd->callback([args, &status] { status = run_mma(*args); });
}

}  // namespace mmaemu::cli
