// Writes the generated part of the fuzz seed corpora (scripts/fuzz.sh runs
// it before the fuzzers): the stored events of a seeded random game
// (encode_event bytes) into DIR/event/, and request bodies of its actions
// (api::submit_request_json) into DIR/action/ and DIR/names/ (with, for the
// names pre-pass, bodies nested and spread far past any action: 100,000
// levels, 20,000 values under a 50 KB key). The hand-written seeds are
// committed in tests/fuzz/corpus/.
//   mentat_fuzz_seeds DIR
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "events/codec.h"
#include "server/api.h"
#include "support/random_play.h"

using namespace mentat;

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: mentat_fuzz_seeds DIR\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir / "event");
  std::filesystem::create_directories(dir / "action");
  std::filesystem::create_directories(dir / "names");
  auto write = [](const std::filesystem::path& p, const std::string& bytes) {
    std::ofstream f(p, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  };
  int files = 0;
  for (const bool advanced : {false, true}) {
    GameSetup g = testplay::setup_for(advanced ? 21 : 12, 6, advanced);
    g.max_turns = 3;
    GameState s = create_game(g, nullptr);
    codec::Event created;
    created.setup = g;
    created.action = action::CreateGame{};
    created.state_hash = codec::state_hash(s);
    write(dir / "event" / (std::string(advanced ? "adv" : "basic") + "-0"), codec::encode_event(created));
    std::set<int> kinds;  // one event and one action per kind (and every 25th step)
    int step = 0;
    std::string why;
    testplay::play(s, advanced ? 5 : 6, 3000, [&](const GameState& after, const testplay::Step& st) {
      ++step;
      if (!kinds.insert(static_cast<int>(st.action.kind())).second && step % 25 != 0) return;
      codec::Event e;
      e.version = after.version;
      e.seat = st.seat;
      e.action = st.action;
      e.client_action_id = "s" + std::to_string(st.seat) + ":c" + std::to_string(step);
      e.draws = st.draws;
      e.state_hash = codec::state_hash(after);
      const std::string stem = std::string(advanced ? "adv-" : "basic-") + std::to_string(step);
      write(dir / "event" / stem, codec::encode_event(e));
      const std::string body = server::api::submit_request_json(static_cast<int64_t>(after.version) - 1, "c1", st.action);
      write(dir / "action" / stem, body);
      write(dir / "names" / stem, body);
      files += 3;
    }, &why);
  }
  auto repeat = [](const std::string& t, int n) {
    std::string out;
    for (int i = 0; i < n; ++i) out += t;
    return out;
  };
  const std::string head = R"({"expect":0,"id":"n","action_type":"Pass","action":)";
  write(dir / "names" / "deep-lists", head + repeat("[", 100000) + repeat("]", 100000) + "}");
  write(dir / "names" / "deep-objects", head + repeat(R"({"a":)", 50000) + "0" + repeat("}", 50000) + "}");
  write(dir / "names" / "wide-long-key",
        R"({"action_type":"Move","action":{")" + std::string(50000, 'k') + R"(":[)" + repeat(R"("Arrakeen",)", 20000) + R"("x"]}})");
  files += 3;
  std::printf("%d seed files in %s\n", files, dir.c_str());
  return 0;
}
