#include "harness/core/input_file.hpp"
#include "harness/signoff/shipped_data.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "harness/core/atomic_file.hpp"
#include "harness/core/errors.hpp"
#include "harness/core/sha256.hpp"
#include "harness/tiers/fixture_manifest.hpp"
#include "harness/core/yaml_schema.hpp"
#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu::signoff {
namespace fs = std::filesystem;
using ojson = nlohmann::ordered_json;

namespace {

bool is_sha256_hex(const std::string& s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

std::vector<std::string> segments_of(const std::string& glob) {
  std::vector<std::string> out;
  std::stringstream s(glob);
  std::string seg;
  while (std::getline(s, seg, '/'))
    if (!seg.empty() && seg != ".") out.push_back(seg);
  return out;
}

// Every regular file below `dir` (relative path `rel`) that segments[i...] match, into `out`.
void expand(const fs::path& root, const fs::path& rel, const std::vector<std::string>& segs, size_t i,
            std::set<std::string>& out) {
  const fs::path dir = root / rel;
  if (i == segs.size()) {
    if (fs::is_regular_file(dir)) out.insert(rel.generic_string());
    return;
  }
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  if (segs[i] == "**") {
    expand(root, rel, segs, i + 1, out);  // zero segments
    for (const auto& e : fs::directory_iterator(dir, ec))
      if (e.is_directory() && e.path().filename().string()[0] != '.') expand(root, rel / e.path().filename(), segs, i, out);
    return;
  }
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    if (::fnmatch(segs[i].c_str(), name.c_str(), FNM_PERIOD) == 0) expand(root, rel / name, segs, i + 1, out);
  }
}

std::string quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) out += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return out + "\"";
}

std::string read_text(const fs::path& p) {
  return read_input_file(p, "the shipped-data manifest");
}

// The comment block a manifest starts with, kept by the update.
std::string leading_comment(const fs::path& file) {
  std::stringstream text(read_text(file));
  std::string line, header;
  while (std::getline(text, line) && !line.empty() && line[0] == '#') header += line + "\n";
  return header;
}

// The checking of one sign-off: the rows so far, and the manifests already read (a manifest reached
// twice, through the plan and through the release manifest's globs, is checked once).
class Checker {
 public:
  explicit Checker(fs::path display_root) : root_(std::move(display_root)) {}

  void check_manifest(const fs::path& file);
  std::vector<CheckRow> rows() && { return std::move(rows_); }

 private:
  std::string shown(const fs::path& p) const { return display_path(p, root_); }

  // A row for `file` against `expected`; returns its index. Whether the file is there: rows_[i].seen.
  size_t check_file(const fs::path& file, const std::string& expected, const std::string& where) {
    CheckRow row{shown(file), Status::pass, "", expected, where, "", true};
    if (!fs::is_regular_file(file)) {
      row.status = Status::fail;
      row.seen = "missing";
      row.reason = "the file is missing";
    } else {
      row.seen = sha256_file(file);
      if (row.seen != expected) {
        row.status = Status::fail;
        row.reason = "sha256 differs: the file changed since its manifest was written";
      }
    }
    rows_.push_back(std::move(row));
    return rows_.size() - 1;
  }

  // A FAIL row for each .npy below `dir` that its manifest does not name: data nobody verified.
  void unnamed_npy(const fs::path& dir, const std::set<fs::path>& named, const std::string& manifest) {
    std::vector<fs::path> stray;
    for (const auto& e : fs::recursive_directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".npy" && !named.count(e.path().lexically_normal()))
        stray.push_back(e.path());
    std::sort(stray.begin(), stray.end());
    for (const fs::path& p : stray)
      rows_.push_back({shown(p), Status::fail, sha256_file(p), "(not named)", manifest,
                       "a data file of the set that its manifest does not name", true});
  }

  void check_fixture_manifest(const fs::path& file);
  void check_recording(const fs::path& file);
  void check_release_manifest(const fs::path& file);

  fs::path root_;
  std::vector<CheckRow> rows_;
  std::set<fs::path> visited_;
};

void Checker::check_manifest(const fs::path& file) {
  std::error_code ec;
  const fs::path key = fs::weakly_canonical(file, ec);
  if (!visited_.insert(ec ? file.lexically_normal() : key).second) return;
  if (!fs::is_regular_file(file, ec)) throw InputError(file.string(), "manifest not found");
  if (file.extension() == ".json") return check_recording(file);
  const YAML::Node top = load_yaml_file(file);
  const std::string schema = top["schema"] && top["schema"].IsScalar() ? top["schema"].Scalar() : "";
  if (schema == "mmaemu-fixtures/1") return check_fixture_manifest(file);
  if (schema == kShippedDataSchema) return check_release_manifest(file);
  throw InputError(where(file.string(), top["schema"] ? top["schema"] : top),
                   "not a manifest of shipped data: schema is '" + schema + "', not mmaemu-fixtures/1 or " +
                       kShippedDataSchema);
}

// The file entries of a fixture manifest, read leniently so that a missing .npy is a FAIL row; the
// manifest's full schema check (load_fixture_manifest) runs when every file is there, since it
// refuses a missing one.
void Checker::check_fixture_manifest(const fs::path& file) {
  const std::string name = shown(file);
  const YAML::Node top = load_yaml_file(file);
  const YAML::Node instructions = top["instructions"];
  if (!instructions || !instructions.IsSequence())
    throw InputError(where(name, top), "a fixture manifest lists its files under 'instructions'");
  std::set<fs::path> named;
  bool all_present = true;
  for (const YAML::Node& entry : instructions) {
    const YAML::Node files = entry.IsMap() ? entry["files"] : YAML::Node();
    if (!files || !files.IsMap()) throw InputError(where(name, entry), "an instruction entry lists its 'files'");
    for (auto it = files.begin(); it != files.end(); ++it) {
      const YAML::Node f = it->second;
      if (!f.IsMap() || !f["path"] || !f["path"].IsScalar() || !f["sha256"] || !f["sha256"].IsScalar())
        throw InputError(where(name, f), "a file entry is {path, sha256}");
      const fs::path p = (file.parent_path() / f["path"].Scalar()).lexically_normal();
      named.insert(p);
      const size_t row = check_file(p, f["sha256"].Scalar(), where(name, f["sha256"]));
      all_present = all_present && rows_[row].seen != "missing";
    }
  }
  if (all_present) load_fixture_manifest(file);
  unnamed_npy(file.parent_path(), named, name);
}

void Checker::check_recording(const fs::path& file) {
  const std::string name = shown(file);
  if (file.filename() != "recording.json")
    throw InputError(name, "a JSON manifest of shipped data is a cuBLASLt recording's recording.json");
  const lt::Recording rec = lt::read_recording(file.parent_path());
  std::set<fs::path> named;
  for (const lt::RecordedCall& call : rec.calls)
    for (const lt::RecordedRun& run : call.runs) {
      if (run.rejected) continue;  // the library refused the call: no D was written
      const fs::path p = (rec.dir / run.d_file).lexically_normal();
      named.insert(p);
      check_file(p, run.d_sha256, name + " (call " + std::to_string(call.id) + ", rank " + std::to_string(run.rank) + ")");
    }
  unnamed_npy(file.parent_path(), named, name);
}

void Checker::check_release_manifest(const fs::path& file) {
  const ShippedDataManifest m = read_shipped_data_manifest(file);
  const std::string name = shown(file);
  std::vector<std::string> globs = m.include;
  globs.insert(globs.end(), m.manifests.begin(), m.manifests.end());
  for (const std::string& g : globs)
    if (expand_globs(m.root, {g}).empty())
      rows_.push_back({g, Status::fail, "(no file)", "at least one file", name,
                       "the pattern matches no file: a shipped file is missing, or the pattern is wrong", true});
  const std::vector<std::string> shipped = expand_globs(m.root, globs);
  const std::set<std::string> matched(shipped.begin(), shipped.end());
  std::set<std::string> recorded;
  for (const ShippedFile& f : m.files) {
    recorded.insert(f.path);
    // The entry's position, with the manifest named as every other row names it.
    const std::string where = f.where.rfind(file.string(), 0) == 0 ? name + f.where.substr(file.string().size()) : f.where;
    const size_t row = check_file((m.root / f.path).lexically_normal(), f.sha256, where);
    if (!matched.count(f.path) && rows_[row].seen != "missing") {
      rows_[row].status = Status::fail;
      rows_[row].reason = "recorded, but no pattern of the manifest matches it any more";
    }
  }
  for (const std::string& s : shipped)
    if (!recorded.count(s))
      rows_.push_back({shown(m.root / s), Status::fail, sha256_file(m.root / s), "(not recorded)", name,
                       "not in the manifest: a pattern matches it, nobody recorded it (update on purpose)",
                       true});
  for (const std::string& nested : expand_globs(m.root, m.manifests)) check_manifest(m.root / nested);
}

}  // namespace

std::vector<std::string> expand_globs(const fs::path& root, const std::vector<std::string>& globs) {
  std::set<std::string> out;
  for (const std::string& g : globs) expand(root, "", segments_of(g), 0, out);
  return {out.begin(), out.end()};
}

ShippedDataManifest read_shipped_data_manifest(const fs::path& file) {
  const std::string name = file.string();
  static const Schema top_schema = {
      required_key("schema", ValueType::string).one_of({kShippedDataSchema}),
      required_key("root", ValueType::directory).described_as("repository root"),
      required_key("include", ValueType::string_list),
      optional_key("manifests", ValueType::string_list),
      required_key("files", ValueType::sequence),
  };
  static const Schema file_schema = {
      required_key("path", ValueType::string),
      required_key("sha256", ValueType::string),
  };
  const SchemaValues v = check_mapping(load_yaml_file(file), name, top_schema, "shipped-data manifest", file.parent_path());
  require_present(v.at("root"));
  ShippedDataManifest m;
  m.file = file;
  m.root_text = v.at("root").text;
  m.root = v.at("root").path;
  m.include = v.at("include").list;
  if (v.count("manifests")) m.manifests = v.at("manifests").list;
  std::set<std::string> seen;
  for (const YAML::Node& entry : v.at("files").node) {
    const SchemaValues f = check_mapping(entry, name, file_schema, "file entry", file.parent_path());
    const SchemaValue& sha = f.at("sha256");
    if (!is_sha256_hex(sha.text)) throw InputError(sha.where, "sha256 must be 64 lower-case hex digits");
    const std::string path = fs::path(f.at("path").text).lexically_normal().generic_string();
    if (!seen.insert(path).second) throw InputError(f.at("path").where, "'" + path + "' is listed twice");
    m.files.push_back({path, sha.text, sha.where});
  }
  return m;
}

ShippedDataManifest write_shipped_data_manifest(const fs::path& file, const std::string& root_text,
                                                const std::vector<std::string>& include,
                                                const std::vector<std::string>& manifests, const std::string& header) {
  const fs::path root = (file.parent_path() / root_text).lexically_normal();
  std::error_code ec;  // a path the system cannot look up is no directory, not a crash
  if (!fs::is_directory(root, ec)) throw InputError(file.string(), "root '" + root_text + "' is no directory (" + root.string() + ")");
  std::vector<std::string> globs = include;
  globs.insert(globs.end(), manifests.begin(), manifests.end());
  std::string text = header;
  if (!text.empty() && text.back() != '\n') text += "\n";
  const auto list = [](const std::string& key, const std::vector<std::string>& items) {
    std::string s = key + ":" + (items.empty() ? " []\n" : "\n");
    for (const std::string& g : items) s += "  - " + quoted(g) + "\n";
    return s;
  };
  text += std::string("schema: ") + kShippedDataSchema + "\nroot: " + quoted(root_text) + "\n";
  text += list("include", include) + list("manifests", manifests);
  const std::vector<std::string> files = expand_globs(root, globs);
  text += files.empty() ? "files: []\n" : "files:\n";
  for (const std::string& p : files)
    text += "  - {path: " + quoted(p) + ", sha256: " + quoted(sha256_file(root / p)) + "}\n";
  write_file_atomic(file, text);
  return read_shipped_data_manifest(file);
}

ShippedDataManifest update_shipped_data_manifest(const fs::path& file) {
  const ShippedDataManifest old = read_shipped_data_manifest(file);
  return write_shipped_data_manifest(file, old.root_text, old.include, old.manifests, leading_comment(file));
}

bool ShippedDataResult::passed() const { return std::all_of(files.begin(), files.end(), row_passes); }

ShippedDataResult check_shipped_data(const ShippedDataSpec& spec) {
  fs::path root = spec.root;
  if (root.empty()) {
    for (const fs::path& m : spec.manifests)
      if (m.extension() != ".json" && fs::is_regular_file(m)) {
        const YAML::Node top = load_yaml_file(m);
        if (top["schema"] && top["schema"].IsScalar() && top["schema"].Scalar() == kShippedDataSchema) {
          root = read_shipped_data_manifest(m).root;
          break;
        }
      }
    if (root.empty()) root = fs::current_path();
  }
  Checker checker(root);
  for (const fs::path& m : spec.manifests) checker.check_manifest(m);
  return {std::move(checker).rows()};
}

ojson to_json(const ShippedDataResult& r) {
  ojson j;
  j["schema"] = "mmaemu-shipped-data-check/1";
  j["passed"] = r.passed();
  j["files"] = ojson::array();
  for (const CheckRow& c : r.files)
    j["files"].push_back({{"path", c.name},
                          {"expected", c.expected},
                          {"got", c.seen},
                          {"status", status_name(c.status)},
                          {"manifest", c.source},
                          {"reason", c.reason}});
  return j;
}

std::string render_table(const ShippedDataResult& r) {
  // Rows are grouped by the manifest that named them (the source up to its position or " (call").
  std::map<std::string, std::pair<size_t, size_t>> per_manifest;  // passed, failed
  std::vector<std::vector<std::string>> failed;
  for (const CheckRow& c : r.files) {
    const std::string manifest = c.source.substr(0, std::min(c.source.find(':'), c.source.find(" (")));
    auto& counts = per_manifest[manifest];
    if (c.status == Status::pass) {
      ++counts.first;
    } else {
      ++counts.second;
      failed.push_back({std::string(status_name(c.status)), c.name, short_sha(c.seen), short_sha(c.expected), c.reason});
    }
  }
  std::string out = "Shipped data: every shipped file against its manifest's sha256\n";
  for (const auto& [manifest, counts] : per_manifest)
    out += "  " + manifest + ": " + std::to_string(counts.first + counts.second) + " files, " +
           std::to_string(counts.second) + " failed\n";
  if (!failed.empty()) out += format_table({"status", "file", "got", "expected", "reason"}, failed, 90);
  out += std::string("shipped data ") + (r.passed() ? "PASSED" : "FAILED") + ": " + std::to_string(r.files.size()) +
         " files checked, " + std::to_string(failed.size()) + " failed\n";
  return out;
}

ShippedDataSpec shipped_data_spec_from_yaml(const YAML::Node& section, const fs::path& plan_file) {
  const std::string file = plan_file.string();
  static const Schema schema = {required_key("manifests", ValueType::sequence), optional_key("root", ValueType::directory)};
  const SchemaValues v = check_mapping(section, file, schema, "data section", plan_file.parent_path());
  ShippedDataSpec spec;
  for (const YAML::Node& item : v.at("manifests").node) {
    if (!item.IsScalar() || item.Scalar().empty()) throw InputError(where(file, item), "a manifest is a file path");
    const fs::path p = (plan_file.parent_path() / item.Scalar()).lexically_normal();
    std::error_code ec;  // a path the system cannot look up is not found, not a crash
    if (!fs::is_regular_file(p, ec)) throw InputError(where(file, item), "manifest not found at " + p.string());
    spec.manifests.push_back(p);
  }
  if (spec.manifests.empty()) throw InputError(v.at("manifests").where, "'manifests' lists no manifest");
  if (v.count("root")) {
    require_present(v.at("root"));
    spec.root = v.at("root").path;
  }
  return spec;
}

}  // namespace mmaemu::signoff
