// `mmaemu compare BEFORE AFTER [--json OUT.json]`: two reports, or two report directories, compared
// after leaving out what differs between any two runs (timings, dates, commits, hosts, paths).
#include <iostream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/reportio/differences_output.hpp"
#include "harness/cli/commands.hpp"

namespace mmaemu::cli {

void add_compare(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "compare", "Compare reports (files or directories) without timings, dates, commits, hosts and paths; exit 0 "
                 "no difference, 1 differences, 2 bad input");
  auto before = std::make_shared<std::string>();
  auto after = std::make_shared<std::string>();
  auto json_out = std::make_shared<std::string>();
  cmd->add_option("before", *before, "A report (JSON) or a report directory")->required();
  cmd->add_option("after", *after, "The report or directory to compare with it")->required();
  cmd->add_option("--json", *json_out, "Write every difference here (JSON)");
  cmd->callback([before, after, json_out, &status] {
    const auto diffs = reportio::compare_paths(*before, *after);
    std::cout << reportio::format_differences(diffs);
    if (!json_out->empty()) {
      try {
        write_file_atomic(*json_out, reportio::differences_json(diffs, *before, *after));
      } catch (const std::runtime_error& e) {
        std::cerr << "mmaemu: error: " << e.what() << "\n";
        status = kExitBadInput;
        return;
      }
    }
    status = diffs.empty() ? kExitOk : kExitCheckFailed;
  });
}

}  // namespace mmaemu::cli
