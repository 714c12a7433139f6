// A benchmark script in a child Python (MMA-Sim's rate, numpy's sgemm, a model's forward passes): one
// place that picks the interpreter and reads what the script says. Every script writes a JSON result
// file, with "skipped": reason and exit 3 when what it needs cannot be imported.
#pragma once
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace mmaemu::bench {

// MMAEMU_PYTHON when set, else the section's `python`.
std::string python_interpreter(const std::string& configured);

struct PythonScript {
  std::string python;                 // the section's `python` (MMAEMU_PYTHON overrides it)
  std::vector<std::string> argv;      // the script's path and its arguments
  std::filesystem::path dir;          // its working directory; its log is dir/<log_name>
  std::string log_name = "script.log";
  std::filesystem::path result;       // the JSON it writes (removed before the run)
  std::map<std::string, std::optional<std::string>> environment;
  double timeout_seconds = 600;
  std::string what;                   // for messages: "MMA-Sim", "numpy's sgemm", "the models"
  std::string required_key;           // a result without this key is a failed run
};

struct PythonScriptOutcome {
  enum class End { ran, skipped, failed } end = End::failed;
  std::string why;                    // skipped and failed: the reason, naming the log where there is one
  nlohmann::json result;              // ran: the script's result
};

PythonScriptOutcome run_python_script(const PythonScript& script);

}  // namespace mmaemu::bench
