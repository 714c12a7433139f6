#include "harness/core/yaml_schema.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "harness/core/errors.hpp"
#include "harness/core/input_file.hpp"

namespace mmaemu {
namespace {

const char* type_name(ValueType t) {
  switch (t) {
    case ValueType::string: return "a string";
    case ValueType::boolean: return "true or false";
    case ValueType::integer: return "a whole number";
    case ValueType::string_list: return "a list of strings";
    case ValueType::file: return "a file path";
    case ValueType::directory: return "a directory path";
    case ValueType::mapping: return "a mapping";
    case ValueType::sequence: return "a list";
    case ValueType::mapping_or_sequence: return "a mapping or a list of mappings";
  }
  return "?";
}

const char* node_kind(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null: return "nothing";
    case YAML::NodeType::Scalar: return "a scalar";
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a mapping";
    default: return "an undefined value";
  }
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] != b[j - 1])});
      diag = up;
    }
  }
  return row[b.size()];
}

// " (did you mean 'fixtures'?)" when one known key is close to the misspelled one.
std::string suggestion(const std::string& key, const Schema& schema) {
  const KeySpec* best = nullptr;
  size_t best_d = 3;  // at most two edits away
  for (const KeySpec& k : schema) {
    const size_t d = edit_distance(key, k.name);
    if (d < best_d) {
      best_d = d;
      best = &k;
    }
  }
  return best ? " (did you mean '" + best->name + "'?)" : "";
}

std::string known_keys(const Schema& schema) {
  std::string s;
  for (const KeySpec& k : schema) s += (s.empty() ? "" : ", ") + k.name;
  return s;
}

void wrong_type(const std::string& file, const YAML::Node& n, const KeySpec& k) {
  throw InputError(where(file, n), "'" + k.name + "' must be " + type_name(k.type) + ", not " + node_kind(n));
}

void resolve_path(SchemaValue& v, const KeySpec& k, const std::filesystem::path& base_dir) {
  namespace fs = std::filesystem;
  v.path = (base_dir / v.text).lexically_normal();
  std::error_code ec;
  const std::string what = k.what.empty() ? k.name : k.what;
  if (k.type == ValueType::file) {
    v.exists = fs::is_regular_file(v.path, ec);
    if (!v.exists) v.missing_reason = what + " not found at " + v.path.string();
  } else {
    v.exists = fs::is_directory(v.path, ec);
    if (!v.exists) {
      v.missing_reason = what + " not found at " + v.path.string();
    } else if (!k.must_contain.empty() && !fs::exists(v.path / k.must_contain, ec)) {
      v.exists = false;
      v.missing_reason = what + " not found at " + v.path.string() + " (it holds no " + k.must_contain + ")";
    }
  }
}

SchemaValue check_value(const YAML::Node& n, const std::string& file, const KeySpec& k,
                        const std::filesystem::path& base_dir) {
  SchemaValue v;
  v.type = k.type;
  v.where = where(file, n);
  switch (k.type) {
    case ValueType::string:
    case ValueType::file:
    case ValueType::directory:
      if (!n.IsScalar()) wrong_type(file, n, k);
      v.text = n.Scalar();
      if (v.text.empty()) throw InputError(v.where, "'" + k.name + "' must not be empty");
      if (!k.choices.empty() && std::find(k.choices.begin(), k.choices.end(), v.text) == k.choices.end()) {
        std::string allowed;
        for (const std::string& c : k.choices) allowed += (allowed.empty() ? "" : ", ") + c;
        throw InputError(v.where, "'" + k.name + "' is '" + v.text + "'; allowed: " + allowed);
      }
      if (k.type != ValueType::string) resolve_path(v, k, base_dir);
      break;
    case ValueType::boolean:
      if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v.flag)) wrong_type(file, n, k);
      break;
    case ValueType::integer: {
      if (!n.IsScalar()) wrong_type(file, n, k);
      const std::string& s = n.Scalar();
      if (s.empty() || s.size() > 19 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        wrong_type(file, n, k);
      v.number = std::stoull(s);
      break;
    }
    case ValueType::string_list:
      if (!n.IsSequence()) wrong_type(file, n, k);
      for (const YAML::Node& item : n) {
        if (!item.IsScalar())
          throw InputError(where(file, item), "'" + k.name + "' must be " + type_name(k.type) + "; this item is " +
                                                  node_kind(item));
        v.list.push_back(item.Scalar());
      }
      break;
    case ValueType::mapping:
      if (!n.IsMap()) wrong_type(file, n, k);
      v.node = n;
      break;
    case ValueType::sequence:
      if (!n.IsSequence()) wrong_type(file, n, k);
      v.node = n;
      break;
    case ValueType::mapping_or_sequence:
      if (!n.IsMap() && !n.IsSequence()) wrong_type(file, n, k);
      v.node = n;
      break;
  }
  return v;
}

}  // namespace

KeySpec KeySpec::described_as(std::string what_it_holds) const {
  KeySpec k = *this;
  k.what = std::move(what_it_holds);
  return k;
}

KeySpec KeySpec::containing(std::string entry) const {
  KeySpec k = *this;
  k.must_contain = std::move(entry);
  return k;
}

KeySpec KeySpec::one_of(std::vector<std::string> allowed) const {
  KeySpec k = *this;
  k.choices = std::move(allowed);
  return k;
}

KeySpec required_key(std::string name, ValueType type) {
  KeySpec k;
  k.name = std::move(name);
  k.type = type;
  k.required = true;
  return k;
}

KeySpec optional_key(std::string name, ValueType type) {
  KeySpec k = required_key(std::move(name), type);
  k.required = false;
  return k;
}

std::string where(const std::string& file, const YAML::Mark& mark) {
  if (mark.line < 0 || mark.column < 0) return file;
  return file + ":" + std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

std::string where(const std::string& file, const YAML::Node& node) {
  return node.IsDefined() ? where(file, node.Mark()) : file;
}

YAML::Node load_yaml_file(const std::filesystem::path& path) {
  const std::string file = path.string();
  const std::string text = read_input_file(path, "file");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(where(file, e.mark), "not valid YAML: " + e.msg);
  }
  if (!root.IsMap()) throw InputError(where(file, root), "expected a mapping of keys at the top, found " + std::string(node_kind(root)));
  return root;
}

SchemaValues check_mapping(const YAML::Node& node, const std::string& file, const Schema& schema,
                           const std::string& context, const std::filesystem::path& base_dir) {
  if (!node.IsMap()) throw InputError(where(file, node), context + " must be a mapping of keys, not " + node_kind(node));
  SchemaValues values;
  for (auto it = node.begin(); it != node.end(); ++it) {
    const std::string key = it->first.Scalar();
    const auto spec = std::find_if(schema.begin(), schema.end(), [&](const KeySpec& k) { return k.name == key; });
    if (spec == schema.end())
      throw InputError(where(file, it->first), "unknown key '" + key + "' in " + context + suggestion(key, schema) +
                                                   "; known keys: " + known_keys(schema));
    if (values.count(key)) throw InputError(where(file, it->first), "key '" + key + "' appears twice in " + context);
    values[key] = check_value(it->second, file, *spec, base_dir);
  }
  for (const KeySpec& k : schema)
    if (k.required && !values.count(k.name))
      throw InputError(where(file, node), context + " lacks the required key '" + k.name + "'");
  return values;
}

void require_present(const SchemaValue& v) {
  if (!v.exists) throw InputError(v.where, v.missing_reason);
}

}  // namespace mmaemu
