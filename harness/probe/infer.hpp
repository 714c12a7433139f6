// Inference of one instruction's block model from its oracle's outputs alone.
//
// Each experiment (experiments.hpp) is run once on the oracle; its outcome is then compared with what
// every candidate value of the parameters it isolates predicts through the reference model, the
// parameters found so far held fixed and the ones still unknown at values the experiment's design
// makes irrelevant. The candidates that reproduce every case survive: one is a finding; several that
// give the same bits on every input of these formats are one unobservable class (the file's default is
// written); several that differ somewhere, or none, stop the instruction with the cases that decide.
// Then the whole model must reproduce every probe output (all outputs of every tile, the specials
// and random tiles of the recorder's families) and, independently, a fresh random recording.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "harness/probe/experiments.hpp"
#include "harness/probe/oracle.hpp"
#include "harness/record/recording.hpp"

namespace mmaemu::probe {

enum class FindingStatus { established, unobservable, ambiguous, inconsistent, checked };
std::string_view status_name(FindingStatus s);

struct Finding {
  std::string parameter;   // "k", "frac-bits", "truncation", "result", "rounding", "overflow", ...
  std::string value;       // as the profile file writes it, or a class ("none or <= -124")
  std::string experiment;  // the experiment that decided it
  size_t inputs = 0;       // cases of that experiment, every one reproduced by the value
  FindingStatus status = FindingStatus::established;
  std::string detail;      // alternatives, or the first case no candidate reproduces
  std::vector<std::string> alternatives;  // unobservable: every value that fit the experiment
};

struct Verification {
  std::string what;     // "probe outputs", "fresh recording (seed 7)"
  size_t outputs = 0;
  size_t mismatches = 0;
  std::string first_mismatch;  // TestFloat style: inputs, expected (model), got (oracle)
  size_t unanswered = 0;       // outputs the oracle could not give (recordings): in neither count above
};

struct InstructionProbe {
  std::string instr;
  std::optional<ref::InstructionModel> model;  // the inferred model; nullopt when it could not be established
  std::string stopped;                         // why not, when not
  std::vector<Finding> findings;
  record::InstructionRecording probe_tiles;    // every probe tile with the oracle's D (families: probe-*)
  record::InstructionRecording fresh;          // the fresh random recording with the oracle's D
  std::vector<Verification> checks;
  size_t unanswered_outputs = 0;
  std::vector<bool> probe_unanswered, fresh_unanswered;  // per output of probe_tiles / fresh (empty: all given)  // outputs the oracle could not give (a recorded oracle): such tiles are no fixture
  double seconds = 0;

  bool reproduced() const;  // a model, and every check without a mismatch
};

struct ProbeOptions {
  uint64_t seed = 1;        // the random tiles among the probe's own
  uint64_t fresh_seed = 0;  // 0: derived from seed (never equal to it)
  int fresh_tiles_per_family = 0;  // 0: the recorder's default (>= 50,000 outputs)
  std::function<void(const std::string&)> progress;  // one line per step (may be empty)
};

class Prober {
 public:
  Prober(Oracle& oracle, ProbeOptions options);
  // Probes `instr` (and first any instruction a lowering candidate runs as). Memoised.
  const InstructionProbe& probe(const std::string& instr);

 private:
  const ref::InstructionModel* inferred(const std::string& instr);
  Oracle& oracle_;
  ProbeOptions options_;
  std::map<std::string, std::unique_ptr<InstructionProbe>> done_;
  std::vector<std::string> in_progress_;
};

}  // namespace mmaemu::probe
