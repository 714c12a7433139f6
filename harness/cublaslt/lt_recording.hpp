// A cuBLASLt recording on disk (schema mmaemu-cublaslt-recording/1): what `mmaemu record --cublaslt`
// wrote and what the replay (tier T2, suite kind cublaslt-replay) reads back without a GPU.
//
//   DIR/recording.json   provenance, workspace limit, and per call: the call, its operands' family,
//                        seed and SHA-256, the heuristic's ranked configurations, and each run's
//                        outcome (D's file and SHA-256, or the library's refusal)
//   DIR/d/<call>-<rank>.npy   D in the row-major contract (raw bits, D's storage width)
//   DIR/ops/<call>-{a,b,c}.npy   the operands, when recorded with --store-operands; otherwise the
//                        replay regenerates them from (family, seed) and checks their SHA-256.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "generators/families.hpp"
#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

inline constexpr const char* kRecordingSchema = "mmaemu-cublaslt-recording/1";

struct RecordedRun {
  int rank = 0;                 // the heuristic's rank of the algorithm (0: its choice)
  LtAlgoConfig config;
  std::optional<std::string> rejected;
  std::string d_file;           // relative to the recording directory
  std::string d_sha256;
};

struct RecordedCall {
  size_t id = 0;
  std::string group;
  LtCall call;
  gen::Family family = gen::Family::realistic;
  uint64_t seed = 0;
  std::string operands_sha256;  // over a, b, c in the contract layout, storage width
  bool operands_stored = false;
  std::optional<std::string> heuristic_rejected;  // the library offered no algorithm (why)
  std::vector<LtAlgoConfig> heuristic;            // ranked, as offered
  std::vector<RecordedRun> runs;
};

struct Recording {
  std::filesystem::path dir;
  std::string plan;
  std::vector<std::pair<std::string, std::string>> provenance;
  size_t workspace_bytes = 0;
  std::vector<RecordedCall> calls;
};

// SHA-256 of the operands as the recording states it.
std::string operands_sha256(const LtCall& call, const LtOperands& ops);

// D (row-major contract) as an .npy array of D's storage width, and back.
void write_d(const std::filesystem::path& file, const LtCall& call, const std::vector<uint32_t>& d);
std::vector<uint32_t> read_d(const std::filesystem::path& file, const LtCall& call);

void write_operands(const std::filesystem::path& dir, size_t id, const LtCall& call, const LtOperands& ops);
// The stored operands, or the regenerated ones after their SHA-256 is checked (InputError on a
// mismatch: the generators changed since the recording).
LtOperands operands_of(const Recording& rec, const RecordedCall& c);

nlohmann::json to_json(const Recording& r);
void write_recording(const Recording& r);  // DIR/recording.json, atomically
Recording read_recording(const std::filesystem::path& dir);  // InputError naming the file on a problem

}  // namespace mmaemu::lt
