// Run reports read back (harness/reportio/run_report_reader.hpp), for `mmaemu merge` and
// `mmaemu compare`: parsed from memory, then rendered again, which must succeed for what was read.
#include "fuzz/fuzz_support.hpp"
#include "harness/core/report_json.hpp"
#include "harness/reportio/run_report_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(mmaemu::fuzz::as_text(data, size));
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::RunReport r = mmaemu::reportio::run_report_from_json(text, "report.json");
    (void)mmaemu::report_json::render(r);
  });
  return 0;
}
