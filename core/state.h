// GameState: the complete position of one game, as a compact value type.
//
// Contract:
//  * Plain data: copyable with memcpy semantics, no pointers, no heap. Copy a
//    state to fork it. Not synchronised: one thread per object.
//  * Custody: every physical component has exactly one place. Treachery,
//    spice, traitor and storm cards live in ordered piles (Pile); a leader's
//    place is its LeaderZone; forces are counted per faction per place
//    (reserves, each board location, tanks). inspect/custody.h enumerates it.
//  * Spice is conserved: bank + behind shields + on the board + bribes
//    == kSpiceTotal at every version.
//  * Canonical encoding: visit_fields() below lists every field once, in a
//    fixed order; events/codec.cpp turns that into the FlatBuffers encoding
//    that is hashed (xxh3-64) after every event. Adding a field means adding
//    it to visit_fields() (and bumping kRulesVersion if behaviour changes),
//    and declaring who may see it beside it (field_sights::kAll; a hidden
//    one gets its permutation in inspect/projection.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <cstring>

#include "core/data/board.h"
#include "core/data/components.h"
#include "core/data/modules.h"
#include "core/rng.h"
#include "core/rulings.h"
#include "core/types.h"

namespace mentat {

inline constexpr int64_t kSpiceTotal = 1'000'000;  // the bank starts with it all
inline constexpr int kMaxHand = 8;

// An ordered pile of card ids; ids[n-1] is the top card.
template <int N>
struct Pile {
  uint8_t n = 0;
  uint8_t ids[N] = {};

  bool empty() const { return n == 0; }
  uint8_t top() const { return ids[n - 1]; }
  // A full pile refuses the card (the custody check then reports it missing)
  // rather than writing past its end.
  void push(uint8_t id) {
    if (n < N) ids[n++] = id;
  }
  uint8_t pop() {
    uint8_t id = ids[--n];
    ids[n] = 0;
    return id;
  }
  bool contains(uint8_t id) const {
    for (int i = 0; i < n; ++i)
      if (ids[i] == id) return true;
    return false;
  }
  // Removes one copy of id keeping the order of the rest; false if absent.
  bool remove(uint8_t id) {
    for (int i = 0; i < n; ++i) {
      if (ids[i] != id) continue;
      for (int j = i; j + 1 < n; ++j) ids[j] = ids[j + 1];
      ids[--n] = 0;
      return true;
    }
    return false;
  }
  void clear() { *this = Pile{}; }
};

enum class Phase : uint8_t {
  Setup = 0,
  Storm = 1,
  SpiceBlow = 2,
  Nexus = 3,
  Charity = 4,
  Bidding = 5,
  Revival = 6,
  ShipmentMovement = 7,
  Battle = 8,
  SpiceCollection = 9,
  MentatPause = 10,
  GameOver = 11,
};
std::string_view phase_name(Phase p);

// Sub-steps of the setup (0.xx).
enum class SetupStep : uint8_t {
  Prediction = 0,       // 2.02.03 Bene Gesserit predicts
  Traitors = 1,         // 0.11 each faction keeps one of four (Harkonnen all)
  FremenPlacement = 2,  // 2.04.02
  BgPlacement = 3,      // 2.02.08 (advanced only)
  StormDial = 4,        // 0.16 first storm, dials 0..20
};

enum class LeaderZone : uint8_t {
  Pool = 0,           // in its faction's leader pool (or the captor's: see holder)
  Tanks = 1,          // face up in the Tleilaxu Tanks
  TanksFaceDown = 2,  // killed again (1.05.04) or killed by Harkonnen (2.05.10.02)
  Battlefield = 3,    // survived a battle; returns at 1.07.07 (aux = territory)
};

struct LeaderState {
  LeaderZone zone = LeaderZone::Pool;
  uint8_t holder = kNoFaction;  // faction whose pool/battle it is in (captured: captor)
  uint8_t aux = kNone8;         // territory while on the battlefield
  uint8_t died_once = 0;        // 1 once it has been in the tanks
  uint8_t used_in_territory = kNone8;  // territory it fought in this turn (1.07.04.04)
};

// A response window: a question put to some seats, answered one way or
// another, that may interrupt another window (nested) and must resume it.
enum class WindowKind : uint8_t {
  None = 0,
  KaramaCancel = 1,  // a faction ability Karama can cancel is about to apply
  Truthtrance = 2,   // 3.01.22 the asked seat answers a free-form question yes/no (core/rules/cards.cpp)
  KaramaGiveBack = 3,  // 1.14.04 the Harkonnen give cards back for the hand they took
  DiscardSearch = 4,   // the Nullentropy Box: its holder takes a card of the treachery discard pile (core/cards/nullentropy_box.cpp)
  StoneBurner = 5,     // the Stone Burner's owner: kill both leaders or not (core/cards/stone_burner.cpp)
  SemutaTake = 6,      // the Semuta Drug: cards just discarded, a holder may take one (core/cards/semuta_drug.cpp)
  Bureaucracy = 7,     // Leader Skills, the Bureaucrat in front: force 2 of a payment to the bank, or not (core/cards/leader_skills.cpp)
  ChoamSale = 8,       // CHOAM sells cards at the end of a phase (ruling choam_sell_timing; core/factions/choam.cpp)
  SkillRevival = 9,    // Leader Skills: a leader revived by a card or Karama power (Ghola, 1.14.02) draws its skill (core/cards/leader_skills.cpp)
};

struct Window {
  WindowKind kind = WindowKind::None;
  int8_t owner = kNoSeat;     // seat whose ability/action is pending
  uint8_t asked = 0;          // seats that must answer (bit mask)
  uint8_t answered = 0;       // seats that have answered
  uint8_t subject = kNone8;   // what is pending (an ability id)
  uint8_t cancelled = 0;      // 1 when a Karama cancelled it
  uint8_t saved_waiting = 0;  // `waiting` of the interrupted decision, restored when the window closes
  uint8_t target = kNone8;    // KaramaGiveBack: the faction whose hand was taken
  // KaramaCancel: the interrupted action, replayed through its phase when no
  // Karama cancels it; the slots each kind uses: core/rules/cards.cpp keep_pending.
  uint8_t act_kind = 0;       // ActionKind
  uint8_t act_to = kNone8;
  uint8_t act_from = kNone8;
  uint8_t act_forces = 0;
  uint8_t act_special = 0;
  uint8_t act_flags = 0;      // bit 0: Ship.to_reserves, Move.flip, Voice.must, BattlePlan.kwisatz_haderach; bit 1: Ship.advisors; bits 1-7: BattlePlan.ally_pays
  uint8_t act_value = 0;      // Voice.kind, Prescience.element
  uint16_t act_amount2 = 0;   // Ship.ally_pays (1.10.02.06)
};
inline constexpr int kMaxWindows = 4;
inline constexpr int kMaxRecentDiscards = 8;  // GameState::recent_discard
inline constexpr int kPendingPlacements = 12;  // == kMaxPlacements (core/action.h)

// 3.01.22 Truthtrance: the last question asked and its answer (public: the
// question is asked and answered publicly).
struct TruthtranceRecord {
  uint8_t asker = kNoFaction;
  uint8_t asked = kNoFaction;
  uint8_t question = 0;       // rules::Question (core/rules/rules.h)
  uint8_t subject = kNone8;   // card kind, leader, spice amount, faction or turn, by question
  uint8_t answer = kNone8;    // 0 no, 1 yes, kNone8 awaiting the asked seat's answer
  uint8_t turn = 0;           // turn it was asked
};

struct FactionState {
  uint8_t in_game = 0;
  int8_t seat = kNoSeat;
  uint16_t spice = 0;          // behind the shield
  uint16_t bribes = 0;         // in front of the shield (1.12), collected in the Mentat Pause
  uint8_t reserves[2] = {};    // [0] regular, [1] special (Fedaykin/Sardaukar)
  uint8_t tanks[2] = {};
  Pile<kMaxHand> hand;
  Pile<4> traitors;            // kept traitor cards (behind the shield)
  Pile<4> traitor_offer;       // dealt at setup, not yet chosen
  Pile<4> traitors_discarded;  // the cards not kept, face down by the player marker
  uint8_t prediction_faction = kNoFaction;  // Bene Gesserit only
  uint8_t prediction_turn = 0;
  uint8_t ally = kNoFaction;
  uint8_t proposal = kNoFaction;  // alliance proposed in the current Nexus
  uint8_t charity_turn = 0;       // last turn charity was claimed (1.03.02)
  uint8_t karama_power_used = 0;  // 1.14 once per game
  uint8_t shipped = 0;            // this turn (1.06.02)
  uint8_t moved = 0;              // this turn (1.06.05.01)
  uint8_t revived = 0;            // revival done this turn
  uint8_t leader_revived_turn = 0;
  uint8_t special_revived_turn = 0;  // 2.03.11 / 2.04.20
  uint8_t storm_dial = 0;         // secret until both dials are in
  uint8_t pad = 0;
  // 1.10.02.05/06 AllyPermission: spice of mine my ally may use for its
  // shipments / (ruling ally_bid_support=permission) its bids. Known to the
  // faction and its ally; reset when an alliance is made or broken.
  uint16_t permit_ship = 0;
  uint16_t permit_bids = 0;
};

struct BiddingState {
  Pile<kMaxSeats> row;          // cards dealt for auction, ids[0] is auctioned first
  uint8_t index = 0;            // position in the row of the card up for bid
  uint8_t dealt = 0;            // how many were dealt this phase
  uint8_t high_bid = 0;
  int8_t high_bidder = kNoSeat;
  int8_t current = kNoSeat;     // seat to bid or pass
  int8_t opener = kNoSeat;      // seat that opened the bidding for this card
  uint8_t passed = 0;           // seats that passed on this card (mask)
  uint8_t eligible = 0;         // seats eligible for this card (mask)
  uint8_t karama_bid = 0;       // the high bid was made with a Karama (3.01.11.04)
  uint8_t karama_card = kNone8; // the card the high bidder named to spend as the Karama (kNone8: automatic)
  uint8_t pad = 0;
};

struct ShipMoveState {
  int8_t current = kNoSeat;     // seat whose turn it is in storm order
  uint8_t done = 0;             // seats finished this phase (mask)
  uint8_t hajr = 0;             // 3.01.09 the current seat played Hajr: one more Move (core/rules/cards.cpp)
  uint8_t ornithopters = 0;     // current seat had forces in Arrakeen/Carthag when its turn began (OrnithopterTiming)
  uint8_t last_paid_bank = 0;   // 1: the shipper's own payment went to the bank although the Guild is in (3.01.11.02 of 2.06.04)
  // 1.14.05: the current seat's shipment from reserves the Guild may still cancel by Karama
  // (kNone8: none; cleared when the seat moves or its turn ends). Public.
  LocationId last_to = kNone8;
  uint8_t last_forces = 0;
  uint8_t last_special = 0;
  uint16_t last_cost = 0;        // what it paid (to the bank or the Guild: refunded when cancelled)
  uint16_t last_ally_paid = 0;   // 1.10.02.06: what the shipper's ally paid of it (refunded to the ally)
  uint8_t last_ally_bank = 0;    // 1: the ally's share went to the bank, 0: to the shipment's payee
  // The Ornithopter card's two-group mode (CHOAM & Richese, core/cards/ornithopter.cpp): the
  // first group moved to orn_to, orn_arrived[regular, special] of the forces there arrived with
  // it (they do not move again); the card waits in GameState::treachery_played. Public.
  LocationId orn_to = kNone8;    // kNone8: no second group pending
  uint8_t orn_arrived[2] = {0, 0};
};

// 1.02 Spice Blow scratch (core/rules/spice_blow.cpp); the Fremen's part is
// FremenState::Blow.
struct SpiceBlowState {
  uint8_t pile = 0;          // discard pile being blown: 0 = A, 1 = B (1.13.02)
  uint8_t worms = 0;         // Shai-Hulud revealed this phase after turn 1
  uint8_t pile_worms = 0;    // Shai-Hulud revealed on the current pile this phase (rulings fremen_extra_worms, repeated_worm)
};

// 1.10.01 Nexus scratch (core/rules/nexus.cpp).
struct NexusState {
  FactionMask allied = 0;                   // factions that allied in this Nexus (1.10.01.02)
  FactionMask proposed[kNumFactions] = {};  // per faction: factions it proposed to in this Nexus
};

// 1.07 Battle scratch (core/rules/battle.cpp). The sub-step is GameState::step
// (BattleStep there). plan[] is SECRET until the reveal (1.07.05): a plan is
// known only to its own seat while step == plans; from the traitor step on
// both plans are public. wheels holds the cards of both revealed plans.
struct BattlePlanState {
  uint8_t leader = kNone8;      // leader id
  uint8_t cheap_hero = kNone8;  // Cheap Hero/Heroine card id
  uint8_t weapon = kNone8;      // treachery card id
  uint8_t defense = kNone8;     // treachery card id
  uint8_t dial = 0;             // force units dialed
  uint8_t spice = 0;            // 1.13.04 spice dialed (advanced)
  uint8_t kwisatz_haderach = 0; // 2.01.11 the Kwisatz Haderach accompanies the leader (advanced Atreides)
  uint8_t ally_pays = 0;        // of `spice`, what CHOAM as the ally pays (CHOAM & Richese; encoded with the module only)
  uint8_t skill_spice = 0;      // Spice Banker: spice paid to add to that leader (Leader Skills; encoded with the module only)
};

struct BattleState {
  uint8_t aggressor_index = 0;   // position in storm order of the current aggressor (1.07.02)
  uint8_t territory = kNone8;    // territory of the battle being fought
  int8_t aggressor = kNoSeat;    // seats of the two sides
  int8_t defender = kNoSeat;
  uint8_t area = 0;              // pieces in the battle: bit i = territory's first_location + i
  uint8_t plans_in = 0;          // seats (mask) whose plan is in
  uint8_t traitor_calls = 0;     // seats (mask) that called traitor (1.07.06.07)
  uint8_t finish_in = kNone8;    // ruling aggressor_order=finish_territory: territory of the aggressor's last battle
  uint8_t pad = 0;
  uint8_t winner = 0;              // 1 + side that won the resolved battle (0 aggressor, 1 defender); public
  uint8_t after = 0;               // 1 once the post-battle bookkeeping ran (2.01.10, 2.05.10)
  uint8_t karama_seen = 0;         // 1.14.01: 1 + side whose whole plan the Atreides see by Karama; public (the plan is not)
  // 3.01.11.02 (set when the battle starts, public): factions (bit = Faction) whose elite forces count
  // as one in this battle (2.03.08 / 2.04.18 prevented); 1: the Fremen need spice (2.04.21 prevented).
  FactionMask karama_elite_off = 0;
  uint8_t karama_hardened_off = 0;
  uint8_t stone_burner = 0;        // the Stone Burner's choice (core/cards/stone_burner.cpp): 0 not yet, 1 leaders live at 0, 2 both killed; public
  uint8_t fought = 0;              // battles begun this phase (capped at 255; kept in module games only, for the Juice of Sapho); public
  BattlePlanState plan[2];       // [0] aggressor, [1] defender
  Pile<6> wheels;                // cards on the revealed battle wheels
};

// ---- faction sections --------------------------------------------------------
// The state of one faction's abilities (core/factions/<faction>.cpp): one
// struct per faction that has any, a member of GameState named after the
// faction. A part named after a phase (`bidding`, `shipmove`, `blow`,
// `battle`) is that phase's scratch and is cleared with the phase's own
// (clear_*_scratch below). The canonical encoding (core/state_fields.inc)
// keeps the field order of state format 3: a section moves a field, not its
// place in the encoding.

// 2.01.10-15 the advanced Atreides' Kwisatz Haderach.
struct KwisatzHaderachState {
  uint8_t losses = 0;          // Atreides forces lost in battles (2.01.10, capped at 255); active from 7. Atreides only
  uint8_t dead = 0;            // 1 while the token is in the tanks (2.01.13/14); public
  uint8_t used_turn = 0;       // turn of its last use, 0: never (2.01.11 one territory per turn); public
  uint8_t used_territory = 0;  // territory of that use; public
};

struct AtreidesState {
  KwisatzHaderachState kh;         // 2.01.10-15
  uint8_t wormsign_turn = 0;       // 2.01.07: turn whose Shipment and Movement began with the look (0: none); public
  uint8_t wormsign_card = kNone8;  // 2.01.07: the spice card seen on top of the spice deck; SECRET (the Atreides only)
  struct Bidding {
    uint8_t blind = 0;  // 3.01.11.02: a Karama prevents the Atreides seeing this card (2.01.05); public
  } bidding;
  struct Battle {
    uint8_t prescience = 0;           // 2.01.08: 1 + element asked (1 leader, 2 weapon, 3 defense, 4 dial); public
    uint8_t prescience_answered = 0;  // 1 once the opponent has committed its answer; public
    uint8_t prescience_value = 0;     // SECRET until the reveal, known to the Atreides, their ally and the answering
                                      // seat: leader id or 100 + Cheap Hero card, card id, dial; 255: not played
    uint8_t tanks = 0;                // Atreides forces in the tanks when the resolution began (2.01.10)
  } battle;
};

struct BeneGesseritState {
  struct ShipMove {
    LocationId advisor_to = 0;  // where the shipment/move the Bene Gesserit may answer went (2.02.05/2.02.11/2.02.15)
    uint8_t resume = 0;         // sub-step that follows a Bene Gesserit intrusion answer (2.02.15)
  } shipmove;
  struct Battle {
    uint8_t voice = 0;       // 2.02.06: 1 + kind commanded (events/mentat.fbs Voice); public
    uint8_t voice_must = 0;  // 1: must play, 0: must not play; public
  } battle;
};

struct FremenState {
  uint8_t storm_losses_taken[data::kNumLocations] = {};  // 2.04.16
  Pile<6> storm_deck;              // advanced Fremen storm cards 1..6 (2.04.13)
  uint8_t storm_card = 0;          // face-down storm card for the next storm (0: none)
  uint8_t storm_card_hidden = 0;   // 1: a Karama prevents the Fremen seeing storm_card (2.04.14, 3.01.11.02); public
  uint8_t revival_grant = 0;       // 2.04.11 ruling fremen_ally_revival=fremen_decides: 1 granted this turn; 2: prevented
                                   // this turn by a Karama (3.01.11.02)
  // 1.02 Spice Blow scratch; the rides are read by the Nexus (2.04.08 Beast of Burden).
  struct Blow {
    uint8_t territory = 0;     // territory of the worm awaiting a Fremen decision (2.04.07/10/15)
    uint8_t n_rides = 0;       // 2.04.08 worm appearances the Fremen may ride
    uint8_t rides[6] = {};     // their territories, in order of appearance
    uint8_t ride_index = 0;    // next ride to offer after the Nexus
    uint8_t karama_asked = 0;  // 1.14.03: the Fremen were asked about their Karama sandworm this phase
                               // (karama_windows=all_other_seats)
  } blow;
};

struct HarkonnenState {
  Pile<8> karama_taken;  // 1.14.04 cards taken from another hand until the give-back ends (public; a hand of up to 8: CHOAM holds 5)
  struct Battle {
    uint8_t captive = 0;  // 2.05.10: 1 + leader drawn for the Harkonnen to kill or capture; public
  } battle;
};

struct GuildState {
  struct ShipMove {
    uint8_t delayed = 0;     // 2.06.12.03
    uint8_t asked = 0;       // 1 once the Guild was asked about this shipment (ruling karama_windows=all_other_seats)
    uint8_t timing_off = 0;  // 1: a Karama prevents 2.06.12 this phase (3.01.11.02): the Guild goes in storm order; public
  } shipmove;
};

// ---- module sections ---------------------------------------------------------
// The components a game module adds. A section is in the canonical encoding
// only when the game uses its module (GameState::uses), so a base game's
// encoding is state format 3 unchanged; in a game without the module it stays
// empty (inspect::check_invariants: "module"). Their rules come with the
// modules' issues (13-16); the custody zones and invariants are here now.

// No-Field tokens (CHOAM & Richese): token i has the value kNoFieldValues[i],
// printed on its face; face down, its value is the Richese's secret.
inline constexpr int kNumNoFieldTokens = 3;
inline constexpr uint8_t kNoFieldValues[kNumNoFieldTokens] = {0, 3, 5};
enum class TokenZone : uint8_t {
  Reserve = 0,   // with the Richese, face down (available)
  Board = 1,     // face down on the board at NoFieldToken::location (standing for forces)
  Revealed = 2,  // face up by the Richese shield: the last revealed, not usable next
};
// On the board, the token is also the Richese's special force at its
// location (GameState::forces[Richese][location][1] == 1): one force for
// occupancy, collection, control, movement and battle; the Richese have no
// other special forces (core/factions/richese_no_field.cpp).
struct NoFieldToken {
  TokenZone zone = TokenZone::Reserve;
  uint8_t location = kNone8;  // LocationId while on the board
};
inline constexpr int kRicheseCacheSize = 10;
// The Richese auctions (core/factions/richese.cpp): how a lot is sold.
enum class AuctionKind : uint8_t {
  Normal = 0,           // 1.04.06 (the Black Market only)
  OnceAroundRight = 1,  // once around in storm order from the seat after Richese, Richese last
  OnceAroundLeft = 2,   // once around against storm order, Richese last
  Silent = 3,           // one secret bid each, revealed together; ties: first in storm order
};
// What a Richese lot is (RicheseState::Bidding::lot).
enum class LotKind : uint8_t { None = 0, Cache = 1, BlackMarket = 2 };
struct RicheseState {
  Pile<kRicheseCacheSize> cache;  // the Richese card cache (treachery ids of the cache set); SECRET but its count (Richese only)
  NoFieldToken no_field[kNumNoFieldTokens];
  // Encoded only when the Richese sit (core/state_fields.inc), so that a
  // CHOAM game without them keeps its encoding.
  Pile<kRicheseCacheSize> removed;  // cache cards removed from the game (an unsold cache lot Richese did not keep); public
  uint8_t karama_used = 0;          // advanced: the special Karama purchase is used (once a game); public
  // The last gift declared (RicheseGift) and when; kNone8 once given (ruling richese_gift_retry). The card
  // is SECRET (the Richese and their ally: the log shows "a Richese card"); when, public.
  uint8_t gift_card = kNone8, gift_turn = 0, gift_phase = 0;
  // Ruling no_field_ally_permission = richese_allows: 1 + the ally the Richese let ship with a No-Field
  // token (AllyPermission.no_field; for that alliance only), 0 none; public. Encoded under that ruling only.
  uint8_t ally_no_field = 0;
  // 1.14.05 (core/factions/richese_no_field.cpp): the shipment of the seat
  // whose shipment turn it is carried a No-Field token (1), the token face up
  // before it was placed (kNone8: none) and whether the shipped token has
  // been revealed since (1); what the Guild's cancellation restores. Cleared
  // as each seat's shipment turn begins and by the cancellation. Public (the
  // shipment, the face-up token and a reveal are public; which token was
  // shipped is not recorded).
  struct Shipment {
    uint8_t token = 0, face_up = kNone8, revealed = 0;
  } shipment;
  // The Bidding phase's Richese steps (GameState::step, richese.cpp); cleared with the phase.
  struct Bidding {
    uint8_t cache_timing = 0;    // the cache lot: 0 not announced, 1 first, 2 last, 3 none this round; public
    uint8_t cache_done = 0;      // 1 once this round's cache lot is over (sold, unsold or prevented); public
    uint8_t market_sold = 0;     // 1: a Black Market card was sold (one fewer card is dealt); public
    LotKind lot = LotKind::None;  // the Richese lot up for bid now (None: a dealt card or none); public
    uint8_t lot_card = kNone8;   // its card: a cache lot is public; a Black Market card is SECRET (Richese, and whoever
                                 // may look at the card up for bid: 2.01.05)
    AuctionKind auction = AuctionKind::Normal;  // public
    uint8_t turns = 0;           // once around: seats that have had their turn; silent: seats whose bid is in (mask); public
    uint8_t silent_bid[kMaxSeats] = {};  // silent: each seat's bid, SECRET (its own seat) until all are in
    uint8_t after_row = 0;       // 1 while the lot follows the dealt cards (the phase ends after it); public
  } bidding;
  // The Battle phase's No-Field record (core/factions/richese_no_field.cpp); cleared with the battle.
  struct Battle {
    uint8_t no_field = 0;  // 1 + the battle side whose concealed No-Field was in this battle (kept after its reveal); public
    uint8_t revealed = 0;  // forces it became at the plans' reveal; public (the reveal is public)
  } battle;
};

// Leader Skill cards (CHOAM & Richese, ids 0..13).
struct LeaderSkillsState {
  Pile<data::kNumLeaderSkills> deck;                      // face down
  Pile<data::kNumLeaderSkills> discard;                   // face up
  Pile<4> hand[kNumFactions];                             // dealt, not yet assigned (behind the shield)
  uint8_t assigned[data::kNumLeaders] = {};               // 1 + the skill card under each leader, 0: none
  uint8_t face_down[data::kNumLeaders] = {};              // 1: that card is face down (its owner's secret)
  // A faction with no skilled leader that revived one in the Revival phase:
  // 1 + that leader's id while it assigns one of the two cards dealt (hand)
  // to it, 0 otherwise. Public.
  uint8_t revival_leader1[kNumFactions] = {};
  // Spice Banker's front band (core/cards/leader_skills.cpp): spice it collects
  // at the next Mentat Pause, and the phase of its last gain (turn * 16 +
  // phase: once a phase). Public.
  uint8_t banked = 0;
  uint16_t banked_mark = 0;
  // Rihani Decipherer's front band: the two traitor cards its owner last
  // looked at (leader ids, kNone8: none), SECRET (that faction only).
  uint8_t rihani_faction = kNoFaction;
  uint8_t rihani_seen[2] = {kNone8, kNone8};
  // Rihani Decipherer's battle band: 1 while its owner (rihani_faction), the
  // winner, decides whether to keep one of the two cards drawn (rihani_seen,
  // still in the traitor deck) for an unrevealed traitor of its own (battle
  // step kDecipher). Public.
  uint8_t rihani_swap = 0;
  // Diplomat's battle band: while its losing owner decides on its retreat
  // (battle step kDiplomatRetreat), 1 + whether the winner's leader died (for
  // the winner's losses that follow: the Suk Graduate); 0 otherwise. Public.
  uint8_t retreat_pending = 0;
  // Leaders whose traitor card a battle revealed (bit per leader id): such a
  // card is no longer "unused" for the Decipherer's swap. Public.
  uint64_t traitors_revealed = 0;
  // Mentat's front band, the battle being fought: the faction that asked
  // (kNoFaction: none), the weapon card named (public), the card shown in
  // answer (kNone8: none yet, or an empty hand; SECRET: the asker's, the
  // answerer knows its own hand) and whether the answer was given (public).
  uint8_t mentat_faction = kNoFaction;
  uint8_t mentat_asked = kNone8;
  // The bluff (SkillBehind, the battle being fought): 1 + the skilled leader
  // each faction moved behind its shield before its plan (0: none); its
  // front band stops until the battle ends. Public.
  uint8_t behind[kNumFactions] = {};
  uint8_t mentat_shown = kNone8;
  uint8_t mentat_answered = 0;
  // Bureaucrat's front band: the payment of the action being applied (or
  // waiting for an ability step to end) from one faction to another
  // (kNoFaction: none; amount summed over the action's transfers to that
  // receiver), `bureau_stage` 0 none, 1 recorded in this action, 2 waiting
  // for the game to be free of windows and ability steps, 3 its window open;
  // `bureau_rec_mark` the phase it was recorded in, `bureau_mark` the phase
  // the band was last used in (turn * 16 + phase, as banked_mark). Public.
  uint8_t bureau_payer = kNoFaction;
  uint8_t bureau_receiver = kNoFaction;
  uint8_t bureau_stage = 0;
  uint16_t bureau_amount = 0;
  uint16_t bureau_rec_mark = 0;
  uint16_t bureau_mark = 0;
  // What the Bureaucrat took from a shipment's payment in the phase of
  // bureau_mark, and its shipper: a 1.14.05 cancellation refunds it from the
  // bank (the shipper gets back all it paid). Public.
  uint8_t bureau_refund = 0;
  uint8_t bureau_refund_payer = kNoFaction;
};

// Advanced Stronghold Cards (ids 0..5, data::stronghold_card_name): each is
// by its stronghold (kNoFaction) or held face up by one faction.
struct StrongholdCardsState {
  uint8_t holder[data::kNumStrongholdCards] = {kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction};
};

// CHOAM (CHOAM & Richese; core/factions/choam.cpp): encoded with the module.
enum class Inflation : uint8_t { None = 0, Double = 1, Cancel = 2 };
struct ChoamState {
  Inflation inflation = Inflation::None;  // the Inflation token's face up side this turn; public
  uint8_t inflation_turn = 0;    // turn of the Mentat Pause that placed it (0: not yet: once a game); public
  uint8_t inflation_flipped = 0; // 1 once it was flipped (the next Mentat Pause removes it); public
  uint8_t inflation_offered = 0; // 1 while CHOAM's Mentat Pause step offers to place it; public
  uint8_t charity_bank = 0;      // 1: a Karama prevents CHOAM's charity this phase, the bank pays the claims; public
  uint8_t traded_turn = 0;       // last turn CHOAM traded a card with its ally (ruling choam_trade_limit); public
  uint8_t trade_offer = kNone8;  // the card CHOAM offers its ally (kNone8: none); SECRET (CHOAM only)
  uint8_t trade_open = 0;        // 1 while an offer waits for the ally's answer; public
  uint8_t trade_declined_turn = 0;  // last turn the ally declined (or CHOAM withdrew) an offer; public
  // The worthless-card powers in effect (public; the turn they were used in, 0: none).
  uint8_t baliset_territory = kNone8, baliset_turn = 0;  // Baliset: no moves into this territory
  uint8_t jubba_territory = kNone8, jubba_turn = 0;      // Jubba Cloak: no storm losses here
  uint8_t kulon_turn = 0;                                // Kulon: one more territory of movement
  uint8_t lalala_faction = kNoFaction, lalala_turn = 0;  // La La La: no free revival for this faction
  // Alliance: spice of CHOAM's its ally may still use for its battle spice
  // (ChoamSupport; each payment uses it up). Public.
  uint16_t battle_support = 0;
  uint8_t battle_support_to = kNoFaction;  // the ally it was given to (a later alliance starts from none)
  // Advanced: the special Karama (ChoamKarama), once a game (1 once used). Public.
  uint8_t karama_used = 0;
  // Advanced: the Auditor's look after a battle CHOAM fought with it.
  // audit_stage 1: the opponent decides whether to pay to cancel it (public);
  // 2: done for this battle. audit_cards: the cards CHOAM saw (kNone8: none);
  // SECRET: CHOAM and the audited faction only. audit_of, audit_turn: public.
  uint8_t audit_stage = 0, audit_count = 0;
  uint8_t audit_of = kNoFaction, audit_turn = 0;
  uint8_t audit_cards[2] = {kNone8, kNone8};
};

// A card whose effect is resolving (3.01: neither in a hand nor discarded
// until its use ends, e.g. the Ornithopter of Ixians & Tleilaxu). Public.
inline constexpr int kMaxPlayed = 4;

struct GameState {
  // ---- creation (fixed for the whole game) ----
  uint64_t seed = 0;
  uint8_t num_seats = 0;
  uint8_t seat_faction[kMaxSeats] = {kNoFaction, kNoFaction, kNoFaction,
                                     kNoFaction, kNoFaction, kNoFaction};
  uint8_t advanced = 0;
  uint8_t max_turns = 10;
  Rulings rulings;
  uint16_t modules = 0;   // data::ModuleSet: the game's modules (core/data/modules.h)

  // ---- progress ----
  Rng rng;
  uint64_t version = 0;   // number of events folded so far minus one (the creation event is 0)
  uint8_t turn = 0;       // 0 during setup
  Phase phase = Phase::Setup;
  uint8_t step = 0;       // phase-specific sub-step (SetupStep during setup)
  uint8_t waiting = 0;    // seats a decision is expected from (mask)
  uint8_t nexus_pending = 0;
  uint8_t shield_wall_destroyed = 0;  // Family Atomics
  FactionMask winners = 0;  // factions that won (mask over Faction), set at game over
  uint8_t victory_kind = 0;

  // ---- board ----
  int8_t storm_sector = 0;
  uint8_t storm_dialers[2] = {kNone8, kNone8};   // seats dialing the next storm
  uint8_t last_wheels[2] = {kNone8, kNone8};     // seats that last used the battle wheels
  uint16_t spice_on_board[data::kNumLocations] = {};
  uint8_t forces[kNumFactions][data::kNumLocations][2] = {};  // [1]: special / BG advisors
  int64_t bank = kSpiceTotal;

  // ---- factions, leaders ----
  FactionState f[kNumFactions];
  LeaderState leaders[data::kNumLeaders];

  // ---- decks ----
  Pile<data::kNumAllTreacheryCards> treachery_deck;  // wide enough for every card set a module adds
  Pile<data::kNumAllTreacheryCards> treachery_discard;
  // The bottom cards of treachery_discard whose faces and order no seat's
  // view shows: the rest of the pile a Nullentropy Box search shuffled
  // (core/cards/nullentropy_box.cpp). Cards discarded later lie above them
  // and are public. Back to 0 when the pile becomes the deck. Encoded with
  // the CHOAM & Richese module (its only source).
  uint8_t treachery_discard_hidden = 0;
  // The cards the action being applied discarded and who discarded each
  // (rules::to_treachery_discard), for the Semuta Drug (core/cards/semuta_drug.cpp):
  // cleared as the next action begins, kept while its window is answered.
  // Public (every discard is). Encoded with the CHOAM & Richese module (recorded only there).
  uint8_t recent_discard_n = 0;
  uint8_t recent_discard[kMaxRecentDiscards] = {kNone8, kNone8, kNone8, kNone8, kNone8, kNone8, kNone8, kNone8};
  uint8_t recent_discard_by[kMaxRecentDiscards] = {kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction, kNoFaction};
  Pile<data::kNumSpiceCards> spice_deck;
  Pile<data::kNumSpiceCards> spice_discard[2];  // A and B (1.13.02 advanced: two piles)
  Pile<data::kNumSpiceCards> spice_set_aside;   // turn-1 Shai-Hulud (1.02.02)
  Pile<data::kNumLeaders> traitor_deck;

  // ---- phase scratch ----
  BiddingState bidding;
  ShipMoveState shipmove;
  SpiceBlowState blow;
  NexusState nexus;
  BattleState battle;
  uint8_t window_depth = 0;
  Window windows[kMaxWindows];
  // 3.01.11.01: the placements of a Move waiting in a KaramaCancel window (2.04.06; the window holds the
  // rest of the action). Public: the move was announced.
  uint8_t pending_move_n = 0;
  uint8_t pending_move_loc[kPendingPlacements] = {};
  uint8_t pending_move_forces[kPendingPlacements] = {};
  uint8_t pending_move_special[kPendingPlacements] = {};

  // ---- treachery cards outside battle, Karama (core/rules/cards.cpp) ----
  uint8_t storm_override = kNone8;        // 3.01.23 Weather Control: sectors the storm moves this phase (public)
  Pile<2> treachery_set_aside;            // 3.01.07 Family Atomics, out of the game (public)
  uint8_t karama_shipment = kNoFaction;   // 3.01.11.03 faction whose shipment this turn is at Guild rates to the bank
  uint8_t ability_cleared = kNone8;       // ability a closed window let through (set only while its action is replayed)
  uint8_t cancelled_ability = kNone8;     // 3.01.11.01 / 1.00.04 ability cancelled by a Karama: the redo goes without it
  uint8_t cancelled_faction = kNoFaction; // whose ability that was
  // 3.01.11.02: per faction, abilities (bit = rules::Ability) a Karama prevents at their next use opportunity.
  uint32_t prevented[kNumFactions] = {};
  TruthtranceRecord truthtrance;          // 3.01.22 the last question and its answer (public)

  // ---- faction sections (see above) ----
  AtreidesState atreides;
  BeneGesseritState bene_gesserit;
  FremenState fremen;
  HarkonnenState harkonnen;
  GuildState guild;

  // ---- module sections (encoded only with their module; see above) ----
  Pile<kMaxPlayed> treachery_played;  // cards whose effect is resolving (public; encoded when any module is used)
  // The Juice of Sapho (core/cards/juice_of_sapho.cpp): the seat that played
  // it, its choice (JuiceMode) and the turn, phase and battle it was played
  // in; in effect only while those are the current ones, so nothing clears
  // it. Public. Encoded with the CHOAM & Richese module (its only source).
  struct Juice {
    int8_t seat = kNoSeat;
    uint8_t mode = 0;    // 0 none, 1 aggressor (this battle), 2 first, 3 last (this phase's turn order)
    uint8_t turn = 0;
    uint8_t phase = 0;
    uint8_t battle = 0;  // BattleState::fought when played (the aggressor choice's battle)
  } juice;
  RicheseState richese;               // Module::ChoamRichese
  LeaderSkillsState skills;           // Module::LeaderSkills
  StrongholdCardsState stronghold_cards;  // Module::StrongholdCards
  ChoamState choam;                   // Module::ChoamRichese
  // 3.01.11.02 the abilities 32..63 (bit = ability - 32; the module factions' ids); encoded when any module is used.
  uint32_t prevented_hi[kNumFactions] = {};

  // ---- helpers (pure) ----
  bool has(Faction fa) const {  // false for kNoFaction (a neutral leader's "faction")
    return static_cast<int>(fa) < kNumFactions && f[static_cast<int>(fa)].in_game != 0;
  }
  bool uses(data::Module m) const { return (modules & data::module_bit(m)) != 0; }
  // A leader of a faction in the game that is in this game: the CHOAM Auditor
  // only in the advanced game (CHOAM & Richese).
  bool leader_in_game(LeaderId l) const {
    return has(data::leader(l).faction) && (l != data::kAuditor || advanced != 0);
  }
  FactionState& of(Faction fa) { return f[static_cast<int>(fa)]; }
  const FactionState& of(Faction fa) const { return f[static_cast<int>(fa)]; }
  Faction faction_at(Seat s) const { return static_cast<Faction>(seat_faction[s]); }
  Seat seat_of(Faction fa) const { return f[static_cast<int>(fa)].seat; }
  uint8_t& forces_at(Faction fa, LocationId loc, int kind = 0) {
    return forces[static_cast<int>(fa)][loc][kind];
  }
  uint8_t forces_at(Faction fa, LocationId loc, int kind = 0) const {
    return forces[static_cast<int>(fa)][loc][kind];
  }
  int forces_in_location(Faction fa, LocationId loc) const {
    return forces_at(fa, loc, 0) + forces_at(fa, loc, 1);
  }
  int forces_in_territory(Faction fa, TerritoryId t) const;
  // Total of a faction's forces everywhere (board + reserves + tanks).
  int forces_total(Faction fa) const;
  bool in_storm(LocationId loc) const {  // Polar Sink never
    const int sector = data::location(loc).sector;
    return sector != data::kNoSector && sector == storm_sector;
  }
  bool sector_in_storm(int sector) const { return sector == storm_sector; }
};

// Phase scratch: the phase's own and every faction section's part of it.
inline void clear_bidding_scratch(GameState& s) {
  s.bidding = BiddingState{};
  s.atreides.bidding = {};
  s.richese.bidding = {};
}
inline void clear_shipmove_scratch(GameState& s) {
  s.shipmove = ShipMoveState{};
  s.bene_gesserit.shipmove = {};
  s.guild.shipmove = {};
}
inline void clear_blow_scratch(GameState& s) {
  s.blow = SpiceBlowState{};
  s.fremen.blow = {};
}
inline void clear_battle_scratch(GameState& s) {
  s.battle = BattleState{};
  s.atreides.battle = {};
  s.bene_gesserit.battle = {};
  s.harkonnen.battle = {};
  s.richese.battle = {};
}

// Spice movements: every change of spice names its source and destination.
enum class SpiceHolder : uint8_t { Bank, Faction, Board, Bribe };
struct SpiceAccount {
  SpiceHolder holder;
  uint8_t index;  // faction or location
};
// Moves `amount` from one account to another. Precondition (checked by the
// caller's validation): the source holds at least `amount`.
void transfer_spice(GameState& s, SpiceAccount from, SpiceAccount to, int amount);
inline SpiceAccount bank() { return {SpiceHolder::Bank, 0}; }
inline SpiceAccount shield(Faction f) { return {SpiceHolder::Faction, static_cast<uint8_t>(f)}; }
inline SpiceAccount board(LocationId l) { return {SpiceHolder::Board, l}; }
inline SpiceAccount bribe_pool(Faction f) { return {SpiceHolder::Bribe, static_cast<uint8_t>(f)}; }

// Every field of the state once, in canonical order. V provides:
//   void u8(const char* name, T& value)    for 8-bit fields (uint8_t/int8_t/enums)
//   void u16(const char* name, uint16_t&), void u64(const char* name, uint64_t&)
//   template <int N> void pile(const char* name, Pile<N>&)
//   void rulings(const char* name, Rulings&)  encoded as the count of rulings
//       that differ from their defaults, then (id, value) pairs in id order, so
//       that a ruling added at its default changes no earlier game's hash
// S is GameState or const GameState.
template <class S, class V>
void visit_fields(S& s, V& v);

}  // namespace mentat

#include "core/state_fields.inc"
