#include "harness/reportio/compare.hpp"

#include <algorithm>
#include <cctype>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/reportio/json_file.hpp"
#include "harness/reportio/normalise.hpp"

namespace mmaemu::reportio {
namespace fs = std::filesystem;
namespace {

using nlohmann::json;

bool plain_key(const std::string& k) {
  if (k.empty() || std::isdigit(static_cast<unsigned char>(k[0]))) return false;
  return std::all_of(k.begin(), k.end(), [](unsigned char c) { return std::isalnum(c) || c == '_' || c == '-'; });
}

// `.key`, or `["H200/fp16"]` for a key that is not a plain word.
std::string member_path(const std::string& path, const std::string& key) {
  if (!plain_key(key)) return path + "[" + json(key).dump() + "]";
  return path.empty() ? key : path + "." + key;
}

void compare_values(const json& a, const json& b, const std::string& path, std::vector<Difference>& out) {
  using K = Difference::Kind;
  if (a.is_object() && b.is_object()) {
    std::set<std::string> keys;
    for (const auto& [k, v] : a.items()) keys.insert(k);
    for (const auto& [k, v] : b.items()) keys.insert(k);
    for (const std::string& k : keys) {
      const std::string p = member_path(path, k);
      if (!b.contains(k)) out.push_back({K::removed, p, a.at(k), nullptr});
      else if (!a.contains(k)) out.push_back({K::added, p, nullptr, b.at(k)});
      else compare_values(a.at(k), b.at(k), p, out);
    }
    return;
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) out.push_back({K::length, path, a.size(), b.size()});
    for (size_t i = 0; i < std::min(a.size(), b.size()); ++i)
      compare_values(a[i], b[i], path + "[" + std::to_string(i) + "]", out);
    return;
  }
  if (a != b) out.push_back({K::changed, path, a, b});  // numbers compare by value: 2 == 2.0
}

// Every *.json file under `dir`, relative to it, with "/" between folders on every system.
std::set<std::string> json_files(const fs::path& dir) {
  if (!fs::is_directory(dir)) throw InputError(dir.string(), "no such directory");
  std::set<std::string> files;
  try {
    for (const fs::directory_entry& e : fs::recursive_directory_iterator(dir))
      // Google Benchmark's own output (*.gbench.json) is timings alone; the T6 report beside it holds
      // what was run.
      if (e.is_regular_file() && e.path().extension() == ".json" &&
          !e.path().filename().string().ends_with(".gbench.json"))
        files.insert(fs::relative(e.path(), dir).generic_string());
  } catch (const fs::filesystem_error& e) {
    throw InputError(dir.string(), std::string("cannot list: ") + e.what());
  }
  return files;
}

std::vector<Difference> with_prefix(std::vector<Difference> diffs, const std::string& file) {
  for (Difference& d : diffs) d.path = d.path.empty() ? file : file + ": " + d.path;
  return diffs;
}

}  // namespace

const char* kind_name(Difference::Kind k) {
  switch (k) {
    case Difference::Kind::changed: return "changed";
    case Difference::Kind::added: return "added";
    case Difference::Kind::removed: return "removed";
    case Difference::Kind::length: return "length";
  }
  return "?";
}

std::vector<Difference> compare_json(const json& before, const json& after) {
  std::vector<Difference> out;
  compare_values(normalise(before), normalise(after), "", out);
  return out;
}

std::vector<Difference> compare_directories(const fs::path& before, const fs::path& after) {
  const std::set<std::string> a = json_files(before), b = json_files(after);
  std::set<std::string> all = a;
  all.insert(b.begin(), b.end());
  std::vector<Difference> out;
  for (const std::string& f : all) {
    if (!b.count(f)) {
      out.push_back({Difference::Kind::removed, f, nullptr, nullptr});
    } else if (!a.count(f)) {
      out.push_back({Difference::Kind::added, f, nullptr, nullptr});
    } else {
      const auto diffs = with_prefix(compare_json(read_json_file(before / f), read_json_file(after / f)), f);
      out.insert(out.end(), diffs.begin(), diffs.end());
    }
  }
  return out;
}

std::vector<Difference> compare_paths(const fs::path& before, const fs::path& after) {
  for (const fs::path& p : {before, after})
    if (!fs::exists(p)) throw InputError(p.string(), "no such file or directory");
  const bool dirs = fs::is_directory(before);
  if (dirs != fs::is_directory(after))
    throw InputError((dirs ? after : before).string(), "is a file, but " + (dirs ? before : after).string() + " is a directory");
  if (dirs) return compare_directories(before, after);
  return compare_json(read_json_file(before), read_json_file(after));
}

}  // namespace mmaemu::reportio
