// docs/rules-coverage.tsv stays true: one line per numbered rule, a known
// status, every test it names exists, and no "implemented" rule without a
// test or a note saying why.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

TEST_CASE("the rules coverage file names existing tests and known statuses", "[coverage]") {
  const std::string root = MENTAT_SOURCE_DIR;
  std::set<std::string> names;
  const std::regex tc("TEST_CASE\\(\"([^\"]*)\"");
  for (const auto& e : std::filesystem::directory_iterator(root + "/tests")) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream f(e.path());
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), tc), end; it != end; ++it) names.insert((*it)[1]);
  }
  // ctest registers each test case by name, and CMake splits names at ';'.
  for (const auto& n : names) {
    INFO(n);
    CHECK(n.find(';') == std::string::npos);
  }
  std::ifstream f(root + "/docs/rules-coverage.tsv");
  REQUIRE(f.good());
  std::string line;
  std::getline(f, line);
  CHECK(line == "rule\tstatus\ttests\tnote");
  int rules = 0;
  std::set<std::string> seen;
  while (std::getline(f, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) cols.push_back(c);
    cols.resize(4);
    ++rules;
    INFO("rule " << cols[0]);
    CHECK(seen.insert(cols[0]).second);
    CHECK((cols[1] == "implemented" || cols[1] == "partial" || cols[1] == "not-yet" || cols[1] == "not-applicable"));
    if (cols[1] == "implemented") CHECK((!cols[2].empty() || !cols[3].empty()));
    if (cols[1] == "not-yet" || cols[1] == "not-applicable") CHECK(!cols[3].empty());
    std::stringstream ts(cols[2]);
    std::string t;
    while (std::getline(ts, t, '|')) {
      t = std::regex_replace(t, std::regex("^ +| +$"), "");
      if (t.rfind("§ ", 0) == 0) t = t.substr(std::string("§ ").size());
      if (!t.empty()) CHECK(names.count(t) == 1);
    }
  }
  CHECK(rules == 336);  // numbered_rules/0.md-3.md
}

// docs/rules-coverage-choam.tsv: the CHOAM items of issue 15 (item number and
// items, e.g. choam.2.charity), the same columns and checks as above.
TEST_CASE("the CHOAM coverage file names existing tests and known statuses", "[coverage]") {
  const std::string root = MENTAT_SOURCE_DIR;
  std::set<std::string> names;
  const std::regex tc("TEST_CASE\\(\"([^\"]*)\"");
  for (const auto& e : std::filesystem::directory_iterator(root + "/tests")) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream f(e.path());
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), tc), end; it != end; ++it) names.insert((*it)[1]);
  }
  std::ifstream f(root + "/docs/rules-coverage-choam.tsv");
  REQUIRE(f.good());
  std::string line;
  std::getline(f, line);
  CHECK(line == "rule\tstatus\ttests\tnote");
  std::set<std::string> seen;
  int rows = 0;
  while (std::getline(f, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) cols.push_back(c);
    cols.resize(4);
    ++rows;
    INFO("item " << cols[0]);
    CHECK(seen.insert(cols[0]).second);
    CHECK((cols[1] == "implemented" || cols[1] == "partial" || cols[1] == "not-yet" || cols[1] == "not-applicable"));
    if (cols[1] == "implemented") CHECK(!cols[2].empty());
    if (cols[1] != "implemented") CHECK(!cols[3].empty());
    std::stringstream ts(cols[2]);
    std::string t;
    while (std::getline(ts, t, '|')) {
      t = std::regex_replace(t, std::regex("^ +| +$"), "");
      if (!t.empty()) CHECK(names.count(t) == 1);
    }
  }
  CHECK(rows > 0);
}
