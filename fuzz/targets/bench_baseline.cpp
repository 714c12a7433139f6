// `mmaemu bench --baseline FILE`: a T6 JSON report read back and compared (bench/t6/baseline.hpp).
// The file is read and parsed as the runner's read_baseline does (an unreadable file or one that is
// not JSON is an InputError), then compare_with_baseline checks it against an empty run, as the
// runner does before anything is measured, and against the baseline's own rows.
#include <nlohmann/json.hpp>

#include "bench/t6/baseline.hpp"
#include "fuzz/fuzz_support.hpp"
#include "harness/reportio/json_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("baseline.json", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    const nlohmann::json j = mmaemu::reportio::read_json_file(file);
    (void)mmaemu::t6::compare_with_baseline({}, j, file.string(), 5);
    std::vector<mmaemu::t6::RateRow> now;
    try {
      now = mmaemu::t6::rows_from_json(j.at("rows"));
    } catch (const nlohmann::json::exception&) {  // rows_from_json documents it; the check above said yes
      __builtin_trap();
    }
    (void)mmaemu::t6::compare_with_baseline(now, j, file.string(), 5);
  });
  return 0;
}
