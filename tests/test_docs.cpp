// Documentation that cannot go stale: every example block of README.md and
// docs/CLI.md marked "# checked by tests/test_docs.cpp" is run here, command
// by command, in a fresh directory, and every "#   expected line" under a
// command must appear in that command's output; the names table of
// docs/CLI.md must equal what `mentat names` prints (events/names.h).
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "events/names.h"

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Result {
  int code;
  std::string out;
};

Result shell(const std::string& cmd) {
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

// The checked ```sh blocks of a Markdown file.
std::vector<std::vector<std::string>> checked_blocks(const std::string& md) {
  std::vector<std::vector<std::string>> blocks;
  std::istringstream in(md);
  std::string line;
  bool in_block = false, checked = false;
  std::vector<std::string> cur;
  while (std::getline(in, line)) {
    if (!in_block && line.rfind("```sh", 0) == 0) {
      in_block = true;
      checked = false;
      cur.clear();
      continue;
    }
    if (in_block && line.rfind("```", 0) == 0) {
      in_block = false;
      if (checked) blocks.push_back(cur);
      continue;
    }
    if (!in_block) continue;
    if (line.find("# checked by tests/test_docs.cpp") != std::string::npos) checked = true;
    else cur.push_back(line);
  }
  return blocks;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.pop_back();
  size_t i = 0;
  while (i < s.size() && s[i] == ' ') ++i;
  return s.substr(i);
}

// Runs one block; returns the number of commands run.
int run_block(const std::vector<std::string>& block, const fs::path& dir) {
  const std::string bin = MENTAT_BINARY;
  Result last{0, ""};
  std::string last_cmd;
  int commands = 0;
  for (const auto& raw : block) {
    if (raw.rfind("#   ", 0) == 0) {  // an expected output line of the last command
      const std::string want = trim(raw.substr(4));
      INFO("command: " << last_cmd << "\noutput:\n" << last.out);
      CHECK_THAT(last.out, Catch::Contains(want));
      continue;
    }
    if (trim(raw).empty() || trim(raw)[0] == '#') continue;
    // "cmd   # comment": the comment may say "exit N" (default: 0).
    std::string cmd = raw, comment;
    const auto hash = raw.find("  # ");
    if (hash != std::string::npos) {
      cmd = raw.substr(0, hash);
      comment = raw.substr(hash);
    }
    cmd = trim(cmd);
    for (const char* prefix : {"./build/mentat ", "mentat "})
      if (cmd.rfind(prefix, 0) == 0) cmd = bin + " " + cmd.substr(std::string(prefix).size());
    int want_code = 0;
    const auto ex = comment.find("exit ");
    if (ex != std::string::npos) want_code = comment[ex + 5] - '0';
    last_cmd = cmd;
    last = shell("cd '" + dir.string() + "' && " + cmd);
    INFO("command: " << cmd << "\noutput:\n" << last.out);
    CHECK(last.code == want_code);
    ++commands;
  }
  return commands;
}

void check_doc(const std::string& file, int min_blocks) {
  const std::string md = read_file(fs::path(MENTAT_SOURCE_DIR) / file);
  REQUIRE(!md.empty());
  const auto blocks = checked_blocks(md);
  CHECK(static_cast<int>(blocks.size()) >= min_blocks);
  int n = 0;
  for (const auto& b : blocks) {
    const fs::path dir = fs::temp_directory_path() / ("mentat-docs-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
    fs::remove_all(dir);
    fs::create_directories(dir);
    CHECK(run_block(b, dir) > 0);
    fs::remove_all(dir);
  }
}

}  // namespace

TEST_CASE("docs: the README's example runs as printed", "[docs][cli]") { check_doc("README.md", 1); }

TEST_CASE("docs: the examples of docs/CLI.md run as printed", "[docs][cli]") { check_doc("docs/CLI.md", 1); }

TEST_CASE("docs: the names table of docs/CLI.md is the one `mentat names` prints", "[docs]") {
  const std::string md = read_file(fs::path(MENTAT_SOURCE_DIR) / "docs/CLI.md");
  const std::string begin = "<!-- names:begin (generated: mentat names) -->\n", end = "<!-- names:end -->";
  const auto b = md.find(begin), e = md.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  const std::string table = md.substr(b + begin.size(), e - b - begin.size());
  // Regenerate with: ./build/mentat names (between the markers).
  CHECK(table == mentat::names::names_markdown());
}

TEST_CASE("names: the expansion factions, leaders 30..61 and cards 33..59 have names (ids stable)", "[docs][names]") {
  using namespace mentat;
  std::string error;
  auto f = names::find_faction("CHOAM", &error);
  REQUIRE(f);
  CHECK(*f == Faction::Choam);
  CHECK(names::find_faction("moritani", &error) == Faction::Moritani);
  CHECK(names::leader_name(60) == "Auditor");
  CHECK(names::leader_name(61) == "Duke Prad Vidal");
  CHECK(names::find_leader("Duke Prad Vidal", &error) == LeaderId{61});
  CHECK(names::find_leader("Kailea Vernius", &error) == LeaderId{33});
  CHECK(names::card_name(33) == "Distrans");
  CHECK(names::card_name(59) == "Reinforcements");
  CHECK(names::card_name(60) == "?");
  const auto ids = names::find_cards("Reinforcements", &error);
  REQUIRE(ids.size() == 1);
  CHECK(ids[0] == 59);
  // A faction named in an action becomes the schema's spelling, for every faction.
  std::string out;
  REQUIRE(names::resolve_action_json(R"({"action_type":"Predict","action":{"faction":"choam","turn":3}})", names::Context{}, &out,
                                     &error));
  CHECK(out.find("\"Choam\"") != std::string::npos);
  const std::string table = names::names_markdown();
  CHECK(table.find("| 8 | `choam` | CHOAM | `Choam` | yes |") != std::string::npos);  // CHOAM plays with choam_richese (issue 15)
  CHECK(table.find("| 61 | Duke Prad Vidal | neutral |") != std::string::npos);
}
