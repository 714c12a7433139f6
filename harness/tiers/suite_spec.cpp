#include "harness/tiers/suite_spec.hpp"

#include <stdexcept>

namespace mmaemu {
namespace {

const SchemaValue& get(const SuiteSpec& s, const std::string& key) {
  const auto it = s.values.find(key);
  if (it == s.values.end())
    throw std::logic_error("suite " + s.id() + " (" + s.kind + ") has no value for '" + key + "'");
  return it->second;
}

}  // namespace

const std::string& SuiteSpec::text(const std::string& key) const { return get(*this, key).text; }

std::string SuiteSpec::text(const std::string& key, const std::string& fallback) const {
  return has(key) ? get(*this, key).text : fallback;
}

const std::filesystem::path& SuiteSpec::path(const std::string& key) const { return get(*this, key).path; }

bool SuiteSpec::flag(const std::string& key, bool fallback) const { return has(key) ? get(*this, key).flag : fallback; }

uint64_t SuiteSpec::number(const std::string& key, uint64_t fallback) const {
  return has(key) ? get(*this, key).number : fallback;
}

const std::vector<std::string>& SuiteSpec::list(const std::string& key) const { return get(*this, key).list; }

std::vector<const SchemaValue*> SuiteSpec::missing_inputs() const {
  std::vector<const SchemaValue*> out;
  for (const auto& [key, v] : values)
    if (!v.exists) out.push_back(&v);
  return out;
}

}  // namespace mmaemu
