// `mmaemu record`: records single-instruction results on this machine's GPU as a fixture set.
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/cli/commands.hpp"
#ifdef MMAEMU_HAVE_CUDA
#include "harness/core/interrupt_guard.hpp"
#include "harness/core/report_lock.hpp"
#include "harness/cublaslt/lt_record.hpp"
#include "harness/record/recorder.hpp"
#endif

namespace mmaemu::cli {

void add_record(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand("record", "Record fixtures on this machine's GPU (needs CUDA and a GPU)");
  auto out = std::make_shared<std::string>();
  auto seed = std::make_shared<uint64_t>(1);
  auto tiles = std::make_shared<int>(0);
  auto instrs = std::make_shared<std::vector<std::string>>();
  auto device = std::make_shared<int>(0);
  auto commit = std::make_shared<std::string>();
  cmd->add_option("--out", *out, "Fixture set directory to write")->required();
  cmd->add_option("--seed", *seed, "Seed of the input generators");
  cmd->add_option("--tiles-per-family", *tiles, "Tiles per input family (0: at least 50,000 outputs per instruction)");
  cmd->add_option("--instr", *instrs, "Record only these instructions (repeatable)");
  cmd->add_option("--device", *device, "CUDA device index");
  auto lt_plan = std::make_shared<std::string>();
  auto store_up_to = std::make_shared<size_t>(0);
  cmd->add_option("--cublaslt", *lt_plan, "Record cuBLASLt matmul calls as this plan (YAML) lists them, instead of instructions")
      ->check(CLI::ExistingFile);
  cmd->add_option("--store-operands-up-to", *store_up_to,
                  "With --cublaslt: store the operands of calls whose A, B and C hold at most this many elements");
  cmd->add_option("--commit", *commit, "Commit to record in the manifest (default: the one this binary was built from)");
  cmd->callback([=, &status] {
#ifdef MMAEMU_HAVE_CUDA
    // Held for the recording: a second one into the same --out fails now (exit 2) naming this one's
    // pid; a read-only --out is found here. SIGINT / SIGTERM stop between instructions (calls).
    const ReportLock lock(*out, "mmaemu");
    const InterruptGuard guard;
    if (!lt_plan->empty()) {
      lt::LtRecordOptions lo;
      lo.plan = *lt_plan;
      lo.out_dir = *out;
      lo.device = *device;
      lo.store_operands_up_to = *store_up_to;
      lo.commit = *commit;
      lo.command_line = "mmaemu record --cublaslt " + *lt_plan + " --out " + *out;
      status = lt::record_cublaslt(lo);
      return;
    }
    RecordOptions o;
    o.out_dir = *out;
    o.seed = *seed;
    o.tiles_per_family = *tiles;
    o.instructions = *instrs;
    o.device = *device;
    o.commit = *commit;
    o.command_line = "mmaemu record --out " + *out + " --seed " + std::to_string(*seed);
    if (*tiles) o.command_line += " --tiles-per-family " + std::to_string(*tiles);
    for (const auto& i : *instrs) o.command_line += " --instr " + i;
    status = record_fixtures(o);
#else
    throw InputError("record", "this build has no CUDA support; rebuild with nvcc available");
#endif
  });
}

}  // namespace mmaemu::cli
