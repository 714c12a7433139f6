// What the evidence checks of a sign-off have in common: a row per thing checked (PASS, FAIL or N/A,
// with the value seen beside the value expected and the file that named the expectation), a plain-text
// table a person reads, and the JSON written atomically beside it.
#pragma once
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmaemu::signoff {

// N/A: the check could not be evaluated here (no GPU, a build without CUDA, no expectation to compare).
enum class Status { pass, fail, na };

std::string_view status_name(Status s);  // "PASS", "FAIL", "N/A"

struct CheckRow {
  std::string name;      // what was checked: "driver", "tiers/T2.yaml", "mmaemu: mmaemu.3.sm_90a.cubin"
  Status status = Status::na;
  std::string seen;      // the value found on this machine, in this build or on disk
  std::string expected;  // what the sources expect, or why nothing is expected
  std::string source;    // the file (file:line:column for YAML) that named the expectation
  std::string reason;    // why FAIL or N/A; empty for a plain PASS
  bool required = true;  // a FAIL or N/A of a row not required is reported but does not fail the check
};

// PASS, or a row not required.
bool row_passes(const CheckRow& r);

// Columns of a plain-text table: every cell of a column padded to its widest (at most `max_width`
// characters; longer cells are shortened in the middle with "...", so both ends stay readable).
std::string format_table(const std::vector<std::string>& headers, const std::vector<std::vector<std::string>>& rows,
                         size_t max_width = 60);

// The first 12 hex digits of a sha256, for tables (the JSON keeps all 64); anything else as it is.
std::string short_sha(const std::string& sha256);

// Writes `j` (indented, with a final newline) to `file` atomically.
void write_json(const std::filesystem::path& file, const nlohmann::ordered_json& j);

// `p` relative to `base` when it lies below it, else `p` as it is: the names the tables and the JSON use.
std::string display_path(const std::filesystem::path& p, const std::filesystem::path& base);

}  // namespace mmaemu::signoff
