#include "harness/cublaslt/lt_inputs.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>

#include "harness/core/errors.hpp"
#include "harness/cublaslt/lt_plan.hpp"
#include "harness/cublaslt/lt_recording.hpp"

namespace mmaemu::lt {

size_t write_cublaslt_inputs(const std::filesystem::path& plan_file, const std::filesystem::path& out_dir,
                             const std::string& command_line, const std::vector<size_t>& only) {
  const LtPlan plan = load_plan(plan_file);
  for (size_t id : only)
    if (id >= plan.calls.size() || !plan.calls[id].run)
      throw InputError("--call", std::to_string(id) + " is not a call " + plan_file.string() + " runs (" +
                                     std::to_string(plan.calls.size()) + " calls planned)");
  Recording rec;
  rec.dir = out_dir;
  rec.plan = plan.name;
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char date[32];
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  rec.provenance = {{"command", command_line}, {"date_utc", date}, {"inputs_only", "true"}};
  std::filesystem::create_directories(out_dir / "ops");
  for (size_t i = 0; i < plan.calls.size(); ++i) {
    const PlannedCall& p = plan.calls[i];
    if (!p.run || (!only.empty() && std::find(only.begin(), only.end(), i) == only.end())) continue;
    RecordedCall rc;
    rc.id = i;
    rc.group = p.group;
    rc.call = p.call;
    rc.family = p.family;
    rc.seed = p.seed;
    const LtOperands ops = generate_operands(p.call, p.family, p.seed);
    rc.operands_sha256 = operands_sha256(p.call, ops);
    write_operands(out_dir / "ops", i, p.call, ops);
    rc.operands_stored = true;
    rec.calls.push_back(std::move(rc));
  }
  write_recording(rec);
  return rec.calls.size();
}

}  // namespace mmaemu::lt
