#include "core/rulings.h"

#include <array>

namespace mentat {

namespace {
const std::array<RulingInfo, kNumRulings>& registry() {
  static const std::array<RulingInfo, kNumRulings> r = {{
      {RulingId::ContestedStrongholdCounts, "contested_stronghold",
       "Does a stronghold that another faction's forces also occupy count towards a stronghold victory?",
       {"alone", "shared"}, 0,
       "1.09.03 and the glossary's Control: at least one force in a territory with no other faction's forces"},
      {RulingId::BattleUnderStorm, "battle_under_storm",
       "Do forces in the same sector under storm battle?",
       {"battle", "no_battle"}, 0,
       "1.07.01.02 BATTLING BLIND against 1.01.04 OBSTRUCTION"},
      {RulingId::OrnithopterTiming, "ornithopter_timing",
       "When must a faction have forces in Arrakeen or Carthag to move three territories?",
       {"start_of_move", "start_of_turn_action"}, 0,
       "1.06.05.03-04: 'at the start of their movement' vs before the shipment of the same action"},
      {RulingId::BribeTiming, "bribe_timing",
       "When does a bribe's spice reach its recipient?",
       {"mentat_pause", "immediate"}, 0,
       "1.12 BRIBE CONSTRAINTS (in front of the shield, collected at 1.09.01)"},
      {RulingId::KaramaWindows, "karama_windows",
       "Who is asked, and when, whether to play a Karama against a faction ability?",
       {"all_other_seats", "none"}, 1,
       "3.01.11 and 1.00.05: a Karama may cancel an ability; asking only card holders would leak hands"},
      {RulingId::BgStartBasic, "bg_start_basic",
       "Where does the Bene Gesserit's starting force go in the basic game?",
       {"polar_sink", "any_territory"}, 0,
       "2.02.02 (Polar Sink) against DuneBot's any-territory reading (reference README, disagreement 11)"},
      {RulingId::StormDialersWithoutBattle, "storm_dialers_without_battle",
       "Who dials the storm when no two players have used the battle wheels yet?",
       {"nearest_storm", "previous_dialers"}, 0,
       "1.01.02 names 'the two players who last used the Battle Wheels'; 0.16 uses the markers nearest the storm"},
      {RulingId::StormOnMarker, "storm_on_marker",
       "When the storm stops on a sector holding a player marker, who is the first player?",
       {"next_player", "that_player"}, 0,
       "1.01.01 'the Player Marker the storm next approaches' (treachery.online makes that player first)"},
  }};
  return r;
}
}  // namespace

std::span<const RulingInfo> ruling_registry() { return registry(); }

const RulingInfo& ruling_info(RulingId id) { return registry()[static_cast<int>(id)]; }

Rulings Rulings::defaults() {
  Rulings r;
  for (const auto& info : registry()) r.value[static_cast<int>(info.id)] = info.default_value;
  return r;
}

bool Rulings::set(std::string_view key, std::string_view val, std::string* error) {
  for (const auto& info : registry()) {
    if (info.key != key) continue;
    for (size_t i = 0; i < info.values.size(); ++i) {
      if (info.values[i] == val) {
        value[static_cast<int>(info.id)] = static_cast<uint8_t>(i);
        return true;
      }
    }
    if (error) {
      *error = "ruling '" + std::string(key) + "' has no value '" + std::string(val) + "' (one of:";
      for (auto v : info.values) *error += " " + std::string(v);
      *error += ")";
    }
    return false;
  }
  if (error) *error = "unknown ruling '" + std::string(key) + "'";
  return false;
}

}  // namespace mentat
