// `mmaemu merge DIR... --out DIR`: the reports of a run split across machines (`--shard I/N`, one
// report directory per shard) merged into what one machine would have written.
#include <iostream>

#include "harness/core/errors.hpp"
#include "harness/reportio/merge_directories.hpp"
#include "harness/signoff/merge_signoffs.hpp"
#include "harness/signoff/signoff_report.hpp"
#include "harness/cli/commands.hpp"

namespace mmaemu::cli {

void add_merge(CLI::App& app, int& status) {
  auto* cmd = app.add_subcommand(
      "merge", "Merge a sharded run's reports, kill matrices or sign-offs (one directory per shard); exit 0 merged, 2 bad input");
  auto dirs = std::make_shared<std::vector<std::string>>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("dirs", *dirs, "The shards' report directories")->required();
  cmd->add_option("--out", *out, "Where the merged reports go")->required();
  cmd->callback([dirs, out, &status] {
    const std::vector<std::filesystem::path> shard_dirs(dirs->begin(), dirs->end());
    // The shards of a sign-off carry their steps' reports in folders of their own: joined as a whole.
    if (signoff::is_signoff_directory(shard_dirs.front())) {
      std::cout << signoff::verdict_table(signoff::merge_signoffs(shard_dirs, *out));
      status = kExitOk;
      return;
    }
    std::vector<reportio::MergedFile> merged;
    try {
      merged = reportio::merge_directories(shard_dirs, *out);
    } catch (const InputError&) {
      throw;
    } catch (const std::runtime_error& e) {
      // A directory that cannot be listed, a merged report that cannot be written.
      std::cerr << "mmaemu: error: " << e.what() << "\n";
      status = kExitBadInput;
      return;
    }
    std::cout << reportio::merge_table(merged);
    status = kExitOk;
  });
}

}  // namespace mmaemu::cli
