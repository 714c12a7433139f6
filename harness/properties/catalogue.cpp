// The list of properties, in report order: the backends first, then the arithmetic, the library
// model, the formats and the readers.
#include "harness/properties/catalogue_parts.hpp"

namespace mmaemu::props {

const std::vector<Property>& catalogue() {
  static const std::vector<Property> all = {
      backend_equals_reference(),
      block_permutation(),
      operand_exchange(),
      negation(),
      power_of_two_scaling(),
      small_integers_exact(),
      no_alignment_loss(),
      gemm_equals_steps(),
      scale_exchange(),
      unit_scales_equal_unscaled(),
      library_engines_equal_reference(),
      library_one_slice(),
      library_slices_cover_k(),
      format_round_trip(),
      conversion_ties_to_even(),
      npy_reader_rejects(),
      tier_loader_rejects(),
      manifest_reader_rejects(),
  };
  return all;
}

const Property* find_property(const std::string& name) {
  for (const Property& p : catalogue())
    if (p.name == name) return &p;
  return nullptr;
}

}  // namespace mmaemu::props
