#include "result.hpp"

namespace mmaemu {

const char* verdict_name(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::skip: return "skip";
    case Verdict::error: return "error";
  }
  return "?";
}

}  // namespace mmaemu
