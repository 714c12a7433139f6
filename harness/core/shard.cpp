#include "harness/core/shard.hpp"

#include <cctype>
#include <cstdlib>

#include "harness/core/errors.hpp"

namespace mmaemu {
namespace {

// A whole number of at most six digits (no sign, no spaces), or -1.
long whole_number(const std::string& s) {
  if (s.empty() || s.size() > 6) return -1;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return -1;
  return std::stol(s);
}

}  // namespace

ShardInfo parse_shard(const std::string& text, const std::string& where) {
  const size_t slash = text.find('/');
  const std::string usage = "'" + text + "' is not a shard: write I/N with 1 <= I <= N (for example 2/3)";
  if (slash == std::string::npos) throw InputError(where, usage);
  const long index = whole_number(text.substr(0, slash));
  const long count = whole_number(text.substr(slash + 1));
  if (index < 1 || count < 1 || index > count) throw InputError(where, usage);
  ShardInfo s;
  s.index = static_cast<unsigned>(index);
  s.count = static_cast<unsigned>(count);
  return s;
}

namespace {

// The variable's value as a whole number, or -1 when unset; InputError when set and not a number.
long number_of(EnvLookup getenv, const char* name, const std::string& where) {
  const char* v = getenv(name);
  if (!v) return -1;
  const long n = whole_number(v);
  if (n < 0) throw InputError(where, std::string("--shard auto: ") + name + "='" + v + "' is not a whole number");
  return n;
}

ShardInfo checked(long index, long count, const std::string& from, const std::string& where) {
  if (index < 1 || count < 1 || index > count)
    throw InputError(where, "--shard auto: " + from + " is not a shard (I/N with 1 <= I <= N)");
  ShardInfo s;
  s.index = static_cast<unsigned>(index);
  s.count = static_cast<unsigned>(count);
  return s;
}

}  // namespace

ShardInfo shard_from_environment(const std::string& where, std::string* source, EnvLookup getenv) {
  std::string from;
  ShardInfo s;
  if (const char* v = getenv("MMAEMU_SHARD")) {
    from = std::string("MMAEMU_SHARD=") + v;
    try {
      s = parse_shard(v, where);
    } catch (const InputError&) {
      throw InputError(where, from + " is not a shard: write I/N with 1 <= I <= N (for example 2/3)");
    }
  } else if (const long id = number_of(getenv, "SLURM_ARRAY_TASK_ID", where); id >= 0) {
    const long count = number_of(getenv, "SLURM_ARRAY_TASK_COUNT", where);
    const long min = number_of(getenv, "SLURM_ARRAY_TASK_MIN", where);
    const long max = number_of(getenv, "SLURM_ARRAY_TASK_MAX", where);
    if (count < 0 || min < 0)
      throw InputError(where, "--shard auto: SLURM_ARRAY_TASK_ID is set without SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN");
    if (max >= 0 && max - min + 1 != count)
      throw InputError(where, "--shard auto: the Slurm array's ids " + std::to_string(min) + "-" + std::to_string(max) +
                                  " are not " + std::to_string(count) + " consecutive tasks (a step in --array is not a shard layout)");
    from = "SLURM_ARRAY_TASK_ID=" + std::to_string(id) + " (from " + std::to_string(min) + ") of SLURM_ARRAY_TASK_COUNT=" +
           std::to_string(count);
    s = checked(id - min + 1, count, from, where);
  } else if (const long index = number_of(getenv, "JOB_COMPLETION_INDEX", where); index >= 0) {
    const long count = number_of(getenv, "MMAEMU_SHARD_COUNT", where);
    if (count < 0)
      throw InputError(where, "--shard auto: JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) needs MMAEMU_SHARD_COUNT, "
                              "the job's completions, in the pod's environment");
    from = "JOB_COMPLETION_INDEX=" + std::to_string(index) + " of MMAEMU_SHARD_COUNT=" + std::to_string(count);
    s = checked(index + 1, count, from, where);
  } else if (const long node = number_of(getenv, "CI_NODE_INDEX", where); node >= 0) {
    const long total = number_of(getenv, "CI_NODE_TOTAL", where);
    from = "CI_NODE_INDEX=" + std::to_string(node) + " of CI_NODE_TOTAL=" + std::to_string(total);
    s = checked(node, total, from, where);
  } else {
    throw InputError(where, "--shard auto: no scheduler says which shard this is (set MMAEMU_SHARD=I/N, or run as a "
                            "Slurm array task, a Kubernetes Indexed Job with MMAEMU_SHARD_COUNT, or a GitLab parallel job)");
  }
  if (source) *source = from;
  return s;
}

ShardInfo resolve_shard(const std::string& text, const std::string& where, std::string* source) {
  if (text != "auto") return parse_shard(text, where);
  return shard_from_environment(where, source, [](const char* name) -> const char* { return std::getenv(name); });
}

std::string shard_directory_name(const ShardInfo& shard) {
  return "shard-" + std::to_string(shard.index) + "-of-" + std::to_string(shard.count);
}

std::string shard_text(const ShardInfo& shard) {
  return shard.sharded() ? std::to_string(shard.index) + "/" + std::to_string(shard.count) : "";
}

}  // namespace mmaemu
