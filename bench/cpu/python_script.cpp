#include "bench/cpu/python_script.hpp"

#include <cstdlib>
#include <fstream>

#include "harness/core/child_process.hpp"
#include "harness/core/interrupt_guard.hpp"

namespace mmaemu::bench {

std::string python_interpreter(const std::string& configured) {
  const char* env = std::getenv("MMAEMU_PYTHON");
  return env && *env ? env : configured;
}

PythonScriptOutcome run_python_script(const PythonScript& s) {
  PythonScriptOutcome o;
  std::filesystem::create_directories(s.dir);
  std::filesystem::remove(s.result);
  ChildRequest request;
  const std::string python = python_interpreter(s.python);
  request.argv = {python};
  request.argv.insert(request.argv.end(), s.argv.begin(), s.argv.end());
  request.workdir = s.dir;
  request.log = s.dir / s.log_name;
  request.environment = s.environment;
  request.timeout_seconds = s.timeout_seconds;
  const ChildResult c = run_child(request, interrupt_flag());
  nlohmann::json result;
  if (std::ifstream in(s.result); in) result = nlohmann::json::parse(in, nullptr, false);
  if (c.end == ChildResult::End::not_started) {
    o.end = PythonScriptOutcome::End::skipped;
    o.why = "no Python to run " + s.what + " (" + python + ": " + c.error + "; set MMAEMU_PYTHON)";
  } else if (c.end == ChildResult::End::exited && c.exit_code == 3 && result.is_object() && result.contains("skipped") &&
             result["skipped"].is_string()) {
    o.end = PythonScriptOutcome::End::skipped;
    o.why = result["skipped"].get<std::string>();
  } else if (c.end != ChildResult::End::exited || c.exit_code != 0 || !result.is_object() ||
             !result.contains(s.required_key)) {
    o.why = "running " + s.what + " failed (exit " + std::to_string(c.exit_code) + "; log: " + request.log.string() + ")";
  } else {
    o.end = PythonScriptOutcome::End::ran;
    o.result = std::move(result);
  }
  return o;
}

}  // namespace mmaemu::bench
