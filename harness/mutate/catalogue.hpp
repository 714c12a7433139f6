// The mutant catalogue (mutants/catalogue.yaml): one entry per mutant, woven into a copy of the
// production file it patches (mutants/overlay/patch.hpp) behind its switch MMAEMU_MUTANT(id).
//   mutants:
//     - id: 12                       # the number the code's MMAEMU_MUTANT(12) uses; unique, > 0
//       name: ref-round-nearest      # short, unique
//       target: reference/src/tfdpa.cpp:fused_sum   # file:function
//       fault: "block result rounded to nearest even instead of toward zero"
//       expect: killed               # killed | equivalent | identity
//       justification: "..."         # required for equivalent and identity
//       tier: cpu                    # cpu (run-time switch) | gpu (compile-time variant)
//       patch:                       # where it applies and what replaces it (the weaver's business)
//         kind: statement            # statement | expression | before
//         find: "..."                # the production code it replaces (unique in the file)
//         replace: "..."             # the faulty code; none for an identity control
#pragma once
#include <filesystem>
#include <string>
#include <vector>

namespace mmaemu::mutate {

enum class Expectation { killed, equivalent, identity };

struct Mutant {
  int id = 0;
  std::string name;
  std::string target;
  std::string fault;
  Expectation expect = Expectation::killed;
  std::string justification;
  std::string tier;   // "cpu" | "gpu"
  std::string part;   // the part of the code it belongs to: one of the catalogue's `parts`
  std::string where;  // "file:line:column" of the entry
  std::string patch;  // the patch's kind, find and replace in one string (for the fingerprint)

  // The entry's content in one string: a journal entry recorded for another text of the entry is
  // not reused on --resume.
  std::string fingerprint() const;
};

const char* to_string(Expectation e);

// Loads and checks the catalogue. Throws InputError at "file:line:column" for an unknown or missing
// key, an id or name used twice, an id that is not a whole number > 0, or an equivalent / identity
// entry without a justification. Entries keep the file's order.
std::vector<Mutant> load_catalogue(const std::filesystem::path& file);

}  // namespace mmaemu::mutate
