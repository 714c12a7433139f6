// Atomic file writes: reports and fixtures are written to a temporary file in the same directory and
// renamed into place, so a reader (or an interrupted run) never sees a half-written file.
#pragma once
#include <filesystem>
#include <string_view>

namespace mmaemu {

// Writes `bytes` to `path` atomically (temp file + fsync + rename). Creates parent directories.
// Throws std::runtime_error naming the path on failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace mmaemu
