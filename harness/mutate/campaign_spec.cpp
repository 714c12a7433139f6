#include "harness/mutate/campaign_spec.hpp"

#include <algorithm>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::mutate {
namespace {

const Schema& campaign_schema() {
  static const Schema s = {
      required_key("tier", ValueType::string),
      optional_key("description", ValueType::string),
      required_key("catalogue", ValueType::file).described_as("mutant catalogue"),
      required_key("catalogue_tiers", ValueType::string_list),
      optional_key("workdir", ValueType::directory).described_as("working directory"),
      optional_key("jobs", ValueType::integer),
      optional_key("timeout", ValueType::mapping),
      required_key("tests", ValueType::sequence),
      optional_key("device", ValueType::string).one_of({"cpu", "gpu"}),
      optional_key("variants", ValueType::mapping),
      optional_key("program", ValueType::string),
      optional_key("baseline", ValueType::file).described_as("committed kill matrix"),
      optional_key("quick", ValueType::mapping),
  };
  return s;
}

// The quick form (`--quick`, what the main job runs): a few mutants that stand for every part of
// the catalogue, each stopped at its first kill.
const Schema& quick_schema() {
  static const Schema s = {
      required_key("mutants", ValueType::string_list),
      optional_key("fast", ValueType::boolean),
  };
  return s;
}

const Schema& variants_schema() {
  static const Schema s = {
      required_key("build", ValueType::string_list),
      required_key("program", ValueType::string),
  };
  return s;
}

const Schema& timeout_schema() {
  static const Schema s = {
      optional_key("factor", ValueType::integer),
      optional_key("slack_seconds", ValueType::integer),
      optional_key("min_seconds", ValueType::integer),
      optional_key("confirm_factor", ValueType::integer),
  };
  return s;
}

const Schema& test_schema() {
  static const Schema s = {
      required_key("name", ValueType::string),
      required_key("command", ValueType::string_list),
  };
  return s;
}

using Values = std::vector<std::pair<std::string, std::string>>;

// `arg` with every {key} of `values` replaced; `known` names them in the error for any other.
std::string expand_arg(const std::string& arg, const Values& values, const std::string& where) {
  std::string s;
  for (size_t i = 0; i < arg.size();) {
    if (arg[i] != '{') {
      s += arg[i++];
      continue;
    }
    const size_t close = arg.find('}', i);
    if (close == std::string::npos) throw InputError(where, "unclosed '{' in argument '" + arg + "'");
    const std::string key = arg.substr(i + 1, close - i - 1);
    const auto it = std::find_if(values.begin(), values.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == values.end()) {
      std::string known;
      for (const auto& kv : values) known += (known.empty() ? "{" : ", {") + kv.first + "}";
      throw InputError(where, "unknown placeholder {" + key + "} in '" + arg + "'; known: " + known);
    }
    s += it->second;
    i = close + 1;
  }
  return s;
}

Values variant_values(const std::string& build, int id) { return {{"build", build}, {"id", std::to_string(id)}}; }

void check_name(const SchemaValue& v, const std::string& what) {
  const bool ok = std::all_of(v.text.begin(), v.text.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.';
  });
  if (!ok || v.text == "." || v.text == "..")
    throw InputError(v.where, what + " '" + v.text + "' may hold only letters, digits, '-', '_' and '.'");
}

}  // namespace

double TimeoutRule::seconds_for(double baseline_seconds) const {
  return std::max(min_seconds, factor * baseline_seconds + slack_seconds);
}

std::string CampaignSpec::tests_fingerprint() const {
  std::string s;
  for (const TestCommand& t : tests) {
    s += t.name + '\x1e';
    for (const std::string& a : t.argv) s += a + '\x1f';
  }
  return s;
}

CampaignSpec load_campaign(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::filesystem::path base = path.parent_path();
  const YAML::Node root = load_yaml_file(path);
  const SchemaValues v = check_mapping(root, file, campaign_schema(), "T4 tier file", base);
  CampaignSpec c;
  c.file = path;
  check_name(v.at("tier"), "tier name");
  c.tier = v.at("tier").text;
  if (v.count("description")) c.description = v.at("description").text;
  require_present(v.at("catalogue"));
  c.catalogue = v.at("catalogue").path;
  c.catalogue_tiers = v.at("catalogue_tiers").list;
  if (c.catalogue_tiers.empty()) throw InputError(v.at("catalogue_tiers").where, "'catalogue_tiers' must name a tier (cpu, gpu)");
  for (const std::string& t : c.catalogue_tiers)
    if (t != "cpu" && t != "gpu")
      throw InputError(v.at("catalogue_tiers").where, "'catalogue_tiers' holds '" + t + "'; allowed: cpu, gpu");
  if (v.count("workdir")) {
    require_present(v.at("workdir"));
    c.workdir = v.at("workdir").path;
  } else {
    c.workdir = base.empty() ? std::filesystem::path(".") : base;
  }
  c.workdir = std::filesystem::absolute(c.workdir).lexically_normal();
  if (!c.workdir.has_filename()) c.workdir = c.workdir.parent_path();  // "/repo/" -> "/repo"
  if (v.count("jobs")) {
    if (v.at("jobs").number == 0 || v.at("jobs").number > 256) throw InputError(v.at("jobs").where, "'jobs' must be from 1 to 256");
    c.jobs = static_cast<unsigned>(v.at("jobs").number);
  }
  if (v.count("timeout")) {
    const SchemaValues t = check_mapping(v.at("timeout").node, file, timeout_schema(), "timeout", base);
    if (t.count("factor")) c.timeout.factor = static_cast<double>(t.at("factor").number);
    if (t.count("slack_seconds")) c.timeout.slack_seconds = static_cast<double>(t.at("slack_seconds").number);
    if (t.count("min_seconds")) c.timeout.min_seconds = static_cast<double>(t.at("min_seconds").number);
    if (t.count("confirm_factor")) {
      c.timeout.confirm_factor = static_cast<double>(t.at("confirm_factor").number);
      if (c.timeout.confirm_factor < 2)
        throw InputError(t.at("confirm_factor").where, "'confirm_factor' must be at least 2");
    }
    if (c.timeout.factor < 1) throw InputError(t.at("factor").where, "'factor' must be at least 1");
  }
  std::set<std::string> names;
  for (const YAML::Node& entry : v.at("tests").node) {
    const SchemaValues tv = check_mapping(entry, file, test_schema(), "test", base);
    TestCommand t;
    t.where = where(file, entry);
    check_name(tv.at("name"), "test name");
    t.name = tv.at("name").text;
    t.argv = tv.at("command").list;
    if (t.argv.empty() || t.argv.front().empty()) throw InputError(tv.at("command").where, "'command' must name a program");
    if (!names.insert(t.name).second) throw InputError(tv.at("name").where, "test name '" + t.name + "' is used twice");
    expand(t, Placeholders{"m", "b", "s"});  // rejects unknown placeholders now, before anything runs
    c.tests.push_back(std::move(t));
  }
  if (c.tests.empty()) throw InputError(v.at("tests").where, "a T4 tier needs at least one test");
  if (v.count("device")) c.needs_gpu = v.at("device").text == "gpu";
  if (v.count("baseline")) {
    require_present(v.at("baseline"));
    c.baseline = v.at("baseline").path;
  }
  if (v.count("quick")) {
    const SchemaValues q = check_mapping(v.at("quick").node, file, quick_schema(), "quick", base);
    QuickForm form;
    form.where = v.at("quick").where;
    form.mutants = q.at("mutants").list;
    if (form.mutants.empty()) throw InputError(q.at("mutants").where, "'mutants' must name at least one mutant");
    if (q.count("fast")) form.fast = q.at("fast").flag;
    c.quick = std::move(form);
  }
  if (v.count("variants")) {
    const SchemaValues vv = check_mapping(v.at("variants").node, file, variants_schema(), "variants", base);
    VariantSpec spec;
    spec.where = v.at("variants").where;
    spec.build = vv.at("build").list;
    spec.program = vv.at("program").text;
    if (spec.build.empty() || spec.build.front().empty())
      throw InputError(vv.at("build").where, "'build' must name a program");
    if (spec.program.empty()) throw InputError(vv.at("program").where, "'program' must name the variant's path");
    if (spec.program.find("{id}") == std::string::npos)
      throw InputError(vv.at("program").where, "'program' must hold {id}: every mutant has its own variant");
    for (const std::string& a : spec.build) expand_arg(a, variant_values("b", 1), vv.at("build").where);
    expand_arg(spec.program, variant_values("b", 1), vv.at("program").where);
    c.variants = std::move(spec);
  }
  if (v.count("program")) {
    c.program = v.at("program").text;
    c.program_where = v.at("program").where;
    if (c.variants) throw InputError(c.program_where, "'program' and 'variants' exclude each other: variants name their own");
    expand_arg(c.program, {{"build", "b"}}, c.program_where);
  } else if (!c.variants) {
    throw InputError(where(file, root), "a T4 tier needs 'program' (a mutant program such as "
                                        "\"{build}/harness/cli/mmaemu-mutant\") or 'variants': the shipped "
                                        "program holds no mutant");
  }
  return c;
}

std::vector<std::string> expand(const TestCommand& test, const Placeholders& p) {
  const Values values = {{"mmaemu", p.mmaemu}, {"build", p.build}, {"scratch", p.scratch}};
  std::vector<std::string> out;
  for (const std::string& arg : test.argv) out.push_back(expand_arg(arg, values, test.where));
  return out;
}

std::vector<std::string> expand_build(const VariantSpec& v, const std::string& build, int id) {
  std::vector<std::string> out;
  for (const std::string& arg : v.build) out.push_back(expand_arg(arg, variant_values(build, id), v.where));
  return out;
}

std::string expand_program(const VariantSpec& v, const std::string& build, int id) {
  return expand_arg(v.program, variant_values(build, id), v.where);
}

std::string expand_program(const CampaignSpec& c, const std::string& build) {
  return expand_arg(c.program, {{"build", build}}, c.program_where);
}

}  // namespace mmaemu::mutate
