// The resolver: which algorithm configuration cuBLASLt's heuristic picks for a call, for any call of
// the types it was fitted for, without a GPU. A library profile's resolver is data
// (fixtures/cublaslt-h200/heuristic/resolver.json): a decision tree per operand-type pair (and one per
// pair for strided batched calls, with the batch count among its features), fitted by
// scripts/cublaslt_resolver_fit.py from recordings of the heuristic itself on the H200 (hundreds of
// thousands of answers) and held against queries it never saw (fit.md there: agreement per type,
// layout and workspace limit; every disagreement listed).
//
// What it predicts is the part of the configuration that decides the bits (algorithm, split-K,
// reduction scheme; stage depth and custom option where the kernel's rules read them); the rest of the
// configuration it reports (tile, cluster, swizzle) is the one seen most often with that part.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

// One resolved call: the configuration, or the library's refusal (the heuristic offers nothing), and
// how sure the resolver is of it: the share of held-back queries (the fit's calibration set) answered
// from leaves of this support and alignment class that agreed with the heuristic, made non-decreasing
// in support. fit.md reports what a gate at kCertaintyGate gives on another held-back set.
struct Resolution {
  std::optional<LtAlgoConfig> config;
  std::string refused;    // when !config
  double certainty = 0;   // 0 ... 1
  std::string basis;      // for people: "a fitted leaf of 37 training answers; 96.1% of 1,148 ..."
  bool batched_tree = false;  // answered by the batched trees (a strided batched call, batch > 1)
};

// The certainty below which `--strict` (mmaemu gemm, torch) and mmaemu.torch.emulate(strict=True)
// refuse an answer, and under which the default warns: the resolver's stated bar, in one place.
constexpr double kCertaintyGate = 0.99;

class Resolver {
 public:
  // Reads a resolver file; InputError naming the file when it is unreadable, malformed, or written for
  // other features than this build computes.
  static Resolver load(const std::filesystem::path& file);

  // The heuristic's choice for `call` (its types, M, N, K, layout, workspace limit, fast accumulation).
  // Throws InputError (where: `option`) for a call outside the fit: operand types it has no tree for,
  // or a workspace limit other than the ones it was recorded with.
  Resolution resolve(const LtCall& call, const std::string& option = "--algo auto") const;

  // The features of a call in the data file's order: the single definition the fit script mirrors.
  static const std::vector<std::string>& feature_names();
  static std::vector<double> features(const LtCall& call);
  // The batched trees' features: the plain ones, then the batch count.
  static const std::vector<std::string>& batched_feature_names();
  static std::vector<double> batched_features(const LtCall& call);
  bool has_batched_trees() const { return !batched_trees_.empty(); }
  // A call as the data file's recorded answers name it: "d|layout|workspace bytes|fast|M|N|K".
  static std::string recorded_key(const LtCall& call);

  const std::filesystem::path& file() const { return file_; }

 private:
  struct Certainty {
    std::vector<size_t> support_edges;                 // lower edges of the support bins
    std::vector<double> aligned, unaligned;            // per bin: M, N, K all multiples of 8, or not
    std::vector<size_t> aligned_queries, unaligned_queries;
  };
  struct Tree {
    ref::FormatId a, b;
    std::vector<int> feature, left, right, leaf_class;
    std::vector<size_t> leaf_support;
    std::vector<double> threshold;
    std::vector<Resolution> classes;
    Certainty certainty;
    std::map<std::string, size_t> recorded;  // answers recorded for these very calls -> class
  };
  static Tree parse_tree(const nlohmann::json& m, size_t n_features, const std::string& where);
  std::filesystem::path file_;
  std::vector<size_t> workspaces_;
  std::vector<Tree> trees_;
  std::vector<Tree> batched_trees_;  // strided batched calls' (the file's "batched" section), when fitted
};

}  // namespace mmaemu::lt
