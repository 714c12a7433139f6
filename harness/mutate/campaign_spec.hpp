// T4 tier files: a mutation campaign. Which catalogue, which of its tiers, the tests that must kill
// the mutants (each a command run as a child process; a non-zero exit kills), and how long a test
// may take before it counts as hung.
//   tier: T4-cpu
//   description: ...
//   catalogue: ../mutants/catalogue.yaml   # relative to this file
//   catalogue_tiers: [cpu]                 # which entries of the catalogue run (their `tier`)
//   workdir: ..                            # the commands' working directory (default: this file's folder)
//   jobs: 2                                # mutants run in parallel (--jobs overrides)
//   timeout:                               # per test: max(min_seconds, factor x baseline + slack_seconds)
//     factor: 3
//     slack_seconds: 2
//     min_seconds: 5
//   device: gpu                            # optional: the campaign needs a CUDA device; without one it is
//                                          # skipped (exit 77 under --ctest) before anything is built
//   program: "{build}/harness/cli/mmaemu-mutant"   # what {mmaemu} runs, baseline and mutants alike:
//                                          # a mutant program (the shipped one holds no mutant);
//                                          # required unless `variants` gives each mutant its own
//   variants:                              # optional: each mutant runs its own compile-time variant
//     build: [cmake, --build, "{build}", --target, "mmaemu-mutant-{id}"]   # makes one variant
//     program: "{build}/harness/cli/mmaemu-mutant-{id}"                     # where it is then
//   baseline: ../mutants/baseline-cpu.json # optional: the committed kill matrix (--baseline overrides)
//   quick:                                 # optional: the quick form (--quick; the main job runs it)
//     mutants: [1, 21, 70]                 # ids or names; checked against the catalogue when run
//     fast: true                           # stop each mutant's tests at its first kill
//   tests:
//     - name: T2
//       command: ["{mmaemu}", run, tiers/T2.yaml, --quiet, --report-dir, "{scratch}"]
// Placeholders in a command: {mmaemu} the `program` (with `variants`, a mutant's own variant
// program; the baseline then runs the running program), {build} the build directory, {scratch}
// an empty directory of the test's own (for its reports). In `variants`: {build} and {id} (the
// mutant's id); a relative program is relative to the working directory.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace mmaemu::mutate {

struct TestCommand {
  std::string name;                // letters, digits, '-', '_', '.'; names the log file
  std::vector<std::string> argv;   // as written, placeholders unexpanded
  std::string where;               // "file:line:column" of the entry
};

struct TimeoutRule {
  double factor = 3;
  double slack_seconds = 2;
  double min_seconds = 5;
  // A test that runs past its limit is run once more with `confirm_factor` times the limit, and
  // counts as hung only if it runs past that too: on a loaded machine a slow test is not a kill.
  double confirm_factor = 4;
  double seconds_for(double baseline_seconds) const;
};

// Compile-time variants: mutants that exist only in a program built for them (GPU device code,
// where a run-time switch would distort the kernel; mutants/switch.hpp).
struct VariantSpec {
  std::vector<std::string> build;  // the command that builds one variant, placeholders unexpanded
  std::string program;             // the variant program's path, placeholders unexpanded
  std::string where;               // "file:line:column" of the `variants` entry
};

// The campaign's quick form: a handful of mutants that stand for the whole catalogue.
struct QuickForm {
  std::vector<std::string> mutants;  // ids or names, as --only takes them
  bool fast = true;
  std::string where;
};

struct CampaignSpec {
  std::string tier;                     // "T4-cpu"
  std::string description;
  std::filesystem::path file;
  std::filesystem::path catalogue;      // resolved against the tier file's folder
  std::vector<std::string> catalogue_tiers;
  std::filesystem::path workdir;        // resolved
  unsigned jobs = 1;
  TimeoutRule timeout;
  std::vector<TestCommand> tests;
  bool needs_gpu = false;                 // device: gpu
  std::optional<VariantSpec> variants;
  std::string program;                    // `program`, placeholders unexpanded; empty with `variants`
  std::string program_where;
  std::filesystem::path baseline;         // empty: none named
  std::optional<QuickForm> quick;

  // The test list in one string, for the journal: results recorded for other tests are not reused.
  std::string tests_fingerprint() const;
};

// Loads and schema-checks a T4 tier file. Throws InputError at "file:line:column" for an unknown,
// missing or mistyped key, a test name used twice, an empty command, an absent catalogue or workdir.
CampaignSpec load_campaign(const std::filesystem::path& file);

// Where placeholders point, for one test run.
struct Placeholders {
  std::string mmaemu;
  std::string build;
  std::string scratch;
};

// The command with {mmaemu}, {build} and {scratch} replaced. Throws InputError at the test's
// position for an unknown placeholder.
std::vector<std::string> expand(const TestCommand& test, const Placeholders& p);

// The variant's build command and program path for mutant `id`, with {build} and {id} replaced.
std::vector<std::string> expand_build(const VariantSpec& v, const std::string& build, int id);
std::string expand_program(const VariantSpec& v, const std::string& build, int id);

// The campaign's `program` with {build} replaced.
std::string expand_program(const CampaignSpec& c, const std::string& build);

}  // namespace mmaemu::mutate
