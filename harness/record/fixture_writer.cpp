#include "harness/record/fixture_writer.hpp"

#include <yaml-cpp/yaml.h>

#include "harness/core/atomic_file.hpp"
#include "harness/core/npy.hpp"
#include "harness/core/sha256.hpp"

namespace mmaemu::record {
namespace {

constexpr const char* kOperands[] = {"a", "b", "c", "d"};

NpyArray operand_array(const InstructionRecording& r, int which) {
  const auto& in = r.instr;
  const size_t t = static_cast<size_t>(r.tiles);
  NpyArray arr;
  switch (which) {
    case 0: arr.word_bytes = storage_bytes(in.a), arr.shape = {t, size_t(in.m), size_t(in.k)}, arr.values = r.a; break;
    case 1: arr.word_bytes = storage_bytes(in.b), arr.shape = {t, size_t(in.k), size_t(in.n)}, arr.values = r.b; break;
    case 2: arr.word_bytes = storage_bytes(in.c), arr.shape = {t, size_t(in.m), size_t(in.n)}, arr.values = r.c; break;
    default: arr.word_bytes = storage_bytes(in.d), arr.shape = {t, size_t(in.m), size_t(in.n)}, arr.values = r.d; break;
  }
  return arr;
}

}  // namespace

std::string manifest_yaml(const FixtureSet& set, const std::vector<std::vector<std::string>>& sha256_abcd) {
  YAML::Emitter y;
  y << YAML::Comment("Single-instruction results recorded on real hardware; see README.md") << YAML::Newline;
  y << YAML::BeginMap;
  y << YAML::Key << "schema" << YAML::Value << "mmaemu-fixtures/1";
  y << YAML::Key << "set" << YAML::Value << set.name;
  y << YAML::Key << "arch" << YAML::Value << set.arch;
  y << YAML::Key << "recorded" << YAML::Value << YAML::BeginMap;
  for (const auto& [key, value] : set.provenance.fields)
    y << YAML::Key << key << YAML::Value << YAML::DoubleQuoted << value;
  y << YAML::EndMap;
  y << YAML::Key << "instructions" << YAML::Value << YAML::BeginSeq;
  for (size_t i = 0; i < set.recordings.size(); ++i) {
    const InstructionRecording& r = set.recordings[i];
    y << YAML::BeginMap;
    y << YAML::Key << "instr" << YAML::Value << r.instr.name;
    y << YAML::Key << "tiles" << YAML::Value << r.tiles;
    y << YAML::Key << "families" << YAML::Value << YAML::BeginSeq;
    for (const FamilyRange& f : r.families)
      y << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value
        << (f.label.empty() ? std::string(gen::family_name(f.family)) : f.label)
        << YAML::Key << "first" << YAML::Value << f.first << YAML::Key << "last" << YAML::Value << f.last
        << YAML::EndMap;
    y << YAML::EndSeq;
    y << YAML::Key << "files" << YAML::Value << YAML::BeginMap;
    for (int w = 0; w < 4; ++w)
      y << YAML::Key << kOperands[w] << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "path"
        << YAML::Value << r.instr.name + "/" + kOperands[w] + ".npy" << YAML::Key << "sha256" << YAML::Value
        << YAML::DoubleQuoted << sha256_abcd.at(i).at(w) << YAML::EndMap;
    y << YAML::EndMap;
    y << YAML::EndMap;
  }
  y << YAML::EndSeq;
  y << YAML::EndMap;
  return std::string(y.c_str()) + "\n";
}

std::string readme_markdown(const FixtureSet& set) {
  const Provenance& p = set.provenance;
  std::string s;
  s += "# Fixture set `" + set.name + "`: single MMA instructions recorded on an " + p.get("gpu") + "\n\n";
  s += "Raw bit patterns of A, B, C and the D the hardware returned, for the `" + set.arch +
       "` profile. The T2 tier replays them against the reference.\n\n";
  s += "## How it was recorded\n\n";
  s += "Command: `" + p.get("command") + "`, " + p.get("date_utc") + ", commit " + p.get("commit") + ".\n\n";
  s += "Each tile runs as its own block: mma.sync tiles on one warp, each thread loading its fragments from\n"
       "the contract layout (A[T][M][K], B[T][K][N], C[T][M][N]) per the PTX ISA fragment layouts; wgmma tiles\n"
       "on one warpgroup with A and B in shared memory (K-major, no swizzle, through matrix descriptors) and C\n"
       "in the accumulator registers (scale-d = 1, so D = A*B + C). Operands are passed as raw bits (tf32 as\n"
       "full fp32 patterns: the hardware reads them its own way); D is copied back unchanged.\n\n";
  s += "Checks made before anything was written:\n\n" + set.checks + "\n";
  s += "| field | value |\n|---|---|\n";
  for (const auto& [key, value] : p.fields) s += "| " + key + " | " + value + " |\n";
  s += "\n## Input families\n\nEvery instruction gets the same number of tiles of each family, in this order:\n\n";
  s += "| family | what it exercises |\n|---|---|\n";
  for (gen::Family f : gen::all_families())
    s += "| " + std::string(gen::family_name(f)) + " | " + std::string(gen::family_description(f)) + " |\n";
  s += "\ntf32 operands are fp32 patterns with non-zero low 13 bits (except small_int, which must be exact,\n"
       "and a quarter of the specials operands, kept clean so canonical Inf/NaN/zero patterns appear too).\n\n";
  s += "## Instructions\n\n| instruction | tiles | outputs | D classes and NaN patterns |\n|---|---|---|---|\n";
  for (size_t i = 0; i < set.recordings.size(); ++i) {
    const auto& r = set.recordings[i];
    s += "| " + r.instr.name + " | " + std::to_string(r.tiles) + " | " + std::to_string(r.outputs()) + " | " +
         (i < set.summaries.size() ? set.summaries[i] : "") + " |\n";
  }
  s += "\n## What the reference may not match\n\n"
       "Anything T2 finds is listed by the replay report; the recordings are the authority. Known sources of\n"
       "difference: the NaN pattern the hardware returns (see the table above), how tf32 operands' low 13 bits\n"
       "are read (truncated or rounded), and the sign of exact zero results.\n\n";
  s += "`record.log` holds what the recording run printed.\n";
  return s;
}

void write_fixture_set(const std::filesystem::path& dir, const FixtureSet& set) {
  std::vector<std::vector<std::string>> sha(set.recordings.size());
  for (size_t i = 0; i < set.recordings.size(); ++i) {
    const InstructionRecording& r = set.recordings[i];
    for (int w = 0; w < 4; ++w) {
      const std::string bytes = npy_bytes(operand_array(r, w));
      write_file_atomic(dir / r.instr.name / (std::string(kOperands[w]) + ".npy"), bytes);
      sha[i].push_back(sha256_hex(bytes));
    }
  }
  write_file_atomic(dir / "README.md", readme_markdown(set));
  write_file_atomic(dir / "record.log", set.log_text);
  write_file_atomic(dir / "manifest.yaml", manifest_yaml(set, sha));  // last: a manifest means a whole set
}

}  // namespace mmaemu::record
