#include "harness/signoff/check_table.hpp"

#include <algorithm>

#include "harness/core/atomic_file.hpp"

namespace mmaemu::signoff {

std::string_view status_name(Status s) {
  switch (s) {
    case Status::pass: return "PASS";
    case Status::fail: return "FAIL";
    case Status::na: return "N/A";
  }
  return "?";
}

bool row_passes(const CheckRow& r) { return r.status == Status::pass || !r.required; }

namespace {

std::string shorten(const std::string& cell, size_t max_width) {
  if (cell.size() <= max_width || max_width < 8) return cell;
  const size_t keep = max_width - 3;
  return cell.substr(0, keep - keep / 2) + "..." + cell.substr(cell.size() - keep / 2);
}

}  // namespace

std::string format_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                         size_t max_width) {
  std::vector<std::vector<std::string>> cells;
  cells.reserve(rows.size() + 1);
  cells.push_back(headers);
  for (const auto& r : rows) cells.push_back(r);
  std::vector<size_t> width(headers.size(), 0);
  for (auto& r : cells) {
    r.resize(headers.size());
    for (size_t c = 0; c < r.size(); ++c) {
      r[c] = shorten(r[c], max_width);
      width[c] = std::max(width[c], r[c].size());
    }
  }
  std::string out;
  for (const auto& r : cells) {
    std::string line;
    for (size_t c = 0; c < r.size(); ++c) {
      line += r[c];
      if (c + 1 < r.size()) line += std::string(width[c] - r[c].size() + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string short_sha(const std::string& sha256) { return sha256.size() == 64 ? sha256.substr(0, 12) : sha256; }

void write_json(const std::filesystem::path& file, const nlohmann::ordered_json& j) {
  write_file_atomic(file, j.dump(2) + "\n");
}

std::string display_path(const std::filesystem::path& p, const std::filesystem::path& base) {
  namespace fs = std::filesystem;
  const fs::path abs = fs::absolute(p).lexically_normal();
  const fs::path rel = abs.lexically_relative(fs::absolute(base).lexically_normal());
  if (rel.empty() || *rel.begin() == "..") return p.lexically_normal().string();
  return rel.string();
}

}  // namespace mmaemu::signoff
