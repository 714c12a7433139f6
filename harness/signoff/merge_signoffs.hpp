// The shards of one sign-off (`mmaemu signoff --shard I/N` on N machines) joined into the directory
// one machine would have written: the checks of shard 1 (every shard runs them; their verdicts must
// agree), every tier step from the shard that ran it, in plan order, and the verdict recomputed.
#pragma once
#include <filesystem>
#include <vector>

#include "harness/signoff/status.hpp"

namespace mmaemu::signoff {

// True when `dir` holds a sign-off record (signoff.json).
bool is_signoff_directory(const std::filesystem::path& dir);

// Throws InputError naming the directory: shards of different plans or counts, an index missing or
// twice, an incomplete shard, checks whose verdicts disagree, `out` being one of the shards.
SignoffRecord merge_signoffs(const std::vector<std::filesystem::path>& shard_dirs, const std::filesystem::path& out);

}  // namespace mmaemu::signoff
