// The tier files as CTest tests, read off the files themselves: one test per suite of every
// conformance tier (T2, T3, T3p, T5), named TIER.SUITE, with the suite's `labels` plus `sweep` for a
// suite the quick form leaves out (`quick: false`; the test preset, what CI runs, excludes the label).
// tiers/CMakeLists.txt has CTest run `mmaemu run TIERS --list-ctest` each time it starts (as
// gtest_discover_tests does), so that a suite added to a tier file is a test without touching CMake.
// Mutation and throughput tiers are single campaigns with their own arguments: CMake registers them.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu {

// A CTest script (add_test / set_tests_properties) for the conformance suites of `tier_files`; each
// test runs `mmaemu run FILE --suite NAME --ctest --report-dir REPORT_DIR`. Throws InputError for a
// tier file that does not load.
std::string ctest_listing(const std::vector<std::filesystem::path>& tier_files, const std::string& mmaemu,
                          const std::string& report_dir);

}  // namespace mmaemu
