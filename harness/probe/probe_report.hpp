// The probe's report: one table per instruction (parameter, inferred value, how, inputs, built-in value,
// equal), the checks, and a summary table; Markdown for people, JSON for machines.
#pragma once
#include <string>
#include <vector>

#include "harness/probe/infer.hpp"

namespace mmaemu::probe {

// One probed instruction beside the built-in profile's model of it (when the architecture has one).
struct Comparison {
  const InstructionProbe* probe = nullptr;
  std::optional<ref::InstructionModel> builtin;
  std::string differs;            // the parameters whose values differ ("" when none)
  std::optional<bool> same_bits;  // whether the built-in model gives the same bits on every probe and fresh output
};

std::string report_markdown(const std::string& oracle, const std::string& command, const std::vector<Comparison>& rows);
std::string report_json(const std::string& oracle, const std::string& command, const std::vector<Comparison>& rows);

// The built-in model's value of a parameter as the findings word it ("" when it has none).
std::string builtin_value(const ref::InstructionModel& m, const std::string& parameter);

}  // namespace mmaemu::probe
