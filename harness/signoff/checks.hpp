// The sign-off's evidence checks as entries of its status record: each runs its check (preflight,
// device code, shipped data), writes the check's own JSON beside the record and returns the entry
// and the table a person reads.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "harness/signoff/check_table.hpp"
#include "harness/signoff/plan.hpp"
#include "harness/signoff/status.hpp"

namespace mmaemu::signoff {

struct CheckEntry {
  StepRecord record;
  std::string table;
};

// `rows` receives the preflight's rows by check name (the steps' premises).
CheckEntry preflight_entry(const SignoffPlan& plan, const std::filesystem::path& out,
                           std::map<std::string, CheckRow>& rows);
CheckEntry device_code_entry(const SignoffPlan& plan, const std::filesystem::path& out,
                             const std::filesystem::path& build_dir);
CheckEntry data_entry(const SignoffPlan& plan, const std::filesystem::path& out);

// --update-records: rewrites the committed records the device-code and data checks compare with.
// Returns one line per record written.
std::string update_records(const SignoffPlan& plan, const std::filesystem::path& build_dir);

}  // namespace mmaemu::signoff
