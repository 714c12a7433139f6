#include "harness/tiers/tests/test_files.hpp"

#include <random>

#include "mmaemu/reference/model.hpp"
#include "harness/core/operands.hpp"
#include "harness/core/sha256.hpp"

namespace mmaemu::testing {
namespace {

// Random bit patterns of a format, kept finite and not too large so that sums are interesting.
NpyArray random_array(ref::FormatId f, std::vector<size_t> shape, std::mt19937& rng) {
  NpyArray a;
  a.word_bytes = storage_bytes(f);
  a.shape = std::move(shape);
  a.values.resize(a.size());
  const uint32_t mask = a.word_bytes == 4 ? 0xffffffffu : (1u << (8 * a.word_bytes)) - 1;
  for (uint32_t& v : a.values) v = static_cast<uint32_t>(rng()) & mask;
  return a;
}

}  // namespace

std::filesystem::path write_fixture_set(const std::filesystem::path& dir, const std::vector<std::string>& instrs,
                                        const std::vector<SyntheticFamily>& families, const Spoilers& spoil) {
  std::mt19937 rng(1);
  size_t tiles = 0;
  for (const auto& f : families) tiles += f.tiles;
  std::string yaml =
      "schema: mmaemu-fixtures/1\n"
      "set: synthetic\n"
      "arch: sm90\n"
      "recorded:\n"
      "  date_utc: \"2026-11-30T22:40:00Z\"\n"
      "  gpu: \"none: computed by the reference\"\n"
      "instructions:\n";
  for (const std::string& name : instrs) {
    const ref::InstructionModel& model = ref::lookup(ref::Arch::sm90, name);
    const ref::Instruction& in = model.instr;
    const size_t M = in.m, N = in.n, K = in.k;
    NpyArray a = random_array(in.a, {tiles, M, K}, rng), b = random_array(in.b, {tiles, K, N}, rng),
             c = random_array(in.c, {tiles, M, N}, rng);
    NpyArray d;
    d.word_bytes = storage_bytes(in.d);
    d.shape = {tiles, M, N};
    d.values.resize(d.size());
    ref::mma(model, tiles, a.values.data(), b.values.data(), c.values.data(), d.values.data());
    if (spoil.arrays) spoil.arrays(a, b, c, d);
    const auto sub = dir / name;
    yaml += "  - instr: " + name + "\n    tiles: " + std::to_string(tiles) + "\n    families:\n";
    size_t first = 0;
    for (const auto& f : families) {
      yaml += "      - {name: " + f.name + ", first: " + std::to_string(first) + ", last: " +
              std::to_string(first + f.tiles) + "}\n";
      first += f.tiles;
    }
    yaml += "    files:\n";
    const std::pair<const char*, const NpyArray*> files[] = {{"a", &a}, {"b", &b}, {"c", &c}, {"d", &d}};
    for (const auto& [role, arr] : files) {
      const auto path = sub / (std::string(role) + ".npy");
      write_npy(path, *arr);
      yaml += "      " + std::string(role) + ": {path: " + name + "/" + role + ".npy, sha256: \"" +
              sha256_file(path) + "\"}\n";
    }
    if (spoil.after_hashing) spoil.after_hashing(sub);
  }
  const auto manifest = dir / "manifest.yaml";
  write_text(manifest, yaml);
  return manifest;
}

}  // namespace mmaemu::testing
