// The sign-off's report: the one short table a person reads (an entry per check and step), and its
// renderings beside signoff.json: signoff.md (the table, then every check's own table) and
// signoff.xml (JUnit: a testcase per entry). Written atomically.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "harness/signoff/status.hpp"

namespace mmaemu::signoff {

// The verdict table: entry, kind, required, verdict, suites pass/fail/skip, compared, mismatched,
// seconds; then the reason of every entry that did not pass.
std::string verdict_table(const SignoffRecord& record);

// signoff.json, signoff.md (with `check_tables`, the checks' own tables, appended) and signoff.xml.
void write_signoff_reports(const SignoffRecord& record, const std::filesystem::path& dir,
                           const std::vector<std::string>& check_tables);

}  // namespace mmaemu::signoff
