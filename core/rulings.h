// Rulings: named readings of ambiguous rules, fixed per game.
//
// Contract: the registry is immutable program data. A game's choice of each
// ruling is stored in its creation event (by id and value name) and in the
// state (by index). Rules code asks `s.rulings.is(RulingId::X, value)`; it
// never branches on an engine version. docs/RULINGS.md lists every entry and
// a test checks that the document and the registry agree.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mentat {

enum class RulingId : uint8_t {
  ContestedStrongholdCounts = 0,  // does a stronghold shared with another faction count for victory?
  BattleUnderStorm = 1,           // battles between forces in the same sector under storm
  OrnithopterTiming = 2,          // ornithopter access: forces in Arrakeen/Carthag before the move
  BribeTiming = 3,                // bribes paid immediately, or in front of the shield until Mentat Pause
  KaramaWindows = 4,              // who is asked in a Karama response window
  BgStartBasic = 5,               // Bene Gesserit basic-game starting force: Polar Sink or anywhere
  StormDialersWithoutBattle = 6,  // who dials the storm when nobody has used the battle wheels yet
  StormOnMarker = 7,              // storm ending exactly on a player marker: is that player first?
  BoughtInOrder = 8,              // 1.04.09: order of the unsold row put back on the treachery deck
  BgWorthlessKarama = 9,          // Bene Gesserit worthless cards as Karama: advanced only, always, never
  AllyBidSupport = 10,            // 1.10.02.05: an ally's spice backs a bid automatically, or not at all
  EmperorAllyPayment = 11,        // the ally's share of the Emperor's own purchase: bank or Emperor
  KaramaBidScope = 12,            // 3.01.11.04: which Karama bids buy the card for free
  NextOpenerBasis = 13,           // 1.04.07: the previous card's opener is the first asked or the first bidder
  SpiceReshuffleBasic = 14,       // basic game spice reshuffle: every discard, or keep the top territory card
  FremenExtraWorms = 15,          // 2.04.15: "after the first sandworm" per phase or per discard pile
  RepeatedWorm = 16,              // a second Shai-Hulud in a row devours again, or only the first does
  FremenAllyProtection = 17,      // 2.04.10: the Fremen are asked at each worm, or their ally is always protected
  PlacedWormSpice = 18,           // 2.04.15: a worm placed by the Fremen destroys spice too, or forces only
  NexusReopen = 19,               // 1.10.01.07: a proposal or a break re-opens a seat that passed, or never
};
inline constexpr int kNumRulings = 20;

struct RulingInfo {
  RulingId id;
  std::string_view key;                       // "contested_stronghold"
  std::string_view question;
  std::vector<std::string_view> values;       // alternatives; index 0..n-1
  uint8_t default_value;
  std::string_view source;                    // rule number / passage
};

std::span<const RulingInfo> ruling_registry();
const RulingInfo& ruling_info(RulingId id);

struct Rulings {
  uint8_t value[kNumRulings] = {};

  static Rulings defaults();
  uint8_t get(RulingId id) const { return value[static_cast<int>(id)]; }
  bool is(RulingId id, uint8_t v) const { return get(id) == v; }
  // Sets `key=value` by names; false and a reason on an unknown key/value.
  bool set(std::string_view key, std::string_view val, std::string* error);
  friend bool operator==(const Rulings&, const Rulings&) = default;
};

}  // namespace mentat
