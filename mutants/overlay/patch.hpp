// The mutant overlay: each catalogue entry names a snippet of a production file (its anchor) and
// what replaces it; the overlay is those files rewritten so that every mutant sits behind its switch
// MMAEMU_MUTANT(id) (mutants/switch.hpp). Production sources never hold a mutant: the overlay lives
// in the build tree and only the mutant twins of the programs (cmake/MmaemuMutants.cmake) compile it.
//
// How a patch is woven in, by its kind:
//   statement   the anchor is one or more whole statements:  if (MMAEMU_MUTANT(id)) { replace } else { anchor }
//   expression  the anchor is an expression:                 (MMAEMU_MUTANT(id) ? (replace) : (anchor))
//   before      replace is inserted before the anchor:       if (MMAEMU_MUTANT(id)) { replace } anchor
// Patches with the same anchor chain (else if / nested ?:) in catalogue order; an identity control
// has no `replace` and gets the anchor itself. Anchors match exactly, except that any run of white
// space matches any other, and must start and end on a token boundary.
#pragma once
#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmaemu::overlay {

enum class Kind { statement, expression, before };

struct Patch {
  int id = 0;
  std::string name;
  std::string file;                    // repository-relative path of the production file
  Kind kind = Kind::statement;
  std::string find;                    // the anchor
  std::optional<std::string> replace;  // absent: an identity control (the anchor itself)
  std::string tier;                    // "cpu" | "gpu"
  std::string where;                   // "catalogue.yaml:line" of the entry
};

// A catalogue that cannot be woven: the message names the entry ("catalogue.yaml:120: mutant 9 ...").
struct PatchError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Span {
  size_t begin = 0, end = 0;
};

// Every place `anchor` occurs in `text` (white space runs equivalent, token boundaries at both ends).
std::vector<Span> find_anchor(const std::string& text, const std::string& anchor);

// `text` (the production file `file`) with every patch of that file woven in. Throws PatchError
// naming the entry for an anchor found nowhere or more than once, two anchors that overlap without
// being the same, or the same anchor under two kinds.
std::string weave(const std::string& text, const std::vector<Patch>& patches_of_file);

// Reads the patches of a catalogue (mutants/catalogue.yaml). Throws PatchError for an entry without
// a usable `patch` (naming its line).
std::vector<Patch> read_patches(const std::string& catalogue_path);

// The patches grouped by file, files in name order.
std::map<std::string, std::vector<Patch>> by_file(const std::vector<Patch>& patches);

}  // namespace mmaemu::overlay
