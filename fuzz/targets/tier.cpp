// Tier files of every kind, as `mmaemu run` takes them: the file is classified (tier_file_kind.hpp),
// then loaded by its kind's loader: conformance suites (every registered suite kind: fixture and
// external replay, kernel conformance, native and cuBLASLt parity, properties) with each suite's
// inputs checked, the mutation tier's campaign (T4) and the throughput tier (T6) in both forms.
#include "bench/t6/t6_spec.hpp"
#include "fuzz/fuzz_support.hpp"
#include "harness/mutate/campaign_spec.hpp"
#include "harness/tiers/tier_file_kind.hpp"
#include "harness/tiers/tier_loader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto file = mmaemu::fuzz::write_input("tiers/tier.yaml", data, size);
  mmaemu::fuzz::expect_only_input_errors([&] {
    switch (mmaemu::classify_tier_file(file)) {
      case mmaemu::TierFileKind::conformance: {
        const mmaemu::TierSpec tier = mmaemu::load_tier(file);
        for (const mmaemu::SuiteSpec& suite : tier.suites) {
          try {
            (void)mmaemu::check_inputs(suite);
          } catch (const mmaemu::InputError&) {  // one suite's absent input; check the others too
          }
        }
        break;
      }
      case mmaemu::TierFileKind::mutation:
        (void)mmaemu::mutate::load_campaign(file);
        break;
      case mmaemu::TierFileKind::throughput:
        (void)mmaemu::t6::load_t6(file, false);
        (void)mmaemu::t6::load_t6(file, true);
        break;
    }
  });
  return 0;
}
