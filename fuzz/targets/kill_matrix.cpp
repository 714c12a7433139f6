// Kill matrices read back (harness/mutate/kill_matrix.hpp): `mmaemu mutate --baseline FILE`
// (mutants/baseline-*.json), `mmaemu merge` of mutate shards; and one journal line of --resume.
#include "fuzz/fuzz_support.hpp"
#include "harness/mutate/kill_matrix.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(mmaemu::fuzz::as_text(data, size));
  mmaemu::fuzz::expect_only_input_errors([&] {
    const mmaemu::mutate::KillMatrix m = mmaemu::mutate::kill_matrix_from_json(text, "baseline.json");
    (void)mmaemu::mutate::to_json(m);
    (void)mmaemu::mutate::to_markdown(m);
  });
  mmaemu::fuzz::expect_only_input_errors([&] { (void)mmaemu::mutate::mutant_result_from_json(text, "journal.jsonl:1"); });
  return 0;
}
