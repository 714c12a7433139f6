// The properties, one function each, defined in the file of their theme; catalogue.cpp lists them.
#pragma once
#include "harness/properties/property.hpp"

namespace mmaemu::props {

Property backend_equals_reference();  // backend_equivalence.cpp

Property block_permutation();         // arith_symmetry.cpp
Property operand_exchange();
Property negation();
Property power_of_two_scaling();

Property small_integers_exact();      // arith_exact.cpp
Property no_alignment_loss();

Property gemm_equals_steps();         // composition.cpp

Property scale_exchange();            // block_scale_props.cpp
Property unit_scales_equal_unscaled();

Property library_engines_equal_reference();  // library_props.cpp
Property library_one_slice();
Property library_slices_cover_k();

Property format_round_trip();         // format_props.cpp
Property conversion_ties_to_even();

Property npy_reader_rejects();        // reader_props.cpp
Property tier_loader_rejects();
Property manifest_reader_rejects();

}  // namespace mmaemu::props
