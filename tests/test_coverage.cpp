// docs/rules-coverage.tsv stays true: one line per numbered rule, a known
// status, every test it names exists, and no "implemented" rule without a
// test or a note saying why.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

// Every TEST_CASE name in tests/*.cpp.
std::set<std::string> test_case_names(const std::string& root) {
  std::set<std::string> names;
  const std::regex tc("TEST_CASE\\(\"([^\"]*)\"");
  for (const auto& e : std::filesystem::directory_iterator(root + "/tests")) {
    if (e.path().extension() != ".cpp") continue;
    std::ifstream f(e.path());
    std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    for (std::sregex_iterator it(text.begin(), text.end(), tc), end; it != end; ++it) names.insert((*it)[1]);
  }
  return names;
}

// The rows of a coverage file (header "rule\tstatus\ttests\tnote" checked),
// each cut into its four columns; every row's id unique and its status known.
std::vector<std::vector<std::string>> coverage_rows(const std::string& path) {
  std::ifstream f(path);
  REQUIRE(f.good());
  std::string line;
  std::getline(f, line);
  CHECK(line == "rule\tstatus\ttests\tnote");
  std::vector<std::vector<std::string>> rows;
  std::set<std::string> seen;
  while (std::getline(f, line)) {
    std::vector<std::string> cols;
    std::stringstream ss(line);
    std::string c;
    while (std::getline(ss, c, '\t')) cols.push_back(c);
    cols.resize(4);
    INFO("row " << cols[0]);
    CHECK(seen.insert(cols[0]).second);
    CHECK((cols[1] == "implemented" || cols[1] == "partial" || cols[1] == "not-yet" || cols[1] == "not-applicable"));
    rows.push_back(std::move(cols));
  }
  return rows;
}

// Each test a row's tests column names ('|'-separated; a leading "§ " marks a
// section) exists.
void check_tests_exist(const std::string& tests, const std::set<std::string>& names) {
  std::stringstream ts(tests);
  std::string t;
  while (std::getline(ts, t, '|')) {
    t = std::regex_replace(t, std::regex("^ +| +$"), "");
    if (t.rfind("§ ", 0) == 0) t = t.substr(std::string("§ ").size());
    if (!t.empty()) CHECK(names.count(t) == 1);
  }
}

}  // namespace

TEST_CASE("the rules coverage file names existing tests and known statuses", "[coverage]") {
  const std::string root = MENTAT_SOURCE_DIR;
  const std::set<std::string> names = test_case_names(root);
  // ctest registers each test case by name, and CMake splits names at ';'.
  for (const auto& n : names) {
    INFO(n);
    CHECK(n.find(';') == std::string::npos);
  }
  int rules = 0;
  for (const auto& cols : coverage_rows(root + "/docs/rules-coverage.tsv")) {
    ++rules;
    INFO("rule " << cols[0]);
    if (cols[1] == "implemented") CHECK((!cols[2].empty() || !cols[3].empty()));
    if (cols[1] == "not-yet" || cols[1] == "not-applicable") CHECK(!cols[3].empty());
    check_tests_exist(cols[2], names);
  }
  CHECK(rules == 336);  // numbered_rules/0.md-3.md
}

// docs/rules-coverage-choam.tsv, docs/rules-coverage-richese.tsv and
// docs/rules-coverage-skills-strongholds.tsv: the items of the expansion
// issues (15 CHOAM, 13 Richese, 16 Leader Skills and Stronghold Cards; item number and name,
// e.g. choam.2.charity), the same columns and checks as above.
TEST_CASE("the expansion coverage files (CHOAM, Richese) name existing tests and known statuses", "[coverage]") {
  const std::string root = MENTAT_SOURCE_DIR;
  const std::set<std::string> names = test_case_names(root);
  for (const char* file : {"/docs/rules-coverage-choam.tsv", "/docs/rules-coverage-richese.tsv", "/docs/rules-coverage-skills-strongholds.tsv"}) {
    int rows = 0;
    for (const auto& cols : coverage_rows(root + file)) {
      ++rows;
      INFO(file << " item " << cols[0]);
      if (cols[1] == "implemented") CHECK(!cols[2].empty());
      if (cols[1] != "implemented") CHECK(!cols[3].empty());
      check_tests_exist(cols[2], names);
    }
    INFO(file);
    CHECK(rows > 0);
  }
}
