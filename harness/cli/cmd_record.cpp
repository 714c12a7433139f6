// `mmaemu record`: records single-instruction results on this machine's GPU as a fixture set.
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "harness/core/errors.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/cli/commands.hpp"
#include "harness/cublaslt/lt_inputs.hpp"
#include "harness/record/input_writer.hpp"
#include "mmaemu/reference/model.hpp"
#ifdef MMAEMU_HAVE_CUDA
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/cublaslt/lt_record.hpp"
#include "harness/record/recorder.hpp"
#endif

namespace mmaemu::cli {

namespace {

// The options' values. CLI11 keeps references to them until parsing ends, so they live on the heap
// and the callback captures them by name: without CUDA its body uses none of them, and an implicit
// capture would then keep none alive (a use after free while parsing).
struct RecordArgs {
  std::string out;
  uint64_t seed = 1;
  int tiles = 0;
  std::vector<std::string> instrs;
  int device = 0;
  std::string commit;
  std::string lt_plan;
  size_t store_up_to = 0;
  std::vector<size_t> calls;  // --call: with --cublaslt --inputs-only, these calls alone
  bool inputs_only = false;
  std::string arch;
};

// --inputs-only: the planned inputs of every instruction given (every one of --arch at N = 8 without --instr),
// written for a model to compute D from; no GPU.
int write_inputs_only(const RecordArgs& a) {
  if (a.arch.empty()) throw InputError("--inputs-only", "needs --arch: the profile whose instructions' inputs to write");
  const auto arch = ref::parse_arch(a.arch);
  if (!arch) throw InputError("--arch", "unknown architecture '" + a.arch + "'");
  std::vector<std::string> names = a.instrs;
  if (names.empty())
    for (const auto& m : ref::instructions_of(*arch))
      if (!ref::is_wide_n_variant(m.instr)) names.push_back(m.instr.name);
  std::vector<record::InstructionRecording> recs;
  std::string command = "mmaemu record --inputs-only --arch " + a.arch + " --out " + a.out + " --seed " + std::to_string(a.seed);
  if (a.tiles) command += " --tiles-per-family " + std::to_string(a.tiles);
  for (const std::string& name : names) {
    const ref::Instruction& in = ref::lookup(*arch, name).instr;  // exit 2 when absent
    recs.push_back(record::plan_recording(in, a.seed, a.tiles ? a.tiles : record::default_tiles_per_family(in)));
    if (!a.instrs.empty()) command += " --instr " + name;
  }
  const ReportLock lock(a.out, "mmaemu");
  record::write_recording_inputs(a.out, std::string(ref::arch_name(*arch)), a.seed, command, recs);
  std::cout << "wrote the inputs of " << recs.size() << " instructions to " << a.out << "\n";
  return kExitOk;
}

}  // namespace

void add_record(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("record", "Record fixtures on this machine's GPU (needs CUDA and a GPU)");
  auto args = std::make_shared<RecordArgs>();
  cmd->add_option("--out", args->out, "Fixture set directory to write")->required();
  cmd->add_option("--seed", args->seed, "Seed of the input generators");
  cmd->add_option("--tiles-per-family", args->tiles, "Tiles per input family (0: at least 50,000 outputs per instruction)");
  cmd->add_option("--instr", args->instrs, "Record only these instructions (repeatable)");
  cmd->add_option("--device", args->device, "CUDA device index");
  cmd->add_option("--cublaslt", args->lt_plan, "Record cuBLASLt matmul calls as this plan (YAML) lists them, instead of instructions")
      ->check(CLI::ExistingFile);
  cmd->add_option("--store-operands-up-to", args->store_up_to,
                  "With --cublaslt: store the operands of calls whose A, B and C hold at most this many elements");
  cmd->add_option("--commit", args->commit, "Commit to record in the manifest (default: the one this binary was built from)");
  cmd->add_flag("--inputs-only", args->inputs_only,
                "Write the planned inputs (a, b, c; scales) and inputs.json only, for a model to compute D; no GPU "
                "(with --cublaslt: the calls' operands and recording.json, for a client of the library to run them)");
  cmd->add_option("--call", args->calls, "With --cublaslt and --inputs-only: this call of the plan only (its index; "
                                        "repeatable)");
  cmd->add_option("--arch", args->arch, "With --inputs-only: the profile (every instruction at N = 8, "
                                        "unless --instr names some)");
  cmd->callback([args, &status] {
    if (args->inputs_only && !args->lt_plan.empty()) {
      const ReportLock lock(args->out, "mmaemu");
      const size_t n = lt::write_cublaslt_inputs(args->lt_plan, args->out,
                                                 "mmaemu record --cublaslt " + args->lt_plan + " --inputs-only --out " + args->out,
                                                 args->calls);
      std::cout << "wrote the operands of " << n << " calls to " << args->out << "\n";
      status = kExitOk;
      return;
    }
    if (args->inputs_only) {
      status = write_inputs_only(*args);
      return;
    }
#ifdef MMAEMU_HAVE_CUDA
    const RecordArgs& a = *args;
    // Held for the recording: a second one into the same --out fails now (exit 2) naming this one's
    // pid; a read-only --out is found here. SIGINT / SIGTERM stop between instructions (calls).
    const ReportLock lock(a.out, "mmaemu");
    const InterruptGuard guard;
    if (!a.lt_plan.empty()) {
      lt::LtRecordOptions lo;
      lo.plan = a.lt_plan;
      lo.out_dir = a.out;
      lo.device = a.device;
      lo.store_operands_up_to = a.store_up_to;
      lo.commit = a.commit;
      lo.command_line = "mmaemu record --cublaslt " + a.lt_plan + " --out " + a.out;
      status = lt::record_cublaslt(lo);
      return;
    }
    RecordOptions o;
    o.out_dir = a.out;
    o.seed = a.seed;
    o.tiles_per_family = a.tiles;
    o.instructions = a.instrs;
    o.device = a.device;
    o.commit = a.commit;
    o.command_line = "mmaemu record --out " + a.out + " --seed " + std::to_string(a.seed);
    if (a.tiles) o.command_line += " --tiles-per-family " + std::to_string(a.tiles);
    for (const auto& i : a.instrs) o.command_line += " --instr " + i;
    status = record_fixtures(o);
#else
    (void)status;
    throw InputError("record", "this build has no CUDA support; rebuild with nvcc available");
#endif
  });
}

}  // namespace mmaemu::cli
