#include "harness/reportio/merge_directories.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <variant>

#include "harness/core/errors.hpp"
#include "harness/core/reports.hpp"
#include "harness/mutate/campaign_output.hpp"
#include "harness/reportio/json_file.hpp"
#include "harness/reportio/merge.hpp"
#include "harness/reportio/run_report_reader.hpp"

namespace mmaemu::reportio {
namespace fs = std::filesystem;
namespace {

using mutate::KillMatrix;

const char* kind_text(DocumentKind k) { return k == DocumentKind::run_report ? "a run report" : "a kill matrix"; }

// One file name's documents, one per shard directory, in the order the directories were given.
struct Group {
  DocumentKind kind = DocumentKind::other;
  std::vector<fs::path> files;
  std::vector<std::string> texts;
  std::vector<size_t> dirs;  // which shard directory each file came from
};

// The run reports and kill matrices at the top of each directory, by file name.
std::map<std::string, Group> find_groups(const std::vector<fs::path>& dirs) {
  std::map<std::string, Group> groups;
  for (size_t d = 0; d < dirs.size(); ++d) {
    const fs::path& dir = dirs[d];
    if (!fs::is_directory(dir)) throw InputError(dir.string(), "no such directory");
    for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".json") continue;
      std::string text = read_text_file(e.path());
      const DocumentKind kind = classify(parse_json(text, e.path().string()));
      if (kind == DocumentKind::other) continue;
      Group& g = groups[e.path().filename().string()];
      if (g.files.empty()) g.kind = kind;
      if (g.kind != kind)
        throw InputError(e.path().string(), std::string("is ") + kind_text(kind) + ", but " + g.files[0].string() + " is " +
                                                kind_text(g.kind));
      g.files.push_back(e.path());
      g.texts.push_back(std::move(text));
      g.dirs.push_back(d);
    }
  }
  for (const auto& [name, g] : groups) {
    // A document that is not sharded itself and lies in one shard only is a whole unit of work that
    // shard ran (a mutation tier's kill matrix in a sharded `mmaemu run`): it is taken as it is.
    if (g.files.size() == 1 && dirs.size() > 1) {
      const nlohmann::json doc = parse_json(g.texts[0], g.files[0].string());
      if (!doc.contains("shard") || doc["shard"].value("count", 1) == 1) continue;
    }
    for (size_t d = 0; d < dirs.size(); ++d)
      if (std::find(g.dirs.begin(), g.dirs.end(), d) == g.dirs.end())
        throw InputError((dirs[d] / name).string(), std::string("missing (or not ") + kind_text(g.kind) + "): " +
                                                        g.files[0].string() + " is " + kind_text(g.kind) +
                                                        ", and every shard directory must hold its part");
  }
  return groups;
}

std::vector<std::string> names(const std::vector<fs::path>& files) {
  std::vector<std::string> out;
  for (const fs::path& f : files) out.push_back(f.string());
  return out;
}

std::string run_verdicts(const RunReport& run) {
  const VerdictCounts n = count_verdicts(run);
  std::string out;
  const std::pair<size_t, const char*> parts[] = {{n.pass, "pass"}, {n.fail, "fail"}, {n.skip, "skip"}, {n.error, "error"}};
  for (const auto& [count, name] : parts)
    if (count) out += (out.empty() ? "" : ", ") + std::to_string(count) + " " + name;
  return out.empty() ? "no suites" : out;
}

std::string matrix_verdicts(const KillMatrix& m) {
  size_t problems = 0;
  for (const mutate::MutantResult& r : m.mutants) problems += mutate::is_problem(r.outcome);
  std::string out = "score " + mutate::score_text(m.score());
  if (problems) out += ", " + std::to_string(problems) + " failing the campaign";
  return out;
}

}  // namespace

DocumentKind classify(const nlohmann::json& doc) {
  if (!doc.is_object()) return DocumentKind::other;
  if (doc.contains("schema") && doc["schema"] == kRunReportSchema) return DocumentKind::run_report;
  if (doc.contains("mutants") && doc.contains("tier")) return DocumentKind::kill_matrix;
  return DocumentKind::other;
}

std::vector<MergedFile> merge_directories(const std::vector<fs::path>& shard_dirs, const fs::path& out) {
  if (shard_dirs.empty()) throw InputError("", "no shard directories given");
  for (const fs::path& dir : shard_dirs)
    if (fs::exists(out) && fs::exists(dir) && fs::equivalent(out, dir))
      throw InputError(out.string(), "is one of the shard directories; the merged reports would overwrite a shard's");
  const std::map<std::string, Group> groups = find_groups(shard_dirs);
  if (groups.empty()) throw InputError(shard_dirs[0].string(), "no run reports or kill matrices found");

  std::vector<std::pair<std::string, std::variant<RunReport, KillMatrix>>> merged;
  std::vector<MergedFile> table;
  for (const auto& [name, g] : groups) {
    const std::vector<std::string> sources = names(g.files);
    const std::string stem = fs::path(name).stem().string();
    MergedFile row{name, g.kind, static_cast<unsigned>(g.files.size()), 0, ""};
    if (g.kind == DocumentKind::run_report) {
      std::vector<RunReport> shards;
      for (size_t i = 0; i < g.texts.size(); ++i) shards.push_back(run_report_from_json(g.texts[i], sources[i]));
      RunReport run = merge_run_reports(shards, sources);
      row.units = run.suites.size();
      row.verdicts = run_verdicts(run);
      merged.emplace_back(stem, std::move(run));
    } else {
      std::vector<KillMatrix> shards;
      for (size_t i = 0; i < g.texts.size(); ++i) shards.push_back(mutate::kill_matrix_from_json(g.texts[i], sources[i]));
      KillMatrix m = merge_kill_matrices(shards, sources);
      row.units = m.mutants.size();
      row.verdicts = matrix_verdicts(m);
      merged.emplace_back(stem, std::move(m));
    }
    table.push_back(std::move(row));
  }
  for (const auto& [stem, doc] : merged) {
    if (const auto* run = std::get_if<RunReport>(&doc)) write_reports(*run, out, stem);
    else mutate::write_reports(std::get<KillMatrix>(doc), out, stem);
  }
  return table;
}

std::string merge_table(const std::vector<MergedFile>& files) {
  size_t width = 4;
  for (const MergedFile& f : files) width = std::max(width, f.file.size());
  std::string out;
  char buf[512];
  std::snprintf(buf, sizeof buf, "%-*s  %6s  %-12s  %s\n", static_cast<int>(width), "file", "shards", "contents", "verdicts");
  out += buf;
  for (const MergedFile& f : files) {
    const std::string contents =
        std::to_string(f.units) + (f.kind == DocumentKind::run_report ? " suites" : " mutants");
    std::snprintf(buf, sizeof buf, "%-*s  %6u  %-12s  %s\n", static_cast<int>(width), f.file.c_str(), f.shards,
                  contents.c_str(), f.verdicts.c_str());
    out += buf;
  }
  return out;
}

}  // namespace mmaemu::reportio
