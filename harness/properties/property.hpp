// Properties (tier T5): claims the model makes about every input, checked on random inputs with
// RapidCheck, each failure shrunk to a minimal counterexample.
//
// A property is checked in groups ("negation/sm90", "backend-equals-reference/host"): one RapidCheck
// run per group, with the group's own seed (the suite's seed mixed with the group's name, so that
// adding a property changes no other group's inputs) and the suite's case budget. A group either
//   - states the property (expect = holds): every case must satisfy it, or the group fails with the
//     shrunk counterexample;
//   - is an exception (expect = fails): the property is claimed NOT to hold there, for a reason the
//     group carries; the run must find a counterexample, or the exception is unconfirmed and fails the
//     suite (an exception nobody can demonstrate is a filter hiding cases, not an exception);
//   - is not applicable (cases = 0, with the reason), so that what a property leaves out is listed.
#pragma once
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "harness/core/npy.hpp"
#include "harness/core/result.hpp"
#include "kernels/backend.hpp"
#include "mmaemu/reference/model.hpp"

namespace mmaemu::props {

// How many cases each group runs, from which seed.
struct Budget {
  uint64_t seed = 1;
  int cases = 100;
};

// A failing case after shrinking, in the form every failure of the project takes (inputs, expected,
// got, in hex), with the arrays to write as .npy files and the commands that replay it.
struct Counterexample {
  std::string what;      // what was compared: "D[0][0] of the negated problem"
  std::string inputs;    // "profile sm90 instr ... M 1 N 1 K 2 a=[...] b=[...] c=[...]"
  std::string expected;  // hex
  std::string got;       // hex
  std::vector<std::pair<std::string, NpyArray>> files;  // "a" -> a.npy, ...
  std::vector<std::pair<std::string, std::string>> text_files;  // "algo.json" -> its text
  // Shell commands that replay the case on the files above; "{dir}" stands for where they were written.
  std::vector<std::string> replay;
  int shrinks = 0;        // accepted shrinking steps from the first failing case
  int cases_before = 0;   // cases that passed before the first failing one
};

enum class Expect { holds, fails, not_applicable };

struct GroupOutcome {
  std::string group;   // "<property>/<profile or backend or format>[/<subset>]"
  Expect expect = Expect::holds;
  std::string why;     // exception or not-applicable: the reason
  uint64_t seed = 0;   // the group's own seed
  int cases = 0;       // cases that satisfied the property (or, for an exception, ran before the counterexample)
  int discarded = 0;   // cases whose preconditions failed (outside the property's domain)
  std::optional<Counterexample> counterexample;
  std::string error;   // RapidCheck gave up (too many discards) or the check itself failed
  // Backend groups: problems each backend ran and, per reason, the problems it declined.
  std::map<std::string, size_t> ran;
  std::map<std::string, DeclineTallies> declined;
};

// What a suite hands the properties: the backends and profiles it covers, this program (reader
// properties run it as a child process, so that a crash is a failed case and not a crashed run) and
// a scratch directory for the files they write.
struct Scope {
  std::vector<const kernels::Backend*> backends;
  std::vector<std::string> library_engines;  // "host", "cuda" (kernels/library/library_gemm.hpp)
  std::vector<ref::Arch> profiles;
  std::string mmaemu;
  std::filesystem::path scratch;
};

struct Property {
  std::string name;       // "negation"
  std::string subject;    // "backends", "arithmetic", "library", "formats", "readers"
  std::string statement;  // one sentence: what holds, and where
  std::function<std::vector<GroupOutcome>(const Scope&, const Budget&)> check;
};

// Every property, in report order (catalogue.cpp).
const std::vector<Property>& catalogue();
const Property* find_property(const std::string& name);

}  // namespace mmaemu::props
