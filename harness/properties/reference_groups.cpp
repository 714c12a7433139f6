#include "harness/properties/reference_groups.hpp"

#include <map>

#include "harness/properties/operand_gen.hpp"
#include "harness/properties/rc_check.hpp"

namespace mmaemu::props {

std::vector<GroupOutcome> per_profile(const Scope& scope, const Budget& budget, const std::string& property,
                                      const Classifier& classify, const CaseBody& body, ModelSource source) {
  if (!source) source = models_of;
  std::vector<GroupOutcome> out;
  for (ref::Arch profile : scope.profiles) {
    struct Set {
      ModelClass cls;
      std::vector<const ref::InstructionModel*> models;
    };
    std::map<std::string, Set> sets;  // by label; "" (the property holds) sorts first
    for (const ref::InstructionModel* m : source(profile)) {
      ModelClass c = classify(*m);
      Set& s = sets[c.label];
      if (s.models.empty()) s.cls = c;
      s.models.push_back(m);
    }
    for (auto& [label, set] : sets) {
      const std::string group = property + "/" + std::string(ref::arch_name(profile)) + (label.empty() ? "" : "/" + label);
      const std::string count = " (" + std::to_string(set.models.size()) + " instruction" +
                                (set.models.size() == 1 ? "" : "s") + ")";
      if (set.cls.expect == Expect::not_applicable) {
        out.push_back(not_applicable(group, set.cls.why + count));
        continue;
      }
      const auto& models = set.models;
      out.push_back(run_group(group, set.cls.expect, set.cls.why.empty() ? "" : set.cls.why + count, budget,
                              [&] { body(*draw_model(models)); }));
    }
  }
  return out;
}

}  // namespace mmaemu::props
