// One home per faction (issue 12 item 4, docs/ARCHITECTURE.md "Faction
// hooks"): the phase files name no faction, and every sub-step or window a
// faction adds to a phase has exactly one owner in the hook table.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/factions/faction_rules.h"

namespace fs = std::filesystem;
using namespace mentat;
using namespace mentat::rules;

namespace {

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

}  // namespace

TEST_CASE("faction homes: the phase files name no faction and read no faction's section", "[factions]") {
  const fs::path dir = fs::path(MENTAT_SOURCE_DIR) / "core" / "rules";
  // The sections of GameState that belong to one faction (core/state.h).
  const char* sections[] = {"s.atreides", "s.bene_gesserit", "s.emperor", "s.fremen", "s.harkonnen", "s.guild"};
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() != ".cpp") continue;
    ++files;
    std::ifstream in(e.path());
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string text = ss.str();
    INFO(e.path().filename().string());
    CHECK(count_of(text, "Faction::") == 0);
    for (const char* sec : sections) {
      INFO(sec);
      CHECK(count_of(text, std::string(sec) + ".") == 0);
    }
  }
  CHECK(files >= 15);  // the phase files were found
}

TEST_CASE("faction homes: each faction sub-step and window has one owner", "[factions]") {
  std::map<int, int> ship_owner, battle_owner, window_owner;
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const FactionRules& r = faction_rules(static_cast<Faction>(fi));
    for (int step = 0; step < 16; ++step)
      if ((r.ship_step.steps >> step) & 1u) {
        INFO("shipment step " << step);
        CHECK(ship_owner.emplace(step, fi).second);
        CHECK(step != ship::kShip);  // the phase's own steps
        CHECK(step != ship::kMove);
        CHECK((r.ship_step.validate && r.ship_step.apply && r.ship_step.decisions && r.ship_step.legal));
      }
    if (r.battle_step.first)
      for (int step = r.battle_step.first; step <= r.battle_step.last; ++step) {
        INFO("battle step " << step);
        CHECK(battle_owner.emplace(step, fi).second);
      }
    if (r.response_window.kind != WindowKind::None) {
      CHECK(window_owner.emplace(static_cast<int>(r.response_window.kind), fi).second);
      CHECK((r.response_window.what && r.response_window.validate && r.response_window.apply && r.response_window.decisions &&
             r.response_window.legal));
    }
    if (r.holds_ship_turn) CHECK(r.before_ship_turn);  // a held turn is asked before the others' turns
  }
  // The base factions' steps (core/rules/shipment_movement.h numbers them).
  CHECK(ship_owner[ship::kAdvisor] == static_cast<int>(Faction::BeneGesserit));
  CHECK(ship_owner[ship::kWartime] == static_cast<int>(Faction::BeneGesserit));
  CHECK(ship_owner[ship::kIntrusion] == static_cast<int>(Faction::BeneGesserit));
  CHECK(ship_owner[ship::kGuildTiming] == static_cast<int>(Faction::Guild));
  CHECK(ship_owner[ship::kGuildKarama] == static_cast<int>(Faction::Guild));
  CHECK(window_owner[static_cast<int>(WindowKind::KaramaGiveBack)] == static_cast<int>(Faction::Harkonnen));
}
