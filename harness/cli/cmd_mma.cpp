// `mmaemu mma`: one instruction over T tiles, from .npy operands, per the contract in DESIGN.md.
#include <iostream>

#include "harness/api/compute.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cli/operand_files.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/scale_operands.hpp"

namespace mmaemu::cli {
namespace {

struct MmaArgs : InstructionFiles {
  std::string out;
};

int run_mma(const MmaArgs& args) {
  const api::ComputeResult out = api::mma(read_compute_request(args));
  std::cerr << api::describe_run(out.run);
  write_npy(args.out, out.d);
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
