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
  AllyBidSupport = 10,            // 1.10.02.05: an ally's spice backs a bid automatically, not at all, or up to the ally's AllyPermission
  EmperorAllyPayment = 11,        // the ally's share of the Emperor's own purchase: bank or Emperor
  KaramaBidScope = 12,            // 3.01.11.04: which Karama bids buy the card for free
  NextOpenerBasis = 13,           // 1.04.07: the previous card's opener is the first asked or the first bidder
  SpiceReshuffleBasic = 14,       // basic game spice reshuffle: every discard, or keep the top territory card
  FremenExtraWorms = 15,          // 2.04.15: "after the first sandworm" per phase or per discard pile
  RepeatedWorm = 16,              // a second Shai-Hulud in a row devours again, or only the first does
  FremenAllyProtection = 17,      // 2.04.10: the Fremen are asked at each worm, or their ally is always protected
  PlacedWormSpice = 18,           // 2.04.15: a worm placed by the Fremen destroys spice too, or forces only
  NexusReopen = 19,               // 1.10.01.07: a proposal or a break re-opens a seat that passed, or never
  FaceDownLeaderRevival = 20,     // 1.05.04: a leader dead again waits for all others face down, or only for none face up in the tanks
  FremenAllyRevival = 21,         // 2.04.11: the ally's free revival of 3 always, or when the Fremen grant it
  GuildCrossShipPayment = 22,     // 2.06.04 vs 2.06.10: the Guild ally's cross-ship payment goes to the Guild or the bank
  FremenMigrationLoss = 23,       // 2.04.17: storm migration loses half rounded up (regular first) or half rounded down
  AdvisorOccupancy = 24,          // 2.02.12 vs 1.06.05.09: advisors ignore the occupancy limit, or it applies to them
  WartimeOccupancy = 25,          // 2.02.17: advisors flipping in wartime respect the occupancy limit, or ignore it
  SpiceDialingElite = 26,         // 1.13.04: one spice supports one unit of dial, or one force token (elites worth 2)
  EllacaDrugDefense = 27,         // 3.01.06: Ellaca Drug is stopped by a poison defense, or by a projectile defense
  BattleLossesScope = 28,         // 1.07.06.05 vs 1.07.01.01: the loser loses its forces in the battle area or the whole territory
  AggressorOrder = 29,            // 1.07.02/1.07.03: the aggressor orders its battles freely, or finishes a territory first
  GholaEliteLimit = 30,           // 3.01.20: the Ghola's forces ignore the one-elite-a-turn revival limit, or respect it
  EmperorKaramaEliteLimit = 31,   // 1.14.02: the Emperor's Karama revival respects the one-Sardaukar-a-turn limit, or not
  VoiceVsCheapHero = 32,          // 2.02.06 vs 1.07.04.05: "do not play a Cheap Hero" lifts the obligation, or it stands
  FamilyAtomicsAdvisors = 33,     // 3.01.07: Bene Gesserit advisors qualify for Family Atomics, or only fighters
  CaptureAfterTraitorWin = 34,    // 2.05.10 vs 1.07.06.07.01: the Harkonnen capture after a traitor win, or not
  GuildKaramaReship = 35,         // 1.14.05: a shipment cancelled by the Guild's Karama ends the shipper's shipment, or it ships again
  WinnerWorthless = 36,           // 1.07.06.06 vs 3.01.01: the winner's worthless cards are discarded, or may be kept
  GuildAllyShipmentShare = 37,    // 1.10.02.06 with 2.06.04: the Guild's share of its ally's shipment goes to the bank or stays
  KaramaAutomaticUse = 38,        // 3.01.11.02: a prevented automatic ability is used up where it changes the outcome, or at its next occasion
  DealTiming = 39,                // 0.00 vs 1.12.04: deals and bribes from the turn-1 Storm phase, or only after the first storm (0.16)
  FremenDefaultWin = 40,          // 1.09.05 vs 2.04.12: the Fremen default win without the Guild is shared with their ally, or not
  PassedBidder = 41,              // 1.04.06.02: a seat that passed on a card is out of its bidding, or asked again after a raise
  AbilityStepDeals = 42,          // 1.00.05: deals, bribes, gifts and card plays wait while an ability is used as a step (legacy: open)
  KulonOrnithopter = 43,          // CHOAM's Kulon with ornithopter movement: one more territory (4), the 3 stays the cap, or the card's 3 only
  GamontTarget = 44,              // CHOAM's Trip to Gamont: a force of another faction, or of any faction (CHOAM's own too)
  ChoamTradeLimit = 45,           // CHOAM's card trade with its ally: once a turn, or without limit
  RicheseBlackMarket = 46,        // the Richese Black Market: an advanced rule, or in every game
  RicheseBuyPayee = 47,           // the special Karama purchase's 3 spice: to the Emperor (bank without him), or to the bank
  RicheseBuyFullHand = 48,        // the special Karama purchase: needs a free hand slot, or allowed with a full hand
  RicheseGiftTiming = 49,         // the Richese gift to its ally: at any time, or not during the Bidding phase
  RicheseGiftRetry = 50,          // a Karama-cancelled Richese gift: offered again in the same phase, or not that card again this phase
  NoFieldFaceUp = 51,             // the face-up No-Field: back to the supply when another is placed, or when another is revealed
  NoFieldPool = 52,               // a battle with a No-Field and forces: forces + min(value, reserves), or that capped by the reserves
  NoFieldWorm = 53,               // a worm where the No-Field is: revealed and devoured, or the token ignored
  NoFieldAllyZero = 54,           // the ally's No-Field shipment: 0, 3 or 5, or 3 and 5 only
  NoFieldDestroyed = 55,          // a destroyed No-Field with reserves short: the reserves only, or the shortfall from the territory
  NoFieldPrescience = 56,         // the Atreides' Prescience against a No-Field battle: not the dial, or any element
  DistransSpan = 57,              // Distrans "other than during a bid": not while a lot is unresolved, or not while a bid stands
  DistransSelf = 58,              // Distrans given as the card it gives: rejected, or given (not discarded)
  BoxFullHand = 59,               // the Nullentropy Box with a full hand: needs a free slot, or allowed (the Box leaves)
  ResidualPoisonTiming = 60,      // Residual Poison: before the opponent's plan is in, or until the reveal (a plan naming the leader revoked)
  SemutaTiming = 61,              // the Semuta Drug "right after" a discard: a window asking the possible holders, or until the next action
  OrnithopterHajr = 62,           // the Ornithopter card and Hajr: only with the turn's first movement and never with Hajr, or with any movement
  OrnithopterAdvisors = 63,       // the Ornithopter card and advisors: its three-territory mode refused to advisors, or both modes
  JuiceAggressorTiming = 64,      // the Juice of Sapho's aggressor choice: until the battle is resolved, or before the plans are revealed
  HabbanyaJuice = 65,             // the Habbanya Sietch card's tie against a defender's Juice of Sapho: the holder wins, or the Juice
  SkillStacking = 66,             // Leader Skills: every matching skill bonus of a plan adds up, or only the first
  PlanetologistCheapHero = 67,    // Planetologist's weapon-slot Special: never a Cheap Hero, or any Special
  PlanetologistExclusive = 68,    // Planetologist's movement: +1 range or the two-territory gather, or both in one movement
  NoFieldGuildCancel = 69,        // 1.14.05 and a No-Field shipment: cancelled (the token back to the supply, concealed), or not cancellable
  ChoamSellTiming = 70,           // CHOAM's sale of worthless and duplicate cards: at the end of a phase, or at any time
  NoFieldAllyPermission = 71,     // the ally's No-Field shipment: needs no permission, or the Richese's (AllyPermission.no_field)
  BureaucratChoamIncome = 72,     // CHOAM's half of a battle's spice: no payment the Bureaucrat sees, or one by the faction that paid
  PlanetologistNoField = 73,      // Planetologist and a concealed No-Field marker: it moves as one force (+1, a gather origin), or forces only
  PlanetologistOrnithopter = 74,  // Planetologist's gather with the Ornithopter card: one card movement of both groups, or the card's one group only
  PlanetologistMixedGather = 75,  // Planetologist's gather of advisors and fighters where another faction is: takes up arms, or refused
  WormsignBasic = 76,             // 2.01.07 Wormsign in the basic game: the Atreides look (2.01.00), or advanced only (legacy)
  MovementAbilityWindow = 77,     // 3.01.11.01 before 2.04.06: a move beyond the range without it (a skill's band counted), or any of 2+ (legacy)
  NoFieldShippedReveal = 78,      // the marker revealed by a token shipment: stays face up until the next placement, or back unseen (legacy)
  WinnerLosses = 79,              // 1.07.06.06 with 2.03.08/2.04.18: the winner's losses worth the least over the dial, or regulars first (legacy)
  AllyBidPayer = 80,              // 1.10.02.05: the buyer's spice pays first and the ally the rest, or the ally's backing first
  KaramaBattlePrevention = 81,    // 3.01.11.02 against 2.03.08/2.04.18/2.04.21: also in the current battle, or from the next battle (legacy)
};
inline constexpr int kNumRulings = 82;

struct RulingInfo {
  RulingId id;
  std::string_view key;                       // "contested_stronghold"
  std::string_view question;
  std::vector<std::string_view> values;       // alternatives; index 0..n-1
  uint8_t default_value;
  std::string_view source;                    // rule number / passage
  // A ruling that names a behaviour the engine changed: games recorded under
  // an older rules version (the creation event's rules_version below
  // `since_rules`) that do not name the ruling take `legacy_value`, the
  // behaviour they were played under, so that they replay unchanged
  // (Rulings::defaults_for). 0: the ruling names a reading the engine always had.
  uint32_t since_rules = 0;
  uint8_t legacy_value = 0;
  // The value the canonical state encoding leaves out (events/state_codec.cpp
  // writes only the rulings that differ from it): -1, the default. A ruling
  // whose default changed keeps its old default here, so that the states
  // (and hashes) of games stored before the change stay what they were.
  int encoding_baseline = -1;
};

std::span<const RulingInfo> ruling_registry();
const RulingInfo& ruling_info(RulingId id);

struct Rulings {
  uint8_t value[kNumRulings] = {};

  static Rulings defaults();
  // The values the canonical state encoding leaves out (RulingInfo::encoding_baseline).
  static Rulings encoding_baseline();
  // The values a game recorded under `rules_version` had when it named no
  // choice: the defaults, with each ruling introduced after that version
  // (RulingInfo::since_rules) at its legacy value.
  static Rulings defaults_for(uint32_t rules_version);
  uint8_t get(RulingId id) const { return value[static_cast<int>(id)]; }
  bool is(RulingId id, uint8_t v) const { return get(id) == v; }
  // Sets `key=value` by names; false and a reason on an unknown key/value.
  bool set(std::string_view key, std::string_view val, std::string* error);
  friend bool operator==(const Rulings&, const Rulings&) = default;
};

}  // namespace mentat
