#include "harness/mutate/catalogue.hpp"

#include <map>

#include "harness/core/errors.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu::mutate {
namespace {

const Schema& entry_schema() {
  static const Schema s = {
      required_key("id", ValueType::integer),
      required_key("name", ValueType::string),
      required_key("target", ValueType::string),
      required_key("fault", ValueType::string),
      required_key("expect", ValueType::string).one_of({"killed", "equivalent", "identity"}),
      optional_key("justification", ValueType::string),
      required_key("tier", ValueType::string).one_of({"cpu", "gpu"}),
      required_key("part", ValueType::string),
      optional_key("patch", ValueType::mapping_or_sequence),  // required by the weaver, which owns it
  };
  return s;
}

// What the weaver (mutants/overlay) reads; checked here too, so that a campaign names a bad entry.
const Schema& patch_schema() {
  static const Schema s = {
      optional_key("kind", ValueType::string).one_of({"statement", "expression", "before"}),
      required_key("find", ValueType::string),
      optional_key("replace", ValueType::string),
  };
  return s;
}

Expectation parse_expectation(const std::string& s) {
  if (s == "equivalent") return Expectation::equivalent;
  if (s == "identity") return Expectation::identity;
  return Expectation::killed;
}

}  // namespace

const char* to_string(Expectation e) {
  switch (e) {
    case Expectation::killed: return "killed";
    case Expectation::equivalent: return "equivalent";
    case Expectation::identity: return "identity";
  }
  return "?";
}

std::string Mutant::fingerprint() const {
  // Unit separators keep "a|b" + "c" apart from "a" + "b|c".
  const char sep = '\x1f';
  return std::to_string(id) + sep + name + sep + target + sep + fault + sep + to_string(expect) + sep + tier + sep +
         patch;
}

std::vector<Mutant> load_catalogue(const std::filesystem::path& path) {
  const std::string file = path.string();
  const YAML::Node root = load_yaml_file(path);
  const Schema top_schema = {required_key("parts", ValueType::mapping), required_key("mutants", ValueType::sequence)};
  const SchemaValues top = check_mapping(root, file, top_schema, "mutant catalogue", path.parent_path());
  // The parts of the code the mutants fall in (name: what it covers), the one list a quick form is
  // checked against (campaign.cpp: it must hold a mutant of every part of its tiers).
  std::map<std::string, size_t> parts;
  std::string part_names;
  for (const auto& kv : top.at("parts").node) {
    const std::string name = kv.first.as<std::string>();
    if (!kv.second.IsScalar() || kv.second.as<std::string>().empty())
      throw InputError(where(file, kv.second), "part '" + name + "' says what it covers (a string)");
    parts.emplace(name, 0);
    part_names += (part_names.empty() ? "" : ", ") + name;
  }
  std::vector<Mutant> mutants;
  std::map<int, std::string> ids;
  std::map<std::string, std::string> names;
  for (const YAML::Node& entry : top.at("mutants").node) {
    const SchemaValues v = check_mapping(entry, file, entry_schema(), "mutant", path.parent_path());
    Mutant m;
    m.where = where(file, entry);
    const SchemaValue& id = v.at("id");
    if (id.number == 0 || id.number > 1000000) throw InputError(id.where, "'id' must be a whole number from 1 to 1000000");
    m.id = static_cast<int>(id.number);
    m.name = v.at("name").text;
    m.target = v.at("target").text;
    m.fault = v.at("fault").text;
    m.expect = parse_expectation(v.at("expect").text);
    m.tier = v.at("tier").text;
    m.part = v.at("part").text;
    const auto part = parts.find(m.part);
    if (part == parts.end())
      throw InputError(v.at("part").where, "unknown part '" + m.part + "' (the catalogue's parts: " + part_names + ")");
    ++part->second;
    if (v.count("justification")) m.justification = v.at("justification").text;
    if (v.count("patch")) {
      // One patch, or one per place the mutant changes.
      const YAML::Node& node = v.at("patch").node;
      std::vector<YAML::Node> places;
      if (node.IsMap()) places.push_back(node);
      else for (const YAML::Node& one : node) places.push_back(one);
      for (const YAML::Node& one : places) {
        const SchemaValues p = check_mapping(one, file, patch_schema(), "patch", path.parent_path());
        m.patch += (p.count("kind") ? p.at("kind").text : "statement") + '\x1f' + p.at("find").text + '\x1f' +
                   (p.count("replace") ? p.at("replace").text : "(identity)") + '\x1e';
      }
    }
    if (m.expect != Expectation::killed && m.justification.empty())
      throw InputError(v.at("expect").where, "a mutant expected " + std::string(to_string(m.expect)) +
                                                 " needs a 'justification' (why it cannot be told apart)");
    if (!ids.emplace(m.id, m.where).second)
      throw InputError(id.where, "mutant id " + std::to_string(m.id) + " is used twice (first at " + ids[m.id] + ")");
    if (!names.emplace(m.name, m.where).second)
      throw InputError(v.at("name").where, "mutant name '" + m.name + "' is used twice (first at " + names[m.name] + ")");
    mutants.push_back(std::move(m));
  }
  if (mutants.empty()) throw InputError(top.at("mutants").where, "the catalogue lists no mutants");
  for (const auto& [name, count] : parts)
    if (count == 0) throw InputError(top.at("parts").where, "part '" + name + "' has no mutant");
  return mutants;
}

}  // namespace mmaemu::mutate
