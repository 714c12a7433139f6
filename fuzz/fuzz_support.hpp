// What every fuzz target shares: a private scratch directory for the inputs that readers take as
// files, the input written there, the argv words of the command-line target, and the one rule of
// the targets (only the reader's documented input errors may escape; anything else is a crash).
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "harness/core/errors.hpp"

namespace mmaemu::fuzz {

// This process's own directory under $TMPDIR (created on first use, removed at exit), so that
// parallel fuzzing jobs never read each other's inputs.
const std::filesystem::path& scratch_dir();

// Writes the input to scratch_dir()/relative (its parent directories created), replacing what was
// there, and returns the path. Readers that take a path are fed through here.
std::filesystem::path write_input(const std::string& relative, const uint8_t* data, size_t size);
std::filesystem::path write_input(const std::string& relative, std::string_view bytes);

// Removes everything under scratch_dir() but the directory itself: no input sees another's files.
void clear_scratch();

// The input as command-line words: split at white space (space, tab, newline), at most `max_words`;
// a word may hold white space between double quotes ("a b"). An empty result is valid.
std::vector<std::string> split_words(std::string_view text, size_t max_words = 32);

// The input as text (bytes as they are; readers must cope with any of them).
inline std::string_view as_text(const uint8_t* data, size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `read` and lets only mmaemu::InputError, the exit-2 error every reader documents, end it
// quietly. Any other exception escapes to libFuzzer, which reports it as a crash (uncaught
// exception: the program would have aborted with exit 134).
template <class Read>
void expect_only_input_errors(Read&& read) {
  try {
    read();
  } catch (const InputError&) {
  }
}

}  // namespace mmaemu::fuzz
