#include "harness/mutate/variants.hpp"

#include <unistd.h>

#include "harness/core/errors.hpp"
#include "harness/mutate/campaign_output.hpp"
#include "harness/core/child_process.hpp"

namespace mmaemu::mutate {
namespace {

namespace fs = std::filesystem;

std::string joined(const std::vector<std::string>& argv) {
  std::string s;
  for (const std::string& a : argv) s += (s.empty() ? "" : " ") + a;
  return s;
}

// Builds one variant; throws with the reason and the log when it does not succeed.
void build_variant(const CampaignSpec& c, const VariantSetup& setup, int id, const std::atomic<bool>& stop) {
  const VariantSpec& v = *c.variants;
  ChildRequest req;
  req.argv = expand_build(v, setup.build_dir, id);
  req.workdir = c.workdir;
  req.log = setup.log_dir / (std::to_string(id) + ".log");
  const ChildResult r = run_child(req, stop);
  const std::string what = "building the variant of mutant " + std::to_string(id) + " (`" + joined(req.argv) + "`)";
  switch (r.end) {
    case ChildResult::End::exited:
      if (r.exit_code == 0) return;
      throw InputError(v.where, what + " failed with exit " + std::to_string(r.exit_code) + "; log: " + req.log.string());
    case ChildResult::End::signalled:
      throw InputError(v.where, what + " was killed by " + signal_name(r.signal) + "; log: " + req.log.string());
    case ChildResult::End::timed_out:
    case ChildResult::End::interrupted:
      throw InputError(v.where, what + " was interrupted; log: " + req.log.string());
    case ChildResult::End::not_started:
      throw InputError(v.where, what + " could not start: " + r.error);
  }
}

}  // namespace

std::map<int, std::string> prepare_variants(const CampaignSpec& c, const std::vector<Mutant>& mutants,
                                            const VariantSetup& setup, const std::atomic<bool>& stop) {
  std::map<int, std::string> programs;
  if (!c.variants) return programs;
  if (setup.build) fs::create_directories(setup.log_dir);
  Progress progress(c.tier, mutants.size(), setup.progress, "variants built");
  progress.update(0);
  for (size_t i = 0; i < mutants.size(); ++i) {
    const int id = mutants[i].id;
    if (setup.build) build_variant(c, setup, id, stop);
    fs::path program = expand_program(*c.variants, setup.build_dir, id);
    if (program.is_relative()) program = c.workdir / program;
    if (!fs::is_regular_file(program) || ::access(program.c_str(), X_OK) != 0) {
      const std::string why = setup.build ? "its build succeeded but left no program there"
                                          : "--no-build takes prebuilt variants: build it first";
      throw InputError(c.variants->where, "the variant program of mutant " + std::to_string(id) + " is missing: " +
                                              program.string() + " (" + why + ")");
    }
    programs[id] = program.lexically_normal().string();
    progress.update(i + 1);
  }
  progress.finish();
  return programs;
}

}  // namespace mmaemu::mutate
