// `mmaemu record --cublaslt PLAN --inputs-only --out DIR`: the operands of a plan's calls, without a GPU,
// for a client of the library (PyTorch, scripts/torch_fixture/) to run the same calls on the device and
// for the recording to be completed from what the client ran (its D and its logged configuration).
//
// DIR/recording.json lists every executed call (family, seed, operands' SHA-256; no heuristic, no runs)
// and DIR/ops/<call>-{a,b,c}.npy holds its operands in the row-major contract. Heuristic-only groups
// are not written (there is nothing to run).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu::lt {

// Returns the number of calls written. `only`: those calls (plan indices) alone, when not empty.
// Throws InputError on a bad plan, or naming --call when a listed call is not one the plan runs.
size_t write_cublaslt_inputs(const std::filesystem::path& plan, const std::filesystem::path& out_dir,
                             const std::string& command_line, const std::vector<size_t>& only = {});

}  // namespace mmaemu::lt
