// Case bodies of the arithmetic properties that the tests run on models of their own (a profile
// doctored to truncate by floor), to show that a property can fail where its exception says.
#pragma once
#include "mmaemu/reference/model.hpp"

namespace mmaemu::props {

// One case of `negation` on `m`: draws a problem, refutes when D(-A, B, -C) != -D(A, B, C).
void negation_case(const ref::InstructionModel& m);

}  // namespace mmaemu::props
