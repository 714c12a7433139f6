// Atomic file writes: reports and fixtures are written to a temporary file in the same directory and
// renamed into place, so a reader (or an interrupted run) never sees a half-written file: the file
// holds what it held before or all of the new bytes.
#pragma once
#include <filesystem>
#include <string_view>

namespace mmaemu {

// Writes `bytes` to `path` atomically (temp file + fsync + rename). Creates parent directories.
// A file that cannot be written (a read-only directory, a full disk, a size limit) is unusable
// output: InputError (exit 2) naming `path` and the reason, with the temporary file removed and the
// old file, if any, untouched. A stop at once (core/interrupt_guard.hpp) removes the temporary file too.
void write_file_atomic(const std::filesystem::path& path, std::string_view bytes);

}  // namespace mmaemu
