// SPDX-License-Identifier: MIT
// A C++ program for the replay corpus: iostreams, std::string and the
// standard containers, and exceptions thrown through several frames (the
// unwinder reads the .eh_frame of the program and libstdc++).
#include <iostream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

static int parse(const std::string &s) {
  std::istringstream in(s);
  int v;
  if (!(in >> v)) throw std::invalid_argument("not a number: " + s);
  return v;
}

static int sum(const std::vector<std::string> &items) {
  int total = 0;
  for (const auto &s : items) {
    try {
      total += parse(s);
    } catch (const std::invalid_argument &e) {
      std::cout << "skipped (" << e.what() << ")\n";
    }
  }
  return total;
}

int main() {
  std::vector<std::string> items{"12", "x", "30", "7y", "-2"};
  std::map<std::string, int> counts;
  for (const auto &s : items) counts[s.substr(0, 1)]++;
  std::cout << "sum " << sum(items) << ", groups " << counts.size() << '\n';
  try {
    throw std::runtime_error("done");
  } catch (const std::exception &e) {
    std::cout << e.what() << std::endl;
  }
  return 0;
}
