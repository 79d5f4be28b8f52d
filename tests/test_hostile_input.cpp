// Hostile input to the names pre-pass (events/names.h), the path every
// action takes from a client (`mentat act`, POST /rooms/{id}/actions):
// nesting far past any real action, objects nested thousands deep, wide
// lists under long keys, and junk inside names. The contract: work and memory
// linear in the input, a clear sentence, nothing changed. The server-side
// cases (the same bodies over HTTP, the connection gate) are in
// test_server.cpp, "server limits: ...".
#include <catch2/catch.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/engine.h"
#include "events/codec.h"
#include "events/names.h"
#include "store/room.h"
#include "support/run_command.h"

namespace fs = std::filesystem;
using namespace mentat;

namespace {

// The peak resident memory since the last reset_peak(), in KiB (Linux:
// /proc/self/status VmHWM, reset by writing 5 to /proc/self/clear_refs).
bool reset_peak() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  f.flush();
  return static_cast<bool>(f);
}
long peak_kib() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

std::string repeat(const std::string& s, int n) {
  std::string out;
  out.reserve(s.size() * static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// {"action_type":"Pass","action": OPEN^n 0 CLOSE^n}
std::string nested(const std::string& open, const std::string& close, int n) {
  return R"({"action_type":"Pass","action":)" + repeat(open, n) + "0" + repeat(close, n) + "}";
}

}  // namespace

TEST_CASE("names pre-pass: nesting past 64 levels is refused with its own sentence, 100,000 levels included", "[names][hostile]") {
  for (const auto& [open, close] : std::vector<std::pair<std::string, std::string>>{{"[", "]"}, {R"({"a":)", "}"}}) {
    INFO(open);
    for (int n : {65, 1000, 100000}) {
      std::string out, error;
      CHECK_FALSE(names::resolve_action_json(nested(open, close, n), names::Context{}, &out, &error));
      CHECK(error == "the action's JSON nests deeper than 64 levels of objects and lists");
      // The `mentat act` and server parse path says the same.
      Action a;
      error.clear();
      CHECK_FALSE(codec::parse_action_json(nested(open, close, n), &a, nullptr, &error));
      CHECK_THAT(error, Catch::Contains("deeper than 64 levels"));
    }
    // 63 levels below "action" (64 with the root) is not refused for its depth.
    std::string out, error;
    CHECK(names::resolve_action_json(nested(open, close, 63), names::Context{}, &out, &error));
    CHECK(error.empty());
  }
}

TEST_CASE("names pre-pass: memory stays linear in the input (objects 4,000 deep, 20,000 strings under a 50 KB key)",
          "[names][hostile]") {
  if (!reset_peak()) {
    WARN("/proc/self/clear_refs is not writable here: the peak memory checks are skipped");
    return;
  }
  struct Case {
    const char* what;
    std::string json;
  };
  const std::string long_key(50000, 'k');
  std::vector<Case> cases = {
      // Before: each object recorded a copy of the whole key path (360-500 MB for 24 KB).
      {"objects 4,000 deep", nested(R"({"a":)", "}", 4000)},
      {"objects 60 deep, 2,000 wide", R"({"action_type":"Move","action":)" + repeat(R"({"a":)", 60) + "[" + repeat("{},", 1999) + "{}]" + repeat("}", 60) + "}"},
      {"strings under a long key", R"({"action_type":"Move","action":{")" + long_key + R"(":[)" + repeat(R"("Arrakeen",)", 19999) + R"("Arrakeen"]}})"},
      {"placements under a long key", R"({"action_type":"Move","action":{"from":[)" + repeat(R"({")" + long_key.substr(0, 2000) + R"(":1},)", 200) + R"({"location":"Arrakeen"}]}})"},
  };
  for (const auto& c : cases) {
    INFO(c.what << " (" << c.json.size() << " bytes)");
    reset_peak();
    const long before = peak_kib();
    std::string out, error;
    names::resolve_action_json(c.json, names::Context{}, &out, &error);
    const long grew = peak_kib() - before;
    INFO("peak grew by " << grew << " KiB");
    // The output copy and a few records per value: well under 40 bytes of
    // peak per input byte plus a constant; the quadratic path copies took
    // 15,000 per byte.
    CHECK(grew < static_cast<long>(c.json.size() * 40 / 1024) + 8 * 1024);
  }
}

TEST_CASE("names pre-pass: junk inside a name is refused, with the nearest names, never read as the name", "[names][hostile]") {
  const std::vector<std::string> junk = {
      "Hark\xff" "onnen",           // a lone byte
      "\xc0\xaf" "Harkonnen",       // an overlong UTF-8 slash
      "Hark\\u0000onnen",           // an escaped NUL
      "\\u200bHarkonnen",           // a zero-width space
      "\xe2\x80\x8b" "Harkonnen",   // the same, raw
      "\xf0\x9f\x98\x80Harkonnen",  // an emoji
      "Harkonnen\\n",               // a control character
      "Hark\\bonnen",               // an escaped backspace (was read as 'b')
  };
  for (const auto& name : junk) {
    INFO(name);
    const std::string json = R"({"action_type":"Predict","action":{"faction":")" + name + R"(","turn":3}})";
    std::string out, error;
    CHECK_FALSE(names::resolve_action_json(json, names::Context{}, &out, &error));
    CHECK_THAT(error, Catch::StartsWith("Predict.faction: no faction '"));
    CHECK_THAT(error, Catch::Contains("a name holds no byte"));
    CHECK_THAT(error, Catch::Contains("did you mean 'harkonnen'"));
    // The sentence shows the odd bytes, never the bytes themselves.
    for (unsigned char c : error) CHECK((c >= 0x20 && c < 0x7f));
  }
  // Each kind of name refuses junk the same way.
  struct Field {
    const char* json;
    const char* says;
  };
  for (const auto& f : std::vector<Field>{
           {R"({"action_type":"Move","action":{"from":[{"location":"Arr\u00e1keen","forces":1}],"to":"Arrakeen"}})", "no location"},
           {R"({"action_type":"SelectTraitor","action":{"leader":"Jam\u0001is"}})", "no leader"},
           {R"({"action_type":"ChooseBattle","action":{"territory":"\u00a0Arrakeen"}})", "no territory"},
           {R"({"action_type":"PlayCard","action":{"card":"Kara\u00adma"}})", "no treachery card"},
           {R"({"action_type":"AssignSkill","action":{"leader":1,"skill":"Mentat\u0000"}})", "no leader skill"},
       }) {
    INFO(f.json);
    std::string out, error;
    CHECK_FALSE(names::resolve_action_json(f.json, names::Context{}, &out, &error));
    CHECK_THAT(error, Catch::Contains(f.says));
    CHECK_THAT(error, Catch::Contains("a name holds no byte"));
  }
  // The plain names still read, in any case and spacing.
  for (const char* ok : {"Harkonnen", "harkonnen", "HARKONNEN", "Bene Gesserit", "bene_gesserit", "guild"}) {
    INFO(ok);
    std::string out, error;
    CHECK(names::resolve_action_json(std::string(R"({"action_type":"Predict","action":{"faction":")") + ok + R"(","turn":3}})",
                                     names::Context{}, &out, &error));
    CHECK(error.empty());
  }
  std::string error;
  CHECK(names::find_location("tueks sietch", &error));
  CHECK_FALSE(names::find_location("tueks\tsietch", &error));
}

TEST_CASE("CLI: `mentat act` refuses 100,000 levels of nesting and junk names with exit 2, storing nothing", "[names][hostile][cli]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-hostile-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string data = "--data " + (dir / "store").string();
  REQUIRE(testrun::run_mentat(data + " new --factions atreides,harkonnen,bene_gesserit --seed 4 --room h").code == 0);
  const fs::path body = dir / "deep.json";
  {
    std::ofstream f(body);
    f << nested("[", "]", 100000);
  }
  auto r = testrun::run_shell(std::string(MENTAT_BINARY) + " " + data + " act h --seat bene_gesserit --expect head - < " + body.string());
  INFO(r.out);
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("deeper than 64 levels"));
  // Inline, as large as one argument may be (about 60,000 levels).
  r = testrun::run_mentat(data + " act h --seat bene_gesserit --expect head '" + nested(R"({"a":)", "}", 12000) + "'");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("deeper than 64 levels"));
  r = testrun::run_mentat(data + R"( act h --seat bene_gesserit --expect head '{"action_type":"Predict","action":{"faction":"Hark\u0000onnen","turn":3}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'harkonnen'"));
  // Standard input is bounded like a request body.
  {
    std::ofstream f(body);
    f << std::string((1 << 20) + 10, ' ');
  }
  r = testrun::run_shell(std::string(MENTAT_BINARY) + " " + data + " act h --seat bene_gesserit --expect head - < " + body.string());
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("larger than"));
  // Numbers and ids out of range are refused, not clamped.
  r = testrun::run_mentat(data + R"( act h --seat bene_gesserit --expect 99999999999999999999 '{"action_type":"Pass","action":{}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("--expect takes a version number"));
  r = testrun::run_mentat(data + R"( act h --seat bene_gesserit --expect head --id )" + std::string(129, 'i') +
                          R"( '{"action_type":"Predict","action":{"faction":"harkonnen","turn":3}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("1..128 characters"));
  for (const char* at : {"h@5x", "h@+0", "h@-1", "h@", "h@99999999999999999999"}) {
    INFO(at);
    r = testrun::run_mentat(data + " diff " + at + " h");
    CHECK(r.code != 0);
    CHECK_THAT(r.out, Catch::Contains("bad version"));
  }
  // A control character the user typed is shown, never sent to the terminal.
  r = testrun::run_mentat(data + " log 'zz\x1b[31m'");
  CHECK(r.code != 0);
  CHECK_THAT(r.out, Catch::Contains("\\x1b[31m"));
  CHECK(r.out.find('\x1b') == std::string::npos);
  // Nothing was stored; a good action from standard input is.
  {
    std::ofstream f(body);
    f << R"({"action_type":"Predict","action":{"faction":"harkonnen","turn":3}})";
  }
  CHECK_THAT(testrun::run_mentat(data + " log h").out, !Catch::Contains("v1 "));
  r = testrun::run_shell(std::string(MENTAT_BINARY) + " " + data + " act h --seat bene_gesserit --expect head - < " + body.string());
  INFO(r.out);
  CHECK(r.code == 0);
  fs::remove_all(dir);
}
