#include "harness/tiers/fixture_replay.hpp"

#include <span>

#include "harness/core/comparator.hpp"
#include "harness/core/operands.hpp"
#include "harness/tiers/fixture_manifest.hpp"

namespace mmaemu {
namespace {

// Replays one instruction of the set into the comparator, family by family.
void replay_instruction(const FixtureInstruction& fi, BitComparator& cmp) {
  const FixtureArrays rec = load_fixture_arrays(fi);
  const ref::Instruction& in = fi.model->instr;
  const size_t M = static_cast<size_t>(in.m), N = static_cast<size_t>(in.n), K = static_cast<size_t>(in.k);
  std::vector<uint32_t> d(rec.tiles * M * N * ref::words_per_element(in.d));
  const bool scaled = !rec.sa.values.empty();
  ref::mma(*fi.model, rec.tiles, rec.a.values.data(), rec.b.values.data(), rec.c.values.data(), d.data(),
           scaled ? rec.sa.values.data() : nullptr, scaled ? rec.sb.values.data() : nullptr);
  const size_t S = scaled ? ref::scale_count(in, K) : 0;

  const int a_bytes = storage_bytes(in.a), b_bytes = storage_bytes(in.b), c_bytes = storage_bytes(in.c);
  const int d_bytes = storage_bytes(in.d);
  for (const FixtureFamily& fam : fi.families) {
    const size_t begin = fam.first * M * N, count = (fam.last - fam.first) * M * N;
    // Inputs of one output: row m of A, column n of B, and C, the TestFloat way.
    const auto describe = [&](size_t i) {
      const size_t out = begin + i, t = out / (M * N), m = out / N % M, n = out % N;
      return CaseDescription{
          "tile " + std::to_string(t) + " m " + std::to_string(m) + " n " + std::to_string(n),
          "a=" + hex_list(&rec.a.values[word_offset((t * M + m) * K, a_bytes)], K, a_bytes) +
              " b=" + hex_list(&rec.b.values[word_offset(t * K * N + n, b_bytes)], K, b_bytes, N) +
              " c=" + hex_bits(element_bits(rec.c.values.data(), out, c_bytes), c_bytes) +
              (S ? " scale_a=" + hex_list(&rec.sa.values[(t * M + m) * S], S, 1) +
                       " scale_b=" + hex_list(&rec.sb.values[t * S * N + n], S, 1, N)
                 : std::string())};
    };
    const size_t word_begin = word_offset(begin, d_bytes), words = word_offset(count, d_bytes);
    cmp.compare(fi.instr + "/" + fam.name, std::span(rec.d.values).subspan(word_begin, words),
                std::span(d).subspan(word_begin, words), d_bytes, describe);
  }
}

SuiteResult run_fixture_replay(const SuiteSpec& spec) {
  return replay_fixture_set(spec.path("fixtures") / "manifest.yaml");
}

}  // namespace

SuiteResult replay_fixture_set(const std::filesystem::path& manifest_file) {
  const FixtureManifest manifest = load_fixture_manifest(manifest_file);
  SuiteResult result;
  BitComparator cmp(result);
  for (const FixtureInstruction& fi : manifest.instructions) replay_instruction(fi, cmp);
  set_verdict_from_counts(result);
  // Every recorded output reproduced: the recording GPU's profile is pinned by hardware in this run (not
  // by a model's outputs).
  if (result.verdict == Verdict::pass && !manifest.from_model)
    result.pinned_profiles = {std::string(ref::arch_name(manifest.arch))};
  return result;
}

SuiteKind fixture_replay_kind() {
  return {
      .name = "fixture-replay",
      .description = "replays a fixture set (recorded on a real GPU, or a model's outputs) through the reference, bit for bit",
      .keys =
          {
              required_key("fixtures", ValueType::directory).described_as("fixture set").containing("manifest.yaml"),
              // Kernel backends join this list when they replay fixtures too (T3).
              optional_key("backend", ValueType::string).one_of({"reference"}),
          },
      .run = run_fixture_replay,
  };
}

}  // namespace mmaemu
