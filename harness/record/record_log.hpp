// What a recording run prints, kept as well so that it can be stored beside the fixtures (record.log).
#pragma once
#include <iostream>
#include <string>

namespace mmaemu::record {

class RecordLog {
 public:
  void info(const std::string& line) {
    std::cout << line << std::endl;
    text_ += line + "\n";
  }
  void error(const std::string& line) {
    std::cerr << "error: " << line << std::endl;
    text_ += "error: " + line + "\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

}  // namespace mmaemu::record
