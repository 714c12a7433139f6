// Recordings as the probe's oracle: every output of the fixture sets given (a probe's own, a recorder's)
// indexed by its inputs (A's row, B's column, C), so that the inference can be run again without the
// GPU, on exactly the bits it returned: to audit a report, or to re-derive a profile with a newer
// probe. An output the recordings do not hold is reported unanswered (left out of every comparison and
// counted apart), never guessed.
#include <map>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "harness/probe/oracle.hpp"
#include "harness/tiers/fixture_manifest.hpp"

namespace mmaemu::probe {
namespace {

class RecordedOracle final : public Oracle {
 public:
  explicit RecordedOracle(std::vector<std::filesystem::path> sets) : sets_(std::move(sets)) {
    for (const auto& dir : sets_) {
      const FixtureManifest m = load_fixture_manifest(dir / "manifest.yaml");
      if (!arch_) arch_ = m.arch;
      if (*arch_ != m.arch)
        throw std::invalid_argument(dir.string() + " holds " + std::string(ref::arch_name(m.arch)) + " recordings, the others " +
                                    std::string(ref::arch_name(*arch_)));
      for (const auto& in : m.instructions) instructions_[in.instr].push_back(in);
      if (gpu_.empty() && m.recorded.count("gpu")) gpu_ = m.recorded.at("gpu");
      describe_ += (describe_.empty() ? "" : ", ") + dir.string();
    }
    if (!arch_) throw std::invalid_argument("the recorded oracle needs at least one fixture set");
    describe_ = "recorded outputs of " + (gpu_.empty() ? std::string("a GPU") : gpu_) + " (" + describe_ + ")";
  }
  std::string describe() const override { return describe_; }
  const std::vector<bool>* unanswered() const override {
    for (bool m : missing_)
      if (m) return &missing_;
    return nullptr;
  }
  ref::Arch arch() const override { return *arch_; }
  bool has(const std::string& instr, std::string* why) const override {
    if (instructions_.count(instr)) return true;
    if (why) *why = "the recordings hold no " + instr;
    return false;
  }
  record::Provenance provenance(const std::string& command) const override {
    record::Provenance p;
    p.set("command", command);
    p.set("oracle", describe_);
    return p;
  }
  std::vector<uint32_t> run(const record::InstructionRecording& t) override {
    const auto& index = index_of(t.instr);
    const ref::Instruction& in = t.instr;
    const int wa = ref::words_per_element(in.a), wb = ref::words_per_element(in.b), wc = ref::words_per_element(in.c),
              wd = ref::words_per_element(in.d);
    std::vector<uint32_t> d(t.outputs() * wd, 0);
    missing_.assign(t.outputs(), false);
    for (size_t tile = 0; tile < static_cast<size_t>(t.tiles); ++tile)
      for (int m = 0; m < in.m; ++m)
        for (int n = 0; n < in.n; ++n) {
          const std::string key = key_of(in, t.a.data() + (tile * in.m + m) * in.k * wa, t.b.data() + tile * in.k * in.n * wb, n,
                                         t.c.data() + ((tile * in.m + m) * in.n + n) * wc);
          const auto it = index.find(key);
          if (it == index.end()) {
            missing_[(tile * in.m + m) * in.n + n] = true;
            continue;
          }
          for (int w = 0; w < wd; ++w) d[((tile * in.m + m) * in.n + n) * wd + w] = it->second[w];
        }
    return d;
  }

 private:
  // A's row, B's column n (stride N) and C, as bytes.
  static std::string key_of(const ref::Instruction& in, const uint32_t* a_row, const uint32_t* b_tile, int n, const uint32_t* c) {
    const int wa = ref::words_per_element(in.a), wb = ref::words_per_element(in.b), wc = ref::words_per_element(in.c);
    std::string k;
    k.reserve(4 * (in.k * (wa + wb) + wc));
    const auto put = [&](uint32_t x) { k.append(reinterpret_cast<const char*>(&x), 4); };
    for (int i = 0; i < in.k * wa; ++i) put(a_row[i]);
    for (int kk = 0; kk < in.k; ++kk)
      for (int w = 0; w < wb; ++w) put(b_tile[(kk * in.n + n) * wb + w]);
    for (int w = 0; w < wc; ++w) put(c[w]);
    return k;
  }
  const std::unordered_map<std::string, std::vector<uint32_t>>& index_of(const ref::Instruction& in) {
    auto& index = index_[in.name];
    if (!index.empty()) return index;
    const auto it = instructions_.find(in.name);
    if (it == instructions_.end()) throw std::runtime_error("the recordings hold no " + in.name);
    const int wa = ref::words_per_element(in.a), wb = ref::words_per_element(in.b), wc = ref::words_per_element(in.c),
              wd = ref::words_per_element(in.d);
    for (const FixtureInstruction& fi : it->second) {
      const FixtureArrays arr = load_fixture_arrays(fi);
      for (size_t tile = 0; tile < arr.tiles; ++tile)
        for (int m = 0; m < in.m; ++m)
          for (int n = 0; n < in.n; ++n) {
            const size_t o = (tile * in.m + m) * in.n + n;
            std::vector<uint32_t> d(arr.d.values.begin() + o * wd, arr.d.values.begin() + (o + 1) * wd);
            index.emplace(key_of(in, arr.a.values.data() + (tile * in.m + m) * in.k * wa, arr.b.values.data() + tile * in.k * in.n * wb,
                                 n, arr.c.values.data() + o * wc),
                          std::move(d));
          }
    }
    return index;
  }

  std::vector<std::filesystem::path> sets_;
  std::optional<ref::Arch> arch_;
  std::string describe_, gpu_;
  std::vector<bool> missing_;
  std::map<std::string, std::vector<FixtureInstruction>> instructions_;
  std::map<std::string, std::unordered_map<std::string, std::vector<uint32_t>>> index_;
};

}  // namespace

std::unique_ptr<Oracle> recorded_oracle(const std::vector<std::filesystem::path>& fixture_sets) {
  return std::make_unique<RecordedOracle>(fixture_sets);
}

}  // namespace mmaemu::probe
