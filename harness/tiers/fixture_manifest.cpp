#include "harness/tiers/fixture_manifest.hpp"

#include <algorithm>
#include <set>

#include "harness/core/errors.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/scale_operands.hpp"
#include "harness/core/sha256.hpp"
#include "generators/families.hpp"
#include "harness/core/yaml_schema.hpp"

namespace mmaemu {
namespace {

constexpr const char* kSchemaName = "mmaemu-fixtures/1";
constexpr std::array<const char*, 4> kRoles = {"a", "b", "c", "d"};

const Schema& manifest_schema() {
  static const Schema s = {
      required_key("schema", ValueType::string).one_of({kSchemaName}),
      required_key("set", ValueType::string),
      required_key("arch", ValueType::string),
      required_key("recorded", ValueType::mapping),
      required_key("instructions", ValueType::sequence),
      optional_key("source", ValueType::string).one_of({"hardware", "model"}),
  };
  return s;
}

const Schema& instruction_schema() {
  static const Schema s = {
      required_key("instr", ValueType::string),
      required_key("tiles", ValueType::integer),
      required_key("families", ValueType::sequence),
      required_key("files", ValueType::mapping),
  };
  return s;
}

const Schema& family_schema() {
  static const Schema s = {
      required_key("name", ValueType::string),
      required_key("first", ValueType::integer),
      required_key("last", ValueType::integer),
  };
  return s;
}

constexpr std::array<const char*, 2> kScaleRoles = {"sa", "sb"};

const Schema& files_schema() {
  static const Schema s = [] {
    Schema out;
    for (const char* role : kRoles) out.push_back(required_key(role, ValueType::mapping));
    for (const char* role : kScaleRoles) out.push_back(optional_key(role, ValueType::mapping));
    return out;
  }();
  return s;
}

const Schema& file_schema() {
  static const Schema s = {
      required_key("path", ValueType::file).described_as("fixture file"),
      required_key("sha256", ValueType::string),
  };
  return s;
}

const ref::InstructionModel& model_of(ref::Arch arch, const SchemaValue& instr) {
  try {
    return ref::lookup(arch, instr.text);
  } catch (const ref::UnsupportedInstruction& e) {
    throw InputError(instr.where, e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(instr.where, e.what());
  }
}

std::vector<FixtureFamily> load_families(const SchemaValue& families, size_t tiles, const std::string& file,
                                         const std::filesystem::path& base) {
  std::vector<FixtureFamily> out;
  std::set<std::string> names;
  size_t next = 0;  // families are contiguous: each starts where the previous ended
  for (const YAML::Node& entry : families.node) {
    const SchemaValues v = check_mapping(entry, file, family_schema(), "family", base);
    FixtureFamily f{v.at("name").text, v.at("first").number, v.at("last").number};
    // The recorder names the generators' families, `mmaemu probe` its experiments ("probe-..."); another
    // name is a typo, and its outputs would be counted under a group no tier or report knows.
    if (!gen::parse_family(f.name) && f.name.rfind("probe-", 0) != 0) {
      std::string known;
      for (gen::Family k : gen::all_families()) known += (known.empty() ? "" : ", ") + std::string(gen::family_name(k));
      throw InputError(v.at("name").where, "unknown input family '" + f.name + "' (known: " + known + ", probe-*)");
    }
    if (f.first != next)
      throw InputError(v.at("first").where, "family '" + f.name + "' starts at tile " + std::to_string(f.first) +
                                                "; families must cover the tiles in order, so it should start at " +
                                                std::to_string(next));
    if (f.last <= f.first || f.last > tiles)
      throw InputError(v.at("last").where, "family '" + f.name + "' ends at tile " + std::to_string(f.last) +
                                               "; it must end after " + std::to_string(f.first) + " and at most at " +
                                               std::to_string(tiles));
    if (!names.insert(f.name).second) throw InputError(v.at("name").where, "family '" + f.name + "' is listed twice");
    next = f.last;
    out.push_back(std::move(f));
  }
  if (next != tiles)
    throw InputError(families.where, "families cover tiles [0, " + std::to_string(next) + ") of " + std::to_string(tiles));
  return out;
}

bool is_sha256_hex(const std::string& s) {
  return s.size() == 64 &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

FixtureFile load_file(const YAML::Node& node, const std::string& file, const std::filesystem::path& base) {
  const SchemaValues v = check_mapping(node, file, file_schema(), "file entry", base);
  require_present(v.at("path"));
  const SchemaValue& sha = v.at("sha256");
  if (!is_sha256_hex(sha.text)) throw InputError(sha.where, "sha256 must be 64 lower-case hex digits");
  return {v.at("path").path, sha.text, sha.where};
}

FixtureInstruction load_instruction(const YAML::Node& entry, ref::Arch arch, const std::string& file,
                                    const std::filesystem::path& base) {
  const SchemaValues v = check_mapping(entry, file, instruction_schema(), "instruction entry", base);
  FixtureInstruction in;
  in.where = where(file, entry);
  in.instr = v.at("instr").text;
  in.model = &model_of(arch, v.at("instr"));
  in.tiles = v.at("tiles").number;
  if (in.tiles == 0) throw InputError(v.at("tiles").where, "tiles must be at least 1");
  in.families = load_families(v.at("families"), in.tiles, file, base);
  const SchemaValues files = check_mapping(v.at("files").node, file, files_schema(), "files", base);
  for (size_t i = 0; i < kRoles.size(); ++i) in.files[i] = load_file(files.at(kRoles[i]).node, file, base);
  const bool scaled = in.model->instr.scale.has_value();
  for (const char* role : kScaleRoles) {
    const bool given = files.count(role) != 0;
    if (given != scaled)
      throw InputError(v.at("files").where, in.instr + (scaled ? " is block-scaled: its files need " : " takes no scales: its files have ") +
                                                role);
    if (given) in.scale_files.push_back(load_file(files.at(role).node, file, base));
  }
  return in;
}

}  // namespace

FixtureManifest load_fixture_manifest(const std::filesystem::path& manifest_file) {
  const std::string file = manifest_file.string();
  const std::filesystem::path base = manifest_file.parent_path();
  const SchemaValues top = check_mapping(load_yaml_file(manifest_file), file, manifest_schema(), "fixture manifest", base);
  FixtureManifest m;
  m.file = manifest_file;
  m.set = top.at("set").text;
  const auto arch = ref::parse_arch(top.at("arch").text);
  if (!arch) throw InputError(top.at("arch").where, "unknown architecture '" + top.at("arch").text + "'");
  m.arch = *arch;
  m.from_model = top.count("source") && top.at("source").text == "model";
  for (auto it = top.at("recorded").node.begin(); it != top.at("recorded").node.end(); ++it) {
    if (!it->second.IsScalar()) throw InputError(where(file, it->second), "provenance values are strings");
    m.recorded[it->first.Scalar()] = it->second.Scalar();
  }
  std::set<std::string> seen;
  for (const YAML::Node& entry : top.at("instructions").node) {
    FixtureInstruction in = load_instruction(entry, m.arch, file, base);
    if (!seen.insert(in.model->instr.name).second)
      throw InputError(in.where, "instruction " + in.instr + " is listed twice");
    m.instructions.push_back(std::move(in));
  }
  if (m.instructions.empty()) throw InputError(top.at("instructions").where, "the set lists no instruction");
  return m;
}

namespace {
NpyArray read_checked(const FixtureFile& f) {
  const std::string got = sha256_file(f.path);
  if (got != f.sha256)
    throw InputError(f.path.string(), "sha256 is " + got + " but the manifest (" + f.where + ") says " + f.sha256 +
                                          "; the file changed since it was recorded");
  return read_npy(f.path);
}
}  // namespace

FixtureArrays load_fixture_arrays(const FixtureInstruction& instr) {
  std::array<NpyArray, 4> arrays;
  for (size_t i = 0; i < kRoles.size(); ++i) arrays[i] = read_checked(instr.files[i]);
  FixtureArrays out{std::move(arrays[0]), std::move(arrays[1]), std::move(arrays[2]), std::move(arrays[3]), 0};
  const ref::Instruction& in = instr.model->instr;
  const std::string a_file = instr.files[0].path.string();
  out.tiles = check_operands(in, out.a, a_file, out.b, instr.files[1].path.string(), out.c, instr.files[2].path.string());
  if (out.tiles != instr.tiles)
    throw InputError(a_file, "holds " + std::to_string(out.tiles) + " tiles but the manifest (" + instr.where + ") says " +
                                 std::to_string(instr.tiles));
  check_result(in, out.tiles, out.d, instr.files[3].path.string());
  if (!instr.scale_files.empty()) {
    out.sa = read_checked(instr.scale_files[0]);
    out.sb = read_checked(instr.scale_files[1]);
    check_scale_operands(in, {instr.scale_files[0].path.string(), instr.scale_files[1].path.string()}, out.sa, out.sb,
                         {out.tiles, static_cast<size_t>(in.m), static_cast<size_t>(in.n), static_cast<size_t>(in.k)},
                         true);
  }
  return out;
}

}  // namespace mmaemu
