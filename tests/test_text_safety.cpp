// Hostile free text (issue 11 item 3): whatever bytes a Deal, a Bribe note or
// a game name holds, every JSON the project prints is valid for a strict
// parser and every text line for a terminal carries no control characters.
// The server's feeds are checked in test_server.cpp ("hostile").
#include <catch2/catch.hpp>

#include <string>

#include "core/engine.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "support/mini_json.h"
#include "support/scenario.h"

using namespace mentat;
using namespace scenario;

namespace {

// Control characters C0, DEL and C1 (in UTF-8), ESC sequences, a byte that is
// not UTF-8, an overlong '/', an encoded surrogate, U+2028, quotes, a
// backslash and "</script>".
const std::string kHostile = std::string("a\x01" "b\x1b[31mred\x1b[0m\x7f" "c\xc2\x85" "d\xff" "e\xc0\xaf" "f\xed\xa0\x80" "g") +
                             "\xe2\x80\xa8" + "\"q\" \\ </script> \xc3\xa9 end\n\t";

bool has_raw_control(const std::string& s) {
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7f) return true;
    if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) >= 0x80 &&
        static_cast<unsigned char>(s[i + 1]) <= 0x9f)
      return true;
  }
  return false;
}

// Parses with the strict reader; fails the test with the text on error.
mini_json::Value strict(const std::string& json) {
  INFO(json);
  try {
    return mini_json::parse(json);
  } catch (const std::exception& e) {
    FAIL("not strict JSON: " << e.what());
  }
  return {};
}

}  // namespace

TEST_CASE("mini_json is strict: control characters, bad UTF-8, lone surrogates, bad numbers", "[json][hostile]") {
  CHECK_NOTHROW(mini_json::parse(R"({"a":[1,-0.5,2e3,"\u00e9\ud83d\ude00",true,null]})"));
  CHECK_NOTHROW(mini_json::parse("\"\xc3\xa9\xf0\x9f\x98\x80\""));
  for (const std::string& bad : {std::string("\"a\x01\""), std::string("\"a\x1b\""), std::string("\"tab\there\""),
                                std::string("\"\xff\""), std::string("\"\xc0\xaf\""), std::string("\"\xed\xa0\x80\""),
                                std::string("\"\xc3\""), std::string(R"("\ud800")"), std::string(R"("\udc00x")"),
                                std::string("01"), std::string("1."), std::string(".5"), std::string("+1"), std::string("nan"),
                                std::string("-"), std::string("[1,]"), std::string("{\"a\":1} x")}) {
    INFO(bad);
    CHECK_THROWS(mini_json::parse(bad));
  }
}

TEST_CASE("codec JSON is strict for any stored text", "[json][hostile]") {
  codec::Event e;
  e.version = 7;
  e.seat = 1;
  e.action = action::Deal{.with = {static_cast<uint8_t>(Faction::Harkonnen)}, .text = kHostile};
  e.client_action_id = "id\x1b\x01\xff";
  std::string json, error;
  REQUIRE(codec::event_to_json(codec::encode_event(e), &json, &error));
  CHECK_FALSE(has_raw_control(json));
  const auto v = strict(json);
  const std::string text = v["action"]["text"].str();
  // The control characters survive as escapes; bytes that are not UTF-8 read as U+FFFD.
  CHECK(text.find("\x01" "b\x1b[31m") != std::string::npos);
  CHECK(text.find("d\xef\xbf\xbd" "e") != std::string::npos);
  CHECK(text.find("\"q\" \\ </script> \xc3\xa9 end\n\t") != std::string::npos);

  // The same for a Bribe note and a game name.
  e.action = action::Bribe{.to = static_cast<uint8_t>(Faction::Atreides), .amount = 1, .note = kHostile};
  REQUIRE(codec::event_to_json(codec::encode_event(e), &json, &error));
  CHECK_FALSE(has_raw_control(json));
  strict(json);

  // json_quote: a string literal valid as JSON and inside <script>.
  const std::string q = codec::json_quote(kHostile);
  CHECK_FALSE(has_raw_control(q));
  CHECK(q.find("</script>") == std::string::npos);
  CHECK(strict(q).str().find("</script>") != std::string::npos);
}

TEST_CASE("terminal lines carry no control characters: log summaries, printable()", "[json][hostile]") {
  CHECK(codec::printable("a\x1b[31m\x01\x7f\xc2\x85\xff\n") == "a\\x1b[31m\\x01\\x7f\\xc2\\x85\\xff\\n");
  CHECK(codec::printable("caf\xc3\xa9 \xe2\x86\x92 ok") == "caf\xc3\xa9 \xe2\x86\x92 ok");

  GameState s = game({Faction::Atreides, Faction::Harkonnen, Faction::Fremen});
  play_until(s, Phase::Storm, 1);
  play_until(s, Phase::Bidding, 1);  // deals are accepted after the first storm
  const GameState before = s;
  codec::Event e;
  e.version = s.version + 1;
  e.seat = s.seat_of(Faction::Atreides);
  e.action = action::Deal{.with = {static_cast<uint8_t>(Faction::Harkonnen)}, .text = kHostile};
  REQUIRE_FALSE(validate(s, e.seat, e.action));
  apply(s, e.seat, e.action, nullptr);
  for (bool hidden : {false, true}) {
    const std::string line = inspect::summarize_event(e, &before, s, hidden);
    INFO(line);
    CHECK_FALSE(has_raw_control(line));
    CHECK(line.find("\\x1b[31m") != std::string::npos);
  }

  // The HTML replay's data is one JSON array, strict whatever the summaries hold.
  std::vector<inspect::ReplayFrame> frames{{static_cast<int64_t>(e.version), inspect::summarize_event(e, &before, s, true), "<g/>", kHostile, ""}};
  const std::string html = inspect::render_replay_html("t", frames);
  const auto at = html.find("const F = ");
  REQUIRE(at != std::string::npos);
  const auto end = html.find(";\n", at);
  REQUIRE(end != std::string::npos);
  const std::string data = html.substr(at + 10, end - at - 10);
  CHECK_FALSE(has_raw_control(data));
  const auto f = strict(data);
  CHECK(f[0]["l"].str() == "<g/>");
  CHECK(f[0]["p"].str().find("\x1b[31m") != std::string::npos);  // the text itself, escaped in the file
  CHECK(html.find("</script>", at) > end);

  // Views carry no free text today; a view of this state is strict too.
  strict(inspect::view_json(s, inspect::Viewer::state()));
}
