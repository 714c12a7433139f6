// record_fixtures: plan the tiles, run them twice on the GPU, check, then write the set.
#include "harness/record/recorder.hpp"

#include <algorithm>

#include "harness/core/errors.hpp"
#include "harness/core/interrupt_guard.hpp"
#include "harness/record/fixture_writer.hpp"
#include "harness/record/gpu_run.hpp"
#include "harness/record/output_summary.hpp"
#include "harness/record/record_log.hpp"
#include "harness/record/recording.hpp"
#include "harness/record/self_check.hpp"

namespace mmaemu {
namespace {

using namespace record;

constexpr uint8_t kPoison1 = 0xA5, kPoison2 = 0x5A;

std::vector<ref::Instruction> select_instructions(const RecordOptions& o, const GpuDevice& dev, RecordLog& log) {
  const auto& known = recordable_instructions();
  std::vector<ref::Instruction> out;
  auto add = [&](const std::string& name) {
    std::string why;
    auto in = ref::parse_instruction(name, &why);
    if (!in) throw InputError("", "unknown instruction: " + why);
    if (std::find(known.begin(), known.end(), name) == known.end()) {
      std::string list;
      for (const auto& k : known) list += "\n  " + k;
      throw InputError("", "the recorder cannot record '" + name + "'; it knows:" + list);
    }
    for (const auto& o2 : out)
      if (o2.name == in->name) return;
    out.push_back(*in);
  };
  if (o.instructions.empty()) {
    for (const auto& name : known) {
      std::string why;
      if (device_has_instruction(dev, name, &why)) add(name);
      else log.info("skipping " + why);
    }
  } else {
    for (const auto& name : o.instructions) {
      std::string why;
      add(name);
      if (!device_has_instruction(dev, name, &why)) throw InputError("", why);
    }
  }
  return out;
}

std::string set_name(const std::filesystem::path& dir) {
  auto name = dir.filename();
  if (name.empty()) name = dir.parent_path().filename();  // "fixtures/h200/"
  return name.empty() ? "fixtures" : name.string();
}

// Records one instruction: two launches with different poison, then the self-checks.
bool record_one(const RecordOptions& o, const ref::Instruction& instr, RecordLog& log, FixtureSet& set) {
  const int tiles_per_family = o.tiles_per_family > 0 ? o.tiles_per_family : default_tiles_per_family(instr);
  InstructionRecording rec = plan_recording(instr, o.seed, tiles_per_family);
  std::vector<uint32_t> d1, d2;
  for (auto [poison, d] : {std::pair{kPoison1, &d1}, {kPoison2, &d2}}) {
    const std::string err = run_on_gpu(rec, poison, *d);
    if (!err.empty()) throw std::runtime_error(instr.name + ": " + err);
  }
  const int bytes = storage_bytes(instr.d);
  const CheckResult agree = check_runs_agree(rec, d1, poison_pattern(kPoison1, bytes), d2, poison_pattern(kPoison2, bytes));
  rec.d = std::move(d1);
  const CheckResult exact = check_exact_tiles(rec);
  const std::string summary = describe(summarize_outputs(rec), bytes);
  log.info(instr.name + ": " + std::to_string(rec.tiles) + " tiles, " + std::to_string(rec.outputs()) +
           " outputs; two runs agree on " + std::to_string(agree.checked - agree.failures) + "/" +
           std::to_string(agree.checked) + "; small_int exact on " + std::to_string(exact.checked - exact.failures) +
           "/" + std::to_string(exact.checked));
  log.info("  D: " + summary);
  for (const auto* res : {&agree, &exact})
    for (const auto& line : res->first) log.error("  " + line);
  set.summaries.push_back(summary);
  set.recordings.push_back(std::move(rec));
  return agree.ok() && exact.ok();
}

}  // namespace

int record_fixtures(const RecordOptions& o) {
  RecordLog log;
  try {
    if (o.out_dir.empty()) throw InputError("", "no output directory given (--out)");
    if (o.tiles_per_family < 0) throw InputError("", "--tiles-per-family must be 0 (default) or positive");
    std::string err;
    const auto dev = open_device(o.device, &err);
    if (!dev) {
      log.error(err);
      return kExitBadInput;
    }
    log.info("device " + std::to_string(dev->index) + ": " + dev->name + ", compute capability " +
             std::to_string(dev->cc_major) + "." + std::to_string(dev->cc_minor) + ", " +
             std::to_string(dev->sm_count) + " SMs; seed " + std::to_string(o.seed));
    const auto instrs = select_instructions(o, *dev, log);
    FixtureSet set;
    bool ok = true;
    for (size_t i = 0; i < instrs.size(); ++i) {
      // Between instructions: a fixture set is written whole or not at all (its manifest last), so an
      // interrupted recording writes nothing and says so.
      if (interrupt_flag().load()) {
        log.error(std::string("interrupted by ") + interrupt_signal_name() + ": " + std::to_string(i) + " of " +
                  std::to_string(instrs.size()) + " instructions recorded; nothing written (a fixture set is written " +
                  "whole): record again");
        return interrupted_exit_status();
      }
      ok = record_one(o, instrs[i], log, set) && ok;
    }
    if (interrupt_flag().load()) {
      log.error(std::string("interrupted by ") + interrupt_signal_name() + " after the last instruction; nothing written: record again");
      return interrupted_exit_status();
    }
    if (!ok) {
      log.error("self-check failed (a fragment layout or the launch is wrong): nothing written");
      return kExitCheckFailed;
    }
    set.name = set_name(o.out_dir);
    set.arch = "sm" + std::to_string(dev->cc());
    const std::string command = o.command_line.empty()
                                    ? "mmaemu record --out " + o.out_dir.string() + " --seed " + std::to_string(o.seed)
                                    : o.command_line;
    set.provenance = collect_provenance(dev->index, command, o.commit);
    set.checks =
        "- every output was written: D was poisoned (0xA5 bytes, then 0x5A bytes) before each of two launches,\n"
        "  and the two launches returned the same bits for every output;\n"
        "- the small_int tiles equal exact arithmetic (computed on the host), which proves the fragment\n"
        "  layouts whatever the hardware's alignment, truncation and rounding.\n";
    for (const auto& [key, value] : set.provenance.fields) log.info("  " + key + ": " + value);
    log.info("writing " + std::to_string(set.recordings.size()) + " instructions to " + o.out_dir.string());
    set.log_text = log.text();
    write_fixture_set(o.out_dir, set);
    return kExitOk;
  } catch (const InputError& e) {
    log.error(e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    // A failed launch or kernel: the recording is not trustworthy.
    log.error(e.what());
    return kExitCheckFailed;
  }
}

}  // namespace mmaemu
