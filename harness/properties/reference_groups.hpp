// Properties of the reference's arithmetic, checked profile by profile. Each property sorts a
// profile's models into the set where it states the property (group "<property>/<profile>"),
// exceptions (expected to fail, with the reason: "<property>/<profile>/<label>") and models it does
// not apply to (listed with the reason, not checked).
#pragma once
#include <functional>
#include <string>

#include "harness/properties/property.hpp"

namespace mmaemu::props {

struct ModelClass {
  Expect expect = Expect::holds;
  std::string label;  // "" for the models where the property holds
  std::string why;    // exceptions and models it does not apply to
};
using Classifier = std::function<ModelClass(const ref::InstructionModel&)>;
// One case on a model drawn from a group's set: draws the rest, and refutes or returns.
using CaseBody = std::function<void(const ref::InstructionModel&)>;

// The models a property ranges over on a profile (default: operand_gen's models_of).
using ModelSource = std::vector<const ref::InstructionModel*> (*)(ref::Arch);

std::vector<GroupOutcome> per_profile(const Scope& scope, const Budget& budget, const std::string& property,
                                      const Classifier& classify, const CaseBody& body, ModelSource source = nullptr);

inline ModelClass holds() { return {}; }
inline ModelClass exception(std::string label, std::string why) { return {Expect::fails, std::move(label), std::move(why)}; }
inline ModelClass not_applicable_to(std::string label, std::string why) {
  return {Expect::not_applicable, std::move(label), std::move(why)};
}

}  // namespace mmaemu::props
