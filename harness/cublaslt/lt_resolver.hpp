// The resolver: which algorithm configuration cuBLASLt's heuristic picks for a call, for any call of
// the types it was fitted for, without a GPU. A library profile's resolver is data
// (fixtures/cublaslt-h200/heuristic/resolver.json): a decision tree per operand-type pair, fitted by
// scripts/cublaslt_resolver_fit.py from recordings of the heuristic itself on the H200 (hundreds of
// thousands of answers) and held against queries it never saw (fit.md there: agreement per type,
// layout and workspace limit; every disagreement listed).
//
// What it predicts is the part of the configuration that decides the bits (algorithm, split-K,
// reduction scheme; stage depth and custom option where the kernel's rules read them); the rest of the
// configuration it reports (tile, cluster, swizzle) is the one seen most often with that part.
#pragma once
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "harness/cublaslt/lt_call.hpp"

namespace mmaemu::lt {

// One resolved call: the configuration, or the library's refusal (the heuristic offers nothing).
struct Resolution {
  std::optional<LtAlgoConfig> config;
  std::string refused;  // when !config
};

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

  const std::filesystem::path& file() const { return file_; }

 private:
  struct Tree {
    ref::FormatId a, b;
    std::vector<int> feature, left, right, leaf_class;
    std::vector<double> threshold;
    std::vector<Resolution> classes;
  };
  std::filesystem::path file_;
  std::vector<size_t> workspaces_;
  std::vector<Tree> trees_;
};

}  // namespace mmaemu::lt
