#include "harness/signoff/checks.hpp"

#include "harness/core/host_info.hpp"

namespace mmaemu::signoff {
namespace {

namespace fs = std::filesystem;

// A check's entry from its verdict: PASS passes, N/A that is allowed is a skip, anything else fails.
StepRecord check_record(const std::string& name, bool passed, Status status, const std::string& reason,
                        const std::string& report, const std::string& started) {
  StepRecord r;
  r.name = name;
  r.kind = "check";
  r.start_utc = started;
  r.end_utc = utc_now_iso8601();
  r.verdict = !passed ? StepVerdict::fail : status == Status::na ? StepVerdict::skip : StepVerdict::pass;
  r.reason = reason;
  r.reports = {report};
  return r;
}

// The rows that did not pass, for the entry's reason.
std::string failing_rows(const std::vector<CheckRow>& rows) {
  std::string s;
  size_t shown = 0, more = 0;
  for (const CheckRow& r : rows) {
    if (r.status == Status::pass || !r.required) continue;
    if (shown++ >= 4) {
      ++more;
      continue;
    }
    s += (s.empty() ? "" : "; ") + r.name + " " + std::string(status_name(r.status)) + " (seen '" + r.seen +
         "', expected '" + r.expected + "')";
  }
  if (more) s += "; and " + std::to_string(more) + " more";
  return s;
}

template <class Rows>
void count_rows(const Rows& rows, StepRecord& r) {
  for (const CheckRow& row : rows) {
    ++r.compared;
    if (!row_passes(row)) ++r.mismatched;
  }
}

}  // namespace

CheckEntry preflight_entry(const SignoffPlan& plan, const fs::path& out, std::map<std::string, CheckRow>& rows) {
  const std::string started = utc_now_iso8601();
  const PreflightResult result = run_preflight(plan.preflight);
  write_json(out / "preflight.json", to_json(result));
  for (const CheckRow& row : result.checks) rows[row.name] = row;
  CheckEntry e{check_record("preflight", result.passed(), Status::pass, failing_rows(result.checks), "preflight.json", started),
               "preflight\n" + render_table(result)};
  count_rows(result.checks, e.record);
  return e;
}

CheckEntry device_code_entry(const SignoffPlan& plan, const fs::path& out, const fs::path& build_dir) {
  const std::string started = utc_now_iso8601();
  DeviceCodeSpec spec = *plan.device_code;
  spec.build_dir = build_dir;
  const DeviceCodeResult result = run_device_code_check(spec);
  write_json(out / "device-code.json", to_json(result));
  const std::string reason = result.status == Status::na ? result.reason : failing_rows(result.checks);
  CheckEntry e{check_record("device-code", result.passed(), result.status, reason, "device-code.json", started),
               "device code\n" + render_table(result)};
  count_rows(result.checks, e.record);
  return e;
}

CheckEntry data_entry(const SignoffPlan& plan, const fs::path& out) {
  const std::string started = utc_now_iso8601();
  const ShippedDataResult result = check_shipped_data(plan.data);
  write_json(out / "data.json", to_json(result));
  CheckEntry e{check_record("data", result.passed(), Status::pass, failing_rows(result.files), "data.json", started),
               "shipped data\n" + render_table(result)};
  count_rows(result.files, e.record);
  return e;
}

std::string update_records(const SignoffPlan& plan, const fs::path& build_dir) {
  std::string lines;
  if (plan.device_code) {
    DeviceCodeSpec spec = *plan.device_code;
    spec.build_dir = build_dir;
    const DeviceCodeRecord record = update_device_code_record(spec);
    lines += "wrote " + spec.record.string() + ": " + std::to_string(record.modules.size()) + " modules\n";
  }
  // The release manifests among the plan's (fixture manifests and recordings are made by their recorders).
  for (const fs::path& m : plan.data.manifests) {
    const YAML::Node root = YAML::LoadFile(m.string());
    if (!root.IsMap() || !root["schema"] || root["schema"].as<std::string>() != kShippedDataSchema) continue;
    const ShippedDataManifest written = update_shipped_data_manifest(m);
    lines += "wrote " + m.string() + ": " + std::to_string(written.files.size()) + " files\n";
  }
  return lines;
}

}  // namespace mmaemu::signoff
