// Small inputs written by the tests: YAML text, and synthetic fixture sets whose D comes from the
// reference itself (so they replay cleanly), with a way to spoil them.
#pragma once
#include <gtest/gtest.h>

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/tests/temp_dir.hpp"

namespace mmaemu::testing {

inline void write_text(const std::filesystem::path& p, const std::string& text) { write_file_atomic(p, text); }

// Runs f and returns the InputError it throws (fails the test when it throws none).
template <class F>
InputError input_error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e;
  }
  ADD_FAILURE() << "no InputError";
  return InputError("", "none");
}

struct SyntheticFamily {
  std::string name;
  size_t tiles;
};

// What to do to the arrays before they are written (flip a bit of D, drop a row of A, ...).
struct Spoilers {
  std::function<void(NpyArray& a, NpyArray& b, NpyArray& c, NpyArray& d)> arrays;
  std::function<void(const std::filesystem::path& instr_dir)> after_hashing;  // e.g. truncate a file
};

// Writes a fixture set for sm90 into `dir`: one directory per instruction with a.npy..d.npy, and a
// manifest.yaml with their sha256. Returns the manifest's path.
std::filesystem::path write_fixture_set(const std::filesystem::path& dir, const std::vector<std::string>& instrs,
                                        const std::vector<SyntheticFamily>& families, const Spoilers& spoil = {});

}  // namespace mmaemu::testing
