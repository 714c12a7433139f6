#include "harness/reportio/differences_output.hpp"

#include "harness/reportio/normalise.hpp"

namespace mmaemu::reportio {
namespace {

std::string value_text(const nlohmann::json& v) {
  constexpr size_t kMax = 80;
  std::string s = v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (s.size() > kMax) s = s.substr(0, kMax - 3) + "...";
  return s;
}

}  // namespace

std::string format_difference(const Difference& d) {
  const std::string where = d.path.empty() ? "(the document)" : d.path;
  const bool file = d.before.is_null() && d.after.is_null();  // a file on one side only
  switch (d.kind) {
    case Difference::Kind::changed: return where + ": " + value_text(d.before) + " before, " + value_text(d.after) + " after";
    case Difference::Kind::added: return where + ": only after" + (file ? "" : ", " + value_text(d.after));
    case Difference::Kind::removed: return where + ": only before" + (file ? "" : ", " + value_text(d.before));
    case Difference::Kind::length:
      return where + ": " + value_text(d.before) + " elements before, " + value_text(d.after) + " after";
  }
  return where;
}

std::string format_differences(const std::vector<Difference>& diffs, size_t max_lines) {
  std::string out = std::to_string(diffs.size()) + (diffs.size() == 1 ? " difference\n" : " differences\n");
  for (size_t i = 0; i < diffs.size() && i < max_lines; ++i) out += format_difference(diffs[i]) + "\n";
  if (diffs.size() > max_lines) out += "... and " + std::to_string(diffs.size() - max_lines) + " more\n";
  return out;
}

std::string differences_json(const std::vector<Difference>& diffs, const std::string& before, const std::string& after) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const Difference& d : diffs)
    list.push_back({{"path", d.path}, {"kind", kind_name(d.kind)}, {"before", d.before}, {"after", d.after}});
  nlohmann::ordered_json j;
  j["schema"] = "mmaemu-compare/1";
  j["before"] = before;
  j["after"] = after;
  j["count"] = diffs.size();
  j["dropped"] = drop_rules_json();
  j["differences"] = std::move(list);
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace mmaemu::reportio
