#include "bench/t6/baseline.hpp"

#include <map>

#include "harness/core/errors.hpp"
#include "harness/core/json_integer.hpp"

namespace mmaemu::t6 {

size_t BaselineResult::regressions() const {
  size_t n = 0;
  for (const auto& c : compared) n += c.regression;
  return n;
}

bool is_regression(const bench::SampleStats& before, const bench::SampleStats& now, double min_drop_percent) {
  if (!(before.median > 0)) return false;
  const bool beyond_noise = now.p90 < before.p10;
  const double drop_percent = (1 - now.median / before.median) * 100;
  return beyond_noise && drop_percent > min_drop_percent;
}

nlohmann::json stats_json(const bench::SampleStats& s) {
  return {{"count", s.count}, {"median", s.median}, {"min", s.min}, {"max", s.max}, {"p10", s.p10}, {"p90", s.p90}};
}

bench::SampleStats stats_from_json(const nlohmann::json& j) {
  bench::SampleStats s;
  s.count = json_integer<size_t>(j.at("count"));
  s.median = j.at("median").get<double>();
  s.min = j.at("min").get<double>();
  s.max = j.at("max").get<double>();
  s.p10 = j.at("p10").get<double>();
  s.p90 = j.at("p90").get<double>();
  return s;
}

nlohmann::json rows_json(const std::vector<RateRow>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const RateRow& r : rows)
    out.push_back({{"section", r.section},
                   {"key", r.key},
                   {"label", r.label},
                   {"unit", r.unit},
                   {"status", r.status},
                   {"reason", r.reason},
                   {"rate", r.rate ? stats_json(*r.rate) : nlohmann::json(nullptr)}});
  return out;
}

std::vector<RateRow> rows_from_json(const nlohmann::json& rows) {
  std::vector<RateRow> out;
  for (const auto& j : rows) {
    RateRow r;
    r.section = j.at("section").get<std::string>();
    r.key = j.at("key").get<std::string>();
    r.label = j.at("label").get<std::string>();
    r.unit = j.at("unit").get<std::string>();
    r.status = j.at("status").get<std::string>();
    r.reason = j.at("reason").get<std::string>();
    if (!j.at("rate").is_null()) r.rate = stats_from_json(j.at("rate"));
    out.push_back(std::move(r));
  }
  return out;
}

BaselineResult compare_with_baseline(const std::vector<RateRow>& now, const nlohmann::json& baseline,
                                     const std::string& file, double min_drop_percent) {
  std::vector<RateRow> before;
  try {
    if (baseline.value("schema", "") != "mmaemu-bench-t6/1")
      throw InputError(file, "not a T6 report (schema '" + baseline.value("schema", "") + "', expected mmaemu-bench-t6/1)");
    before = rows_from_json(baseline.at("rows"));
  } catch (const nlohmann::json::exception& e) {
    throw InputError(file, std::string("not a usable T6 report: ") + e.what());
  }
  BaselineResult r;
  r.file = file;
  r.min_drop_percent = min_drop_percent;
  std::map<std::string, const RateRow*> current;
  for (const RateRow& row : now)
    if (row.rate) current[row.key] = &row;
  for (const RateRow& old : before) {
    if (!old.rate) continue;
    const auto it = current.find(old.key);
    if (it == current.end()) {
      r.not_measured_now.push_back(old.key);
      continue;
    }
    Comparison c;
    c.key = old.key;
    c.label = it->second->label;
    c.unit = it->second->unit;
    c.before = *old.rate;
    c.now = *it->second->rate;
    c.ratio = c.before.median > 0 ? c.now.median / c.before.median : 0;
    c.regression = is_regression(c.before, c.now, min_drop_percent);
    r.compared.push_back(std::move(c));
  }
  return r;
}

}  // namespace mmaemu::t6
