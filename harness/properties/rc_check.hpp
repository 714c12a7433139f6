// One group of a property run through RapidCheck: the budget becomes RapidCheck's parameters, and
// the case it shrank to comes back as a Counterexample.
//
// A property body draws its inputs with RapidCheck's `*gen` and, when a case is false, calls
// refute() with the case in hex: RapidCheck then shrinks, re-running the body on simpler inputs, and
// the case refuted last is the minimal one (every failing shrink is accepted, so the last refutation
// is the final case). discard() marks a drawn case outside the property's domain.
#pragma once
#include <functional>
#include <string>

#include "harness/properties/property.hpp"

namespace mmaemu::props {

// The group's own seed: the suite's seed mixed with the group's name.
uint64_t group_seed(uint64_t suite_seed, const std::string& group);

// Runs `body` for up to budget.cases cases (discarded ones not counted, at most 10 per case).
GroupOutcome run_group(const std::string& group, Expect expect, const std::string& why, const Budget& budget,
                       const std::function<void()>& body);

// A group that is not checked, with the reason.
GroupOutcome not_applicable(const std::string& group, const std::string& why);

// Ends the current case as a counterexample (RapidCheck shrinks from here).
[[noreturn]] void refute(Counterexample c);

// Ends the current case as outside the property's domain.
[[noreturn]] void discard(const std::string& why);

}  // namespace mmaemu::props
