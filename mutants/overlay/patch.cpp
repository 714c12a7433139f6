#include "mutants/overlay/patch.hpp"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <set>

namespace mmaemu::overlay {
namespace {

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_word(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; }

// The anchor's non-blank runs, in order.
std::vector<std::string> segments(const std::string& anchor) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : anchor) {
    if (is_space(c)) {
      if (!cur.empty()) out.push_back(std::move(cur)), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(std::move(cur));
  return out;
}

size_t line_of(const std::string& text, size_t pos) {
  return 1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

std::string entry(const Patch& p) {
  return p.where + ": mutant " + std::to_string(p.id) + " (" + p.name + ")";
}

std::string switch_of(const Patch& p) { return "MMAEMU_MUTANT(" + std::to_string(p.id) + ")"; }

std::string replacement(const Patch& p) { return p.replace ? *p.replace : p.find; }

// The code that takes the place of one anchor shared by `group` (catalogue order).
std::string woven(const std::vector<const Patch*>& group, const std::string& original) {
  std::string s;
  switch (group.front()->kind) {
    case Kind::statement:
      for (const Patch* p : group) s += "if (" + switch_of(*p) + ") {\n" + replacement(*p) + "\n} else ";
      return s + "{\n" + original + "\n}";
    case Kind::expression:
      s = "(";
      for (const Patch* p : group) s += switch_of(*p) + " ? (" + replacement(*p) + ") : ";
      return s + "(" + original + "))";
    case Kind::before:
      // An identity control inserts nothing: the anchor runs once either way.
      for (const Patch* p : group)
        s += (s.empty() ? "" : " else ") + ("if (" + switch_of(*p) + ") {\n" + p->replace.value_or("") + "\n}");
      return s + "\n" + original;
  }
  return original;
}

Kind parse_kind(const std::string& s, const std::string& where) {
  if (s == "statement") return Kind::statement;
  if (s == "expression") return Kind::expression;
  if (s == "before") return Kind::before;
  throw PatchError(where + ": patch kind '" + s + "' is none of statement, expression, before");
}

std::string where_of(const std::string& file, const YAML::Node& n) {
  return file + ":" + std::to_string(n.Mark().line + 1);
}

Patch read_one_patch(Patch p, const YAML::Node& patch, const std::string& catalogue) {
  if (!patch.IsMap()) throw PatchError(where_of(catalogue, patch) + ": a patch is a mapping (kind, find, replace)");
  for (const auto& kv : patch) {
    const std::string key = kv.first.as<std::string>();
    if (key != "kind" && key != "find" && key != "replace")
      throw PatchError(where_of(catalogue, kv.first) + ": unknown patch key '" + key + "' (kind, find, replace)");
  }
  if (patch["kind"]) p.kind = parse_kind(patch["kind"].as<std::string>(), where_of(catalogue, patch["kind"]));
  if (!patch["find"] || patch["find"].as<std::string>().find_first_not_of(" \t\n") == std::string::npos)
    throw PatchError(entry(p) + ": the patch has no `find` (the production code it replaces)");
  p.find = patch["find"].as<std::string>();
  if (patch["replace"]) p.replace = patch["replace"].as<std::string>();
  return p;
}

}  // namespace

std::vector<Span> find_anchor(const std::string& text, const std::string& anchor) {
  std::vector<Span> found;
  const std::vector<std::string> segs = segments(anchor);
  if (segs.empty()) return found;
  const bool word_start = is_word(segs.front().front()), word_end = is_word(segs.back().back());
  for (size_t p = text.find(segs.front()); p != std::string::npos; p = text.find(segs.front(), p + 1)) {
    if (word_start && p > 0 && is_word(text[p - 1])) continue;
    size_t q = p + segs.front().size();
    bool ok = true;
    for (size_t i = 1; i < segs.size() && ok; ++i) {
      if (q >= text.size() || !is_space(text[q])) {
        ok = false;
        break;
      }
      while (q < text.size() && is_space(text[q])) ++q;
      ok = text.compare(q, segs[i].size(), segs[i]) == 0;
      q += segs[i].size();
    }
    if (!ok || (word_end && q < text.size() && is_word(text[q]))) continue;
    found.push_back({p, q});
  }
  return found;
}

std::string weave(const std::string& text, const std::vector<Patch>& patches) {
  // Each anchor once, then the patches sharing it grouped.
  std::map<std::pair<size_t, size_t>, std::vector<const Patch*>> groups;
  for (const Patch& p : patches) {
    const std::vector<Span> at = find_anchor(text, p.find);
    if (at.empty())
      throw PatchError(entry(p) + ": its anchor is not in " + p.file + " (the code changed: update the entry's `find`)");
    if (at.size() > 1) {
      std::string lines;
      for (const Span& s : at) lines += (lines.empty() ? "" : ", ") + std::to_string(line_of(text, s.begin));
      throw PatchError(entry(p) + ": its anchor occurs " + std::to_string(at.size()) + " times in " + p.file +
                       " (lines " + lines + "): lengthen it until it is unique");
    }
    groups[{at.front().begin, at.front().end}].push_back(&p);
  }
  std::vector<std::pair<Span, std::vector<const Patch*>>> ordered;
  for (auto& [span, group] : groups) {
    for (const Patch* p : group)
      if (p->kind != group.front()->kind)
        throw PatchError(entry(*p) + ": shares its anchor with mutant " + std::to_string(group.front()->id) +
                         " but not its kind");
    if (!ordered.empty() && span.first < ordered.back().first.end)
      throw PatchError(entry(*group.front()) + ": its anchor (line " + std::to_string(line_of(text, span.first)) +
                       ") overlaps that of mutant " + std::to_string(ordered.back().second.front()->id) +
                       " without being the same: make them equal or disjoint");
    ordered.push_back({Span{span.first, span.second}, group});
  }
  std::string out = text;
  for (auto it = ordered.rbegin(); it != ordered.rend(); ++it) {
    const Span s = it->first;
    out.replace(s.begin, s.end - s.begin, woven(it->second, text.substr(s.begin, s.end - s.begin)));
  }
  // The switch's header, after an include guard when there is one.
  const std::string include = "#include \"mutants/switch.hpp\"\n";
  const size_t guard = out.find("#pragma once\n");
  if (guard != std::string::npos) out.insert(guard + 13, include);
  else out.insert(0, include);
  return "// GENERATED from mutants/catalogue.yaml and " + patches.front().file +
         " by mutants/overlay: edit those, never this.\n" + out;
}

std::vector<Patch> read_patches(const std::string& catalogue) {
  YAML::Node root;
  try {
    root = YAML::LoadFile(catalogue);
  } catch (const YAML::Exception& e) {
    throw PatchError(catalogue + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg);
  }
  if (!root["mutants"] || !root["mutants"].IsSequence()) throw PatchError(catalogue + ": no `mutants:` list");
  std::vector<Patch> out;
  std::set<int> ids;
  for (const YAML::Node& e : root["mutants"]) {
    Patch p;
    p.where = where_of(catalogue, e);
    try {
      p.id = e["id"].as<int>();
      p.name = e["name"].as<std::string>();
      p.tier = e["tier"].as<std::string>();
      const std::string target = e["target"].as<std::string>();
      p.file = target.substr(0, target.find(':'));
    } catch (const YAML::Exception&) {
      throw PatchError(p.where + ": a mutant needs id, name, target (file:function) and tier");
    }
    if (!ids.insert(p.id).second) throw PatchError(entry(p) + ": the id is used twice");
    const YAML::Node patch = e["patch"];
    if (!patch || !(patch.IsMap() || (patch.IsSequence() && patch.size() > 0)))
      throw PatchError(entry(p) + ": no `patch:` (kind, find, replace, or a list of them): nothing says where the mutant applies");
    // A mutant that changes several places lists one patch per place; all share its id.
    std::vector<YAML::Node> places;
    if (patch.IsMap()) places.push_back(patch);
    else for (const YAML::Node& one : patch) places.push_back(one);
    for (const YAML::Node& one : places) out.push_back(read_one_patch(p, one, catalogue));
  }
  return out;
}

std::map<std::string, std::vector<Patch>> by_file(const std::vector<Patch>& patches) {
  std::map<std::string, std::vector<Patch>> out;
  for (const Patch& p : patches) out[p.file].push_back(p);
  return out;
}

}  // namespace mmaemu::overlay
