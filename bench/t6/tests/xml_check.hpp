// A tiny well-formedness check of XML (what the SVG writer must produce): one root element, every
// tag closed in order, attributes quoted, only the five predefined entities and character references.
// Enough to catch an unescaped '<' or '&' or a tag left open; not a validating parser.
#pragma once
#include <cctype>
#include <map>
#include <string>
#include <vector>

namespace mmaemu::t6::test {

struct XmlCheck {
  bool ok = true;
  std::string error;                  // the first problem, with its offset
  std::map<std::string, size_t> elements;  // element name -> count
};

inline XmlCheck check_xml(const std::string& s) {
  XmlCheck r;
  auto fail = [&](size_t at, const std::string& why) {
    if (r.ok) r.error = "offset " + std::to_string(at) + ": " + why;
    r.ok = false;
  };
  auto name_char = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == ':' || c == '.'; };
  auto check_entities = [&](size_t from, size_t to) {
    for (size_t i = from; i < to; ++i) {
      if (s[i] == '<') fail(i, "'<' in text or attribute");
      if (s[i] != '&') continue;
      const size_t semi = s.find(';', i);
      if (semi == std::string::npos || semi > to) return fail(i, "unterminated entity");
      const std::string e = s.substr(i + 1, semi - i - 1);
      if (e != "amp" && e != "lt" && e != "gt" && e != "quot" && e != "apos" && (e.empty() || e[0] != '#'))
        fail(i, "unknown entity &" + e + ";");
    }
  };
  std::vector<std::string> open;
  size_t roots = 0, i = 0;
  while (i < s.size() && r.ok) {
    if (s[i] != '<') {
      const size_t next = s.find('<', i);
      const size_t end = next == std::string::npos ? s.size() : next;
      if (open.empty())
        for (size_t j = i; j < end; ++j)
          if (!std::isspace(static_cast<unsigned char>(s[j]))) fail(j, "text outside the root element");
      check_entities(i, end);
      i = end;
      continue;
    }
    if (s.compare(i, 5, "<?xml") == 0) {
      const size_t end = s.find("?>", i);
      if (end == std::string::npos || i != 0) fail(i, "misplaced XML declaration");
      i = end == std::string::npos ? s.size() : end + 2;
      continue;
    }
    if (s.compare(i, 4, "<!--") == 0) {
      const size_t end = s.find("-->", i);
      if (end == std::string::npos) fail(i, "unterminated comment");
      i = end == std::string::npos ? s.size() : end + 3;
      continue;
    }
    const bool closing = i + 1 < s.size() && s[i + 1] == '/';
    size_t j = i + (closing ? 2 : 1);
    const size_t name_start = j;
    while (j < s.size() && name_char(s[j])) ++j;
    const std::string name = s.substr(name_start, j - name_start);
    if (name.empty()) {
      fail(i, "a tag without a name");
      break;
    }
    if (closing) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size() || s[j] != '>') fail(j, "malformed closing tag");
      if (open.empty() || open.back() != name) fail(i, "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">"));
      if (!open.empty()) open.pop_back();
      i = j + 1;
      continue;
    }
    // Attributes: name="value" pairs, then '>' or '/>'.
    bool self_closing = false;
    while (r.ok) {
      while (j < s.size() && std::isspace(static_cast<unsigned char>(s[j]))) ++j;
      if (j >= s.size()) {
        fail(j, "unterminated tag <" + name + ">");
        break;
      }
      if (s[j] == '>') { ++j; break; }
      if (s.compare(j, 2, "/>") == 0) { self_closing = true; j += 2; break; }
      const size_t a = j;
      while (j < s.size() && name_char(s[j])) ++j;
      if (a == j || j >= s.size() || s[j] != '=') { fail(j, "malformed attribute in <" + name + ">"); break; }
      ++j;
      if (j >= s.size() || (s[j] != '"' && s[j] != '\'')) { fail(j, "unquoted attribute value"); break; }
      const char q = s[j];
      const size_t end = s.find(q, j + 1);
      if (end == std::string::npos) { fail(j, "unterminated attribute value"); break; }
      check_entities(j + 1, end);
      j = end + 1;
    }
    if (open.empty() && ++roots > 1) fail(i, "a second root element <" + name + ">");
    ++r.elements[name];
    if (!self_closing) open.push_back(name);
    i = j;
  }
  if (r.ok && !open.empty()) fail(s.size(), "<" + open.back() + "> is never closed");
  if (r.ok && roots == 0) fail(0, "no root element");
  return r;
}

}  // namespace mmaemu::t6::test
