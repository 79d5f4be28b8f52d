// CHOAM (CHOAM & Richese, module choam_richese; issue 15; docs/factions/choam.md):
// the faction's abilities that the phases reach through the hook table
// (core/factions/faction_rules.h). Facts: ../shared/reference/choam-richese.json
// factions.CHOAM (the project's own tables: core/data/components.cpp).
//
//  * Setup: 2 spice, 20 forces in reserve (none on Arrakis), free revival 0,
//    hand limit 5 (data); revival of any number of forces at 1 spice each
//    (the modifiers RevivalLimitQuery / RevivalCostQuery, Karama-preventable: ChoamRevival); the
//    Auditor only in the advanced game (GameState::leader_in_game).
//  * CHOAM Charity: as the Charity phase begins CHOAM collects 2 spice per
//    player (itself included) times the Inflation multiplier from the bank,
//    never claims, and pays every other claim from its own spice (what it
//    lacks, the bank pays). A Karama prevention (ChoamCharity) is used up by
//    the next Charity phase: CHOAM collects nothing and the bank pays.
//  * Selling (ChoamSell, any time after setup outside response windows and
//    ability steps): a worthless card for 2 spice, one of two or more copies
//    of the same card for 3 (never a projectile or poison weapon). The card
//    is discarded face up. A prevention (ChoamDiscarding) stops sales until
//    the turn's Mentat Pause.
//  * The Inflation token (ChoamInflation, the CHOAM step of the Mentat
//    Pause, once a game, not in the last turn's pause): Double or Cancel for
//    the next turn; the next Mentat Pause flips it, the one after removes it.
//    Double: charity x2 and no bribes (deals.cpp asks forbids_bribes);
//    Cancel: no charity at all (the phase asks nobody). A prevention
//    (ChoamInflation) is used up by the next pause where CHOAM could place it.
//  * Advanced: CHOAM takes from the bank half (rounded down) of the spice
//    another faction pays for its dial in a battle (battle.cpp
//    battle_spice_paid), not when a traitor was revealed; a prevention
//    (ChoamBattleIncome) is used up by the next such payment. What CHOAM pays
//    for its ally (below) is not shared.
//  * Advanced, the special Karama (ChoamKarama, any time, once a game; no
//    Karama cancels it): CHOAM discards a Karama and up to four other cards
//    from its hand and takes 3 spice from the bank for each of the others.
//  * Advanced, the Auditor: after a battle CHOAM fought with the Auditor,
//    CHOAM looks at 2 cards (1 if the Auditor died) drawn at random from the
//    opponent's hand (not the cards it played in the battle); the opponent
//    may first pay CHOAM that many spice to cancel the look (battle sub-step
//    kAudit, hooks after_battle_more / battle_step / battle_ends); a
//    prevention (ChoamAudit) is used up by the next battle it would follow.
//    Never captured, revived as if all CHOAM leaders were in the tanks
//    (data::capturable, data::revives_as_if_all_dead).
//  * Alliance, paying for the ally's forces in battle: ChoamSupport sets how
//    much of CHOAM's spice its ally may use for the spice it dials
//    (BattlePlan.ally_pays; hooks ally_battle_support / ally_battle_paid,
//    battle.cpp); each payment uses the allowance up; it ends with the alliance.
#include <algorithm>
#include <string>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Choam;
constexpr uint8_t kKulonCapThree = 1, kKulonCardCapThree = 2;  // KulonOrnithopter
constexpr int kCharityPerPlayer = 2;
constexpr int kWorthlessPrice = 2;
constexpr int kDuplicatePrice = 3;
constexpr int kKaramaPrice = 3;      // the special Karama: 3 spice a card
constexpr int kAuditSeen = 2;        // the Auditor's look: 2 cards, 1 when the Auditor died

bool is_me(const GameState& s, Seat seat) { return seat >= 0 && seat < s.num_seats && s.faction_at(seat) == kMe; }
Seat my_seat(const GameState& s) { return s.seat_of(kMe); }
constexpr uint8_t kEndOfPhase = 0;  // ruling choam_sell_timing

// The worthless-card powers (below), for the Mentat Pause step's Trip to Gamont.
data::TreacheryKind kind_of(uint8_t card);
std::optional<Rejection> card_validate(const GameState& s, const action::ChoamCard& a);
void card_candidates(const GameState& s, std::vector<Action>& out);

// ---- the Inflation token ----------------------------------------------------

int multiplier(const GameState& s) {
  switch (s.choam.inflation) {
    case Inflation::Double: return 2;
    case Inflation::Cancel: return 0;
    case Inflation::None: break;
  }
  return 1;
}

const char* forbids_bribes(const GameState& s) {
  return s.choam.inflation == Inflation::Double ? "the Inflation token is Double side up: no bribes this turn (CHOAM & Richese)"
                                                : nullptr;
}

// The Mentat Pause (the game goes on): the token placed in an earlier pause
// flips, or goes once flipped; then CHOAM is asked while it still has it.
bool pause_begins(GameState& s) {
  auto& c = s.choam;
  if (c.inflation != Inflation::None && c.inflation_turn < s.turn) {
    if (c.inflation_flipped) {
      c.inflation = Inflation::None;
    } else {
      c.inflation = c.inflation == Inflation::Double ? Inflation::Cancel : Inflation::Double;
      c.inflation_flipped = 1;
    }
  }
  bool inflation = c.inflation_turn == 0 && s.turn < s.max_turns;  // once a game; a next turn to apply to
  if (inflation && ability_cancelled(s, kMe, Ability::ChoamInflation)) {  // 3.01.11.02: this pause is its use opportunity
    consume_prevention(s, kMe, Ability::ChoamInflation);
    inflation = false;
  }
  c.inflation_offered = inflation ? 1 : 0;
  s.waiting = bit(s.seat_of(kMe));
  s.step = 1;  // so that Trip to Gamont sees CHOAM's step (mentat_pause.cpp sets it too)
  std::vector<Action> gamont;
  for (int i = 0; i < s.of(kMe).hand.n; ++i)
    if (kind_of(s.of(kMe).hand.ids[i]) == data::TreacheryKind::TripToGamont) card_candidates(s, gamont);
  bool any_gamont = false;
  for (const auto& a : gamont)
    any_gamont = any_gamont || (a.as<action::ChoamCard>().card < data::kNumAllTreacheryCards &&
                                kind_of(a.as<action::ChoamCard>().card) == data::TreacheryKind::TripToGamont &&
                                !card_validate(s, a.as<action::ChoamCard>()));
  if (inflation || any_gamont) return true;
  s.waiting = 0;
  s.step = 0;
  return false;
}

// The token may be placed now: offered at this pause, and no Karama cancelled
// its placement here (3.01.11.01: CHOAM answers again without it, 1.00.04).
bool inflation_open(const GameState& s) { return s.choam.inflation_offered && !ability_blocked(s, kMe, Ability::ChoamInflation); }

std::optional<Rejection> pause_validate(const GameState& s, const Action& a) {
  if (a.kind() == ActionKind::Pass) return std::nullopt;
  if (const auto* inf = a.get_if<action::ChoamInflation>()) {
    if (!s.choam.inflation_offered) return reject(RejectCode::IllegalChoice, "the Inflation token is not CHOAM's to place in this Mentat Pause (once a game, not prevented)");
    if (auto why = ability_blocked(s, kMe, Ability::ChoamInflation)) return reject(RejectCode::IllegalChoice, *why);
    if (inf->side != 1 && inf->side != 2) return reject(RejectCode::Malformed, "the Inflation token's side is 1 (Double) or 2 (Cancel)");
    return std::nullopt;
  }
  return reject(RejectCode::WrongPhase, "CHOAM places the Inflation token (ChoamInflation) or passes");
}

bool pause_apply(GameState& s, const Action& a) {
  if (const auto* inf = a.get_if<action::ChoamInflation>()) {
    s.choam.inflation = inf->side == 1 ? Inflation::Double : Inflation::Cancel;
    s.choam.inflation_turn = s.turn;
    s.choam.inflation_flipped = 0;
  }
  s.choam.inflation_offered = 0;
  s.waiting = 0;
  return false;
}

Ability pause_uses(const GameState&, const Action& a) {
  return a.kind() == ActionKind::ChoamInflation ? Ability::ChoamInflation : Ability::None;
}

void pause_decisions(const GameState& s, std::vector<Decision>& out) {
  if (!inflation_open(s)) {
    out.push_back(Decision{ActionKind::Pass, "End CHOAM's Mentat Pause step (Trip to Gamont is offered as a card power)", 0, 0, {}});
    return;
  }
  out.push_back(Decision{ActionKind::ChoamInflation,
                         "Place the Inflation token for the next turn, once a game: Double side up (charity doubled, no bribes) "
                         "or Cancel side up (no charity); it flips the turn after, then goes",
                         1, 2, {}});
  out.push_back(Decision{ActionKind::Pass, "Keep the Inflation token", 0, 0, {}});
}

void pause_legal(const GameState& s, std::vector<Action>& out) {
  if (inflation_open(s)) {
    out.push_back(action::ChoamInflation{.side = 1});
    out.push_back(action::ChoamInflation{.side = 2});
  }
  out.push_back(action::Pass{});
}

// ---- CHOAM Charity ------------------------------------------------------------

int charity_multiplier(const GameState& s) { return multiplier(s); }

void charity_begins(Ctx& c) {
  auto& s = c.s;
  s.choam.charity_bank = 0;
  if (ability_cancelled(s, kMe, Ability::ChoamCharity)) {  // 3.01.11.02: collects nothing, the bank pays
    consume_prevention(s, kMe, Ability::ChoamCharity);
    s.choam.charity_bank = 1;
    return;
  }
  transfer_spice(s, bank(), shield(kMe), kCharityPerPlayer * s.num_seats * multiplier(s));
}

bool charity_payer(const GameState& s) { return s.choam.charity_bank == 0; }

// ---- selling cards -----------------------------------------------------------

// The card CHOAM has offered its ally in trade stays in hand for the answer.
std::optional<std::string> card_promised(const GameState& s, Seat seat, uint8_t card) {
  if (!s.choam.trade_open || card != s.choam.trade_offer || s.faction_at(seat) != kMe) return std::nullopt;
  return std::string(data::treachery_card(card).name) + " is offered to your ally in trade: it stays in hand until the answer";
}

// What CHOAM receives for `card` from its hand now (0: it cannot sell it).
int price(const GameState& s, uint8_t card) {
  const auto& hand = s.of(kMe).hand;
  if (card >= data::kNumAllTreacheryCards || !hand.contains(card)) return 0;
  if (s.choam.trade_open && card == s.choam.trade_offer) return 0;  // offered in trade
  const auto& tc = data::treachery_card(card);
  if (tc.category == data::TreacheryCategory::Worthless) return kWorthlessPrice;
  if (tc.category == data::TreacheryCategory::WeaponProjectile || tc.category == data::TreacheryCategory::WeaponPoison) return 0;
  for (int i = 0; i < hand.n; ++i)
    if (hand.ids[i] != card && data::treachery_card(hand.ids[i]).kind == tc.kind) return kDuplicatePrice;
  return 0;
}

// ---- the worthless-card powers (ChoamCard) --------------------------------------

using data::TreacheryKind;
TreacheryKind kind_of(uint8_t card) { return data::treachery_card(card).kind; }
bool in_phase_order(const GameState& s, Phase from, Phase to) {
  return static_cast<int>(s.phase) >= static_cast<int>(from) && static_cast<int>(s.phase) <= static_cast<int>(to);
}
std::string ter_name(TerritoryId t) { return std::string(data::territory(t).name); }

// Trip to Gamont: may `f`'s force at `loc` be sent back (ruling gamont_target)?
bool gamont_target(const GameState& s, uint8_t f, LocationId loc) {
  if (f >= kNumFactions || !s.has(static_cast<Faction>(f)) || loc >= data::kNumLocations || s.in_storm(loc)) return false;
  if (static_cast<Faction>(f) == kMe && s.rulings.is(RulingId::GamontTarget, 0)) return false;  // another_faction
  return s.forces_in_location(static_cast<Faction>(f), loc) > 0;
}

std::optional<Rejection> card_validate(const GameState& s, const action::ChoamCard& a) {
  const auto& fs = s.of(kMe);
  if (a.card >= data::kNumAllTreacheryCards || !fs.hand.contains(a.card))
    return reject(RejectCode::IllegalChoice, "CHOAM plays a worthless card from its own hand");
  if (auto why = ability_blocked(s, kMe, Ability::ChoamDiscarding)) return reject(RejectCode::IllegalChoice, *why);
  if (s.choam.trade_open && a.card == s.choam.trade_offer)
    return reject(RejectCode::IllegalChoice, "that card is offered to the ally in trade: withdraw the offer first");
  const std::string name(data::treachery_card(a.card).name);
  const bool has_loc = a.location < data::kNumLocations;
  switch (kind_of(a.card)) {
    case TreacheryKind::Baliset:
      if (s.phase != Phase::ShipmentMovement) return reject(RejectCode::WrongPhase, "Baliset is played in the Shipment and Movement phase");
      if (!has_loc || s.forces_in_territory(kMe, data::territory_of(a.location)) == 0)
        return reject(RejectCode::IllegalChoice, "Baliset closes a territory CHOAM occupies (location: one of its pieces)");
      return std::nullopt;
    case TreacheryKind::JubbaCloak:
      if (s.phase != Phase::Storm || s.waiting == 0)
        return reject(RejectCode::WrongPhase, "Jubba Cloak is played in the Storm phase before the storm moves");
      if (!has_loc || s.forces_in_territory(kMe, data::territory_of(a.location)) == 0)
        return reject(RejectCode::IllegalChoice, "Jubba Cloak shelters a territory where CHOAM has forces (location: one of its pieces)");
      return std::nullopt;
    case TreacheryKind::Kulon:
      if (s.phase != Phase::ShipmentMovement || s.shipmove.current != s.seat_of(kMe) || fs.moved)
        return reject(RejectCode::WrongPhase, "Kulon is played in CHOAM's own Shipment and Movement turn, before it moves");
      if (s.choam.kulon_turn == s.turn) return reject(RejectCode::IllegalChoice, "Kulon is already in play this turn");
      return std::nullopt;
    case TreacheryKind::LaLaLa: {
      if (!in_phase_order(s, Phase::Storm, Phase::Revival))
        return reject(RejectCode::WrongPhase, "La La La is played before or during the Revival phase of the turn");
      if (a.faction >= kNumFactions || !s.has(static_cast<Faction>(a.faction)) || static_cast<Faction>(a.faction) == kMe)
        return reject(RejectCode::IllegalChoice, "La La La names another faction in the game (faction)");
      if (s.phase == Phase::Revival && s.of(static_cast<Faction>(a.faction)).revived)
        return reject(RejectCode::IllegalChoice, "that faction has already revived this turn");
      return std::nullopt;
    }
    case TreacheryKind::TripToGamont:
      if (s.phase != Phase::MentatPause || s.step == 0 || !has_bit(s.waiting, s.seat_of(kMe)))
        return reject(RejectCode::WrongPhase, "Trip to Gamont is played in CHOAM's step of the Mentat Pause");
      if (!gamont_target(s, a.faction, a.location))
        return reject(RejectCode::IllegalChoice, s.rulings.is(RulingId::GamontTarget, 0)
                                                     ? "Trip to Gamont sends one force of another faction (faction) at a location out of the storm (location) back to its reserves"
                                                     : "Trip to Gamont sends one force (faction) at a location out of the storm (location) back to its reserves");
      return std::nullopt;
    default: break;
  }
  return reject(RejectCode::IllegalChoice, name + " has no CHOAM power in this release (Kull Wahad comes with the Ixians & Tleilaxu cards)");
}

void card_apply(GameState& s, const action::ChoamCard& a) {
  auto& c = s.choam;
  const TreacheryKind k = kind_of(a.card);
  s.of(kMe).hand.remove(a.card);
  to_treachery_discard(s, a.card, kMe);  // discarded on use
  switch (k) {
    case TreacheryKind::Baliset:
      c.baliset_territory = data::territory_of(a.location);
      c.baliset_turn = s.turn;
      break;
    case TreacheryKind::JubbaCloak:
      c.jubba_territory = data::territory_of(a.location);
      c.jubba_turn = s.turn;
      break;
    case TreacheryKind::Kulon: c.kulon_turn = s.turn; break;
    case TreacheryKind::LaLaLa:
      c.lalala_faction = a.faction;
      c.lalala_turn = s.turn;
      break;
    case TreacheryKind::TripToGamont: {  // one force back to its reserves: a regular one first
      const auto f = static_cast<Faction>(a.faction);
      // A concealed No-Field there is revealed first (RICHESE_NO_FIELD_RULES: the card is used even at 0).
      if (const auto h = faction_rules(f).force_token.reveal; h && s.forces_at(f, a.location, 1) > 0) h(s, a.location);
      if (s.forces_at(f, a.location, 0) > 0)
        move_forces(s, f, at(a.location), reserves_zone(), 1, 0, ForceCause::Card);
      else if (s.forces_at(f, a.location, 1) > 0)  // Bene Gesserit advisors: regular in reserve
        move_forces(s, f, at(a.location), reserves_zone(), 0, 1, ForceCause::Card,
                    faction_rules(f).specials_tank_as_regular ? ArriveAs::Regular : ArriveAs::Same);
      break;
    }
    default: break;
  }
}

// The ChoamCard candidates now (a superset of the legal ones: validate filters).
void card_candidates(const GameState& s, std::vector<Action>& out) {
  const auto& hand = s.of(kMe).hand;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t card = hand.ids[i];
    action::ChoamCard a{.card = card};
    switch (kind_of(card)) {
      case TreacheryKind::Baliset:
      case TreacheryKind::JubbaCloak:
        for (int t = 0; t < data::kNumTerritories; ++t)
          if (s.forces_in_territory(kMe, static_cast<TerritoryId>(t)) > 0) {
            a.location = data::territory(static_cast<TerritoryId>(t)).first_location;
            out.push_back(a);
          }
        break;
      case TreacheryKind::Kulon: out.push_back(a); break;
      case TreacheryKind::LaLaLa:
        for (int f = 0; f < kNumFactions; ++f) {
          a.faction = static_cast<uint8_t>(f);
          out.push_back(a);
        }
        break;
      case TreacheryKind::TripToGamont:
        for (int f = 0; f < kNumFactions; ++f)
          for (int l = 0; l < data::kNumLocations; ++l)
            if (gamont_target(s, static_cast<uint8_t>(f), static_cast<LocationId>(l))) {
              a.faction = static_cast<uint8_t>(f);
              a.location = static_cast<LocationId>(l);
              out.push_back(a);
            }
        break;
      default: break;
    }
  }
}

// Kulon (the modifier MovementRangeQuery, order 2: after every other range
// rule, core/rules/owners.h): one more territory this turn, not for a group
// of advisors. Ruling kulon_ornithopter: plus_one adds it everywhere;
// cap_three keeps three as the maximum of every ornithopter movement;
// card_cap_three (the seeds) keeps the Ornithopter card's one group at its
// printed three and extends every normal range.
int kulon_range(const GameState& s, const MovementRangeQuery& q, int range) {
  if (q.mover != kMe || q.basis == RangeBasis::PassiveGroup || s.choam.kulon_turn != s.turn) return range;
  const uint8_t reading = s.rulings.get(RulingId::KulonOrnithopter);
  if (reading == kKulonCapThree && range >= 3) return range;
  if (reading == kKulonCardCapThree && q.basis == RangeBasis::OrnithopterCard) return range;
  return range + 1;
}

// Baliset (hook move_blocked): the others may not move into the territory this phase.
std::string move_blocked(const GameState& s, Faction mover, TerritoryId to) {
  if (mover == kMe || s.choam.baliset_turn != s.turn || s.phase != Phase::ShipmentMovement || to != s.choam.baliset_territory) return {};
  return "CHOAM's Baliset closes " + ter_name(to) + " to moves this phase";
}

// Jubba Cloak (hook storm_catches): no storm losses in that territory this turn.
bool storm_catches(GameState& s, LocationId loc, int reg, int spec) {
  if (s.choam.jubba_turn == s.turn && data::territory_of(loc) == s.choam.jubba_territory) return false;
  forces_to_tanks(s, kMe, loc, reg, spec);
  return false;
}

// La La La (the modifier FreeRevivalQuery, order 1: after any grant): the
// named faction has no free revival this turn.
int lalala_revival(const GameState& s, const FreeRevivalQuery& q, int n) {
  return s.choam.lalala_turn == s.turn && s.choam.lalala_faction == static_cast<uint8_t>(q.faction) ? 0 : n;
}

// CHOAM's own revival (the modifiers RevivalLimitQuery / RevivalCostQuery):
// up to 20 forces a turn at 1 spice each beyond the free ones, unless a
// Karama prevents it (3.01.11.02: 1.05.01 applies; the prevention is used up
// by revival.cpp with revival_ability).
constexpr int kRevivalLimit = 20, kRevivalCost = 1;
bool own_revival(const GameState& s, Faction f) { return f == kMe && !ability_cancelled(s, kMe, Ability::ChoamRevival); }
int revival_limit(const GameState& s, const RevivalLimitQuery& q, int n) { return own_revival(s, q.faction) ? kRevivalLimit : n; }
int revival_cost(const GameState& s, const RevivalCostQuery& q, int n) { return own_revival(s, q.faction) ? kRevivalCost : n; }

// ---- alliance: the card trade (ChoamTrade) --------------------------------------

uint8_t live_ally(const GameState& s) { return ally_in_game(s, kMe); }

// A card of `seat`'s hand that is promised now: a lot up for bid (the Richese
// Black Market), or a Karama while that seat's high bid was made with a
// Karama (3.01.11.04: its Karama cards stay in hand until the sale).
std::optional<std::string> promised(const GameState& s, Seat seat, uint8_t card) {
  if (lot_promises(s, seat, card)) return std::string(data::treachery_card(card).name) + " is up for bid: it stays in hand until its auction ends";
  if (s.phase == Phase::Bidding && s.bidding.karama_bid && s.bidding.high_bidder == seat && current_lot_card(s) != kNone8 &&
      counts_as_karama(s, s.faction_at(seat), card))
    return std::string("the high bid was made with a Karama: the Karama cards stay in hand until the card is sold (3.01.11.04)");
  return std::nullopt;
}

// CHOAM (at `seat`) may sell `card` now, timing apart.
std::optional<Rejection> sell_check(const GameState& s, Seat seat, uint8_t card) {
  if (card >= data::kNumAllTreacheryCards || !s.of(kMe).hand.contains(card))
    return reject(RejectCode::IllegalChoice, "CHOAM sells a card from its own hand");
  if (auto why = ability_blocked(s, kMe, Ability::ChoamDiscarding)) return reject(RejectCode::IllegalChoice, *why);
  if (auto why = promised(s, seat, card)) return reject(RejectCode::IllegalChoice, *why);
  if (price(s, card) == 0)
    return reject(RejectCode::IllegalChoice, std::string(data::treachery_card(card).name) +
                                                 " is neither worthless nor one of two copies of the same card (projectile and poison "
                                                 "weapons never count as copies)");
  return std::nullopt;
}

std::optional<Rejection> trade_validate(const GameState& s, Seat seat, const action::ChoamTrade& a) {
  const auto& c = s.choam;
  const uint8_t ally = live_ally(s);
  if (is_me(s, seat)) {
    if (a.card == kNone8) {
      if (!c.trade_open) return reject(RejectCode::IllegalChoice, "CHOAM has no card trade offer to withdraw");
      return std::nullopt;
    }
    if (c.trade_open) return reject(RejectCode::IllegalChoice, "CHOAM's card trade offer already waits for its ally's answer");
    if (ally == kNoFaction) return reject(RejectCode::IllegalChoice, "CHOAM trades cards only with its ally, and it has none");
    if (auto why = ability_blocked(s, kMe, Ability::ChoamTrade)) return reject(RejectCode::IllegalChoice, *why + " until the Mentat Pause");
    if (a.card >= data::kNumAllTreacheryCards || !s.of(kMe).hand.contains(a.card))
      return reject(RejectCode::IllegalChoice, "CHOAM offers a card from its own hand");
    if (auto why = promised(s, seat, a.card)) return reject(RejectCode::IllegalChoice, *why);
    if (s.f[ally].hand.empty()) return reject(RejectCode::IllegalChoice, "the ally holds no card to trade (both must hold a card)");
    if (s.rulings.is(RulingId::ChoamTradeLimit, 0) && c.traded_turn == s.turn)
      return reject(RejectCode::IllegalChoice, "CHOAM and its ally have traded a card this turn already (ruling choam_trade_limit)");
    return std::nullopt;
  }
  if (seat < 0 || seat >= s.num_seats || static_cast<uint8_t>(s.faction_at(seat)) != ally)
    return reject(RejectCode::IllegalChoice, "only CHOAM and its ally trade cards (CHOAM & Richese)");
  if (!c.trade_open) return reject(RejectCode::IllegalChoice, "CHOAM has offered no card trade");
  if (a.card == kNone8) return std::nullopt;
  if (a.card >= data::kNumAllTreacheryCards || !s.f[ally].hand.contains(a.card))
    return reject(RejectCode::IllegalChoice, "the ally answers with a card from its own hand");
  if (auto why = promised(s, seat, a.card)) return reject(RejectCode::IllegalChoice, *why);  // e.g. the Richese ally's Black Market card
  // Whether CHOAM still holds the offered card is CHOAM's secret: a stale
  // offer is accepted here and exchanges nothing (trade_apply).
  return std::nullopt;
}

void trade_apply(GameState& s, Seat seat, const action::ChoamTrade& a) {
  auto& c = s.choam;
  if (is_me(s, seat) && a.card != kNone8) {  // the offer
    c.trade_offer = a.card;
    c.trade_open = 1;
    return;
  }
  if (a.card != kNone8 && s.of(kMe).hand.contains(c.trade_offer)) {  // the ally's card: both change hands
    auto& ally = s.f[static_cast<int>(s.faction_at(seat))];
    ally.hand.remove(a.card);
    s.of(kMe).hand.remove(c.trade_offer);
    ally.hand.push(c.trade_offer);
    s.of(kMe).hand.push(a.card);
    c.traded_turn = s.turn;
  } else {  // declined, or the offered card has left CHOAM's hand (played, taken): nothing changes hands
    c.trade_declined_turn = s.turn;
  }
  c.trade_offer = kNone8;
  c.trade_open = 0;
}

void trade_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  const auto& c = s.choam;
  const uint8_t ally = live_ally(s);
  if (is_me(s, seat)) {
    if (c.trade_open) {
      out.push_back(action::ChoamTrade{});
      return;
    }
    if (ally == kNoFaction) return;
    const auto& hand = s.of(kMe).hand;
    for (int i = 0; i < hand.n; ++i)
      if (!trade_validate(s, seat, action::ChoamTrade{.card = hand.ids[i]})) out.push_back(action::ChoamTrade{.card = hand.ids[i]});
    return;
  }
  if (!c.trade_open || ally == kNoFaction || static_cast<uint8_t>(s.faction_at(seat)) != ally) return;
  out.push_back(action::ChoamTrade{});
  const auto& hand = s.f[ally].hand;
  for (int i = 0; i < hand.n; ++i)
    if (!trade_validate(s, seat, action::ChoamTrade{.card = hand.ids[i]})) out.push_back(action::ChoamTrade{.card = hand.ids[i]});
}

void trade_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  std::vector<Action> legal;
  trade_legal(s, seat, legal);
  if (legal.empty()) return;
  const bool me = is_me(s, seat);
  Decision d{ActionKind::ChoamTrade,
             me ? (s.choam.trade_open ? "Withdraw your card trade offer (card none)" : "Offer your ally one card in trade for one of theirs (once a turn)")
                : "CHOAM offers you a card in trade, unseen: answer with one of your cards, or none to decline",
             0, 0, {}};
  for (const auto& a : legal)
    if (a.as<action::ChoamTrade>().card != kNone8) d.options.push_back(a.as<action::ChoamTrade>().card);
  out.push_back(std::move(d));
}

bool owns(ActionKind k) {
  return k == ActionKind::ChoamSell || k == ActionKind::ChoamCard || k == ActionKind::ChoamTrade || k == ActionKind::ChoamSupport ||
         k == ActionKind::ChoamKarama;
}

// Defined below (the alliance's battle payment, the special Karama).
int ally_battle_support(const GameState& s);
std::optional<Rejection> karama_validate(const GameState& s, const action::ChoamKarama& a);
void karama_apply(GameState& s, const action::ChoamKarama& a);
void karama_candidates(const GameState& s, std::vector<Action>& out);

std::optional<Rejection> anytime_validate(const GameState& s, Seat seat, const Action& a) {
  if (const auto* trade = a.get_if<action::ChoamTrade>()) return trade_validate(s, seat, *trade);
  if (const auto* use = a.get_if<action::ChoamCard>()) {
    if (!is_me(s, seat)) return reject(RejectCode::IllegalChoice, "only CHOAM plays worthless cards for their powers (CHOAM & Richese)");
    return card_validate(s, *use);
  }
  if (const auto* karama = a.get_if<action::ChoamKarama>()) {
    if (!is_me(s, seat)) return reject(RejectCode::IllegalChoice, "only CHOAM has this special Karama (CHOAM & Richese)");
    return karama_validate(s, *karama);
  }
  if (a.kind() == ActionKind::ChoamSupport) {
    if (!is_me(s, seat)) return reject(RejectCode::IllegalChoice, "only CHOAM pays for its ally's forces in battle (CHOAM & Richese)");
    if (live_ally(s) == kNoFaction) return reject(RejectCode::IllegalChoice, "CHOAM has no ally to pay for");
    if (a.as<action::ChoamSupport>().battle > 0)
      if (auto why = ability_blocked(s, kMe, Ability::ChoamAllySupport)) return reject(RejectCode::IllegalChoice, *why + " until the Mentat Pause");
    return std::nullopt;
  }
  if (!is_me(s, seat)) return reject(RejectCode::IllegalChoice, "only CHOAM sells cards (CHOAM & Richese)");
  if (s.rulings.is(RulingId::ChoamSellTiming, kEndOfPhase))
    return reject(RejectCode::WrongPhase,
                  "CHOAM sells cards at the end of a phase (ruling choam_sell_timing): the game asks CHOAM then; answer its "
                  "sale window with Respond{accept: true, card}");
  return sell_check(s, seat, a.as<action::ChoamSell>().card);
}

// Sells `card` (checked): worthless 2, a copy 3, from the bank; under ruling
// karama_windows = all_other_seats the sale first waits in a KaramaCancel
// window (cards.cpp resumes it through anytime_apply).
void sell(Ctx& c, Seat seat, uint8_t card) {
  auto& s = c.s;
  if (karama_window(c, seat, Ability::ChoamDiscarding, action::ChoamSell{.card = card})) return;  // 3.01.11.01: the sale waits
  const int p = price(s, card);
  if (!s.of(kMe).hand.contains(card)) return;  // resumed after the card left the hand: nothing to sell
  s.of(kMe).hand.remove(card);
  to_treachery_discard(s, card, kMe);
  transfer_spice(s, bank(), shield(kMe), p);
}

void anytime_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (const auto* trade = a.get_if<action::ChoamTrade>()) {
    const bool offer = is_me(s, seat) && trade->card != kNone8;
    if (offer && karama_window(c, seat, Ability::ChoamTrade, a)) return;  // 3.01.11.01: the offer waits (cards.cpp resumes it)
    // Resumed: an offer made obsolete meanwhile (the alliance ended, the card left the hand) is not made.
    if (offer && (live_ally(s) == kNoFaction || !s.of(kMe).hand.contains(trade->card))) return;
    trade_apply(s, seat, *trade);
    return;
  }
  if (const auto* use = a.get_if<action::ChoamCard>()) {
    if (karama_window(c, seat, Ability::ChoamDiscarding, a)) return;  // 3.01.11.01: the use waits (cards.cpp resumes it)
    card_apply(s, *use);
    return;
  }
  if (const auto* karama = a.get_if<action::ChoamKarama>()) {
    karama_apply(s, *karama);
    return;
  }
  if (const auto* support = a.get_if<action::ChoamSupport>()) {
    if (support->battle > 0 && karama_window(c, seat, Ability::ChoamAllySupport, a)) return;  // 3.01.11.01: waits
    if (live_ally(s) == kNoFaction) return;  // resumed after the alliance ended: nothing to set
    s.choam.battle_support = support->battle;
    s.choam.battle_support_to = live_ally(s);
    return;
  }
  sell(c, seat, a.as<action::ChoamSell>().card);
}

// The distinct cards CHOAM can sell now (sell_check passes), in hand order.
std::vector<uint8_t> sellable(const GameState& s) {
  std::vector<uint8_t> out;
  if (ability_blocked(s, kMe, Ability::ChoamDiscarding)) return out;
  const auto& hand = s.of(kMe).hand;
  for (int i = 0; i < hand.n; ++i) {
    bool seen = false;
    for (uint8_t x : out) seen = seen || data::treachery_card(x).kind == data::treachery_card(hand.ids[i]).kind;
    if (!seen && !sell_check(s, my_seat(s), hand.ids[i])) out.push_back(hand.ids[i]);
  }
  return out;
}

// ---- the end-of-phase sale (ruling choam_sell_timing = end_of_phase) ----
// Hook phase_ends opens a ChoamSale window (Window::subject: the next phase,
// Window::target: the phase ending) when CHOAM has a card to sell; each
// Respond{accept, card} sells one card (its own KaramaCancel window first
// under karama_windows = all_other_seats), Respond{} ends the sales; the
// window closes by itself when nothing is left to sell, and `closed` enters
// the next phase.

bool phase_ends(Ctx& c, Phase next) {
  auto& s = c.s;
  if (!s.rulings.is(RulingId::ChoamSellTiming, kEndOfPhase) || sellable(s).empty()) return false;
  Window w;
  w.kind = WindowKind::ChoamSale;
  w.owner = my_seat(s);
  w.asked = bit(my_seat(s));
  w.subject = static_cast<uint8_t>(next);
  w.target = static_cast<uint8_t>(s.phase);
  s.waiting = 0;  // the phase is over: nothing to resume but the next phase
  return open_window(s, w);
}

std::string sale_what(const GameState&, const Window& w) {
  return "CHOAM may sell worthless and duplicate cards at the end of the " + std::string(phase_name(static_cast<Phase>(w.target))) +
         " phase (under this game's ruling on when CHOAM sells)";
}

std::optional<Rejection> sale_validate(const GameState& s, Seat seat, const action::Respond& a, const Window&) {
  if (!a.accept) return std::nullopt;
  if (a.card == kNone8) return reject(RejectCode::Malformed, "name the card to sell (Respond.card), or Respond accept=false to end the sales");
  return sell_check(s, seat, a.card);
}

bool sale_apply(Ctx& c, Seat seat, const action::Respond& a, Window&) {
  auto& s = c.s;
  if (!a.accept) return true;
  s.waiting = bit(seat);  // still asked (a KaramaCancel window above this one restores it)
  const uint8_t depth = s.window_depth;
  sell(c, seat, a.card);
  if (s.window_depth > depth) return false;  // the sale waits for its KaramaCancel window
  return sellable(s).empty();
}

void sale_decisions(const GameState& s, Seat, const Window& w, std::vector<Decision>& out) {
  Decision d{ActionKind::Respond,
             sale_what(s, w) + ": sell a card (a worthless card for 2 spice, one of two copies for 3), "
                               "or end the sales",
             0, 1, {}};
  for (uint8_t x : sellable(s)) d.options.push_back(x);
  out.push_back(std::move(d));
}

void sale_legal(const GameState& s, Seat, const Window&, std::vector<Action>& out) {
  out.push_back(action::Respond{});
  for (uint8_t x : sellable(s)) out.push_back(action::Respond{.accept = true, .card = x});
}

void sale_closed(Ctx& c, const Window& w) { begin_phase(c, static_cast<Phase>(w.subject)); }

void anytime_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  trade_decisions(s, seat, out);  // CHOAM or its ally
  if (!is_me(s, seat)) return;
  std::vector<Action> uses;
  card_candidates(s, uses);
  Decision p{ActionKind::ChoamCard, "Play a worthless card for its power (discarded): Baliset, Jubba Cloak, Kulon, La La La, Trip to Gamont", 0, 0, {}};
  for (const auto& a : uses)
    if (!card_validate(s, a.as<action::ChoamCard>())) {
      const uint8_t card = a.as<action::ChoamCard>().card;
      if (std::find(p.options.begin(), p.options.end(), card) == p.options.end()) p.options.push_back(card);
    }
  if (!p.options.empty()) out.push_back(std::move(p));
  std::vector<Action> karamas;
  karama_candidates(s, karamas);
  if (!karamas.empty())
    out.push_back(Decision{ActionKind::ChoamKarama,
                           "Special Karama, once a game: discard a Karama and any cards from your hand, for 3 spice each", 0, 0,
                           {}});
  if (live_ally(s) != kNoFaction && !ability_blocked(s, kMe, Ability::ChoamAllySupport))
    out.push_back(Decision{ActionKind::ChoamSupport,
                           "Let your ally use up to this much of your spice for the spice it dials in battle (advanced game); now " +
                               std::to_string(ally_battle_support(s)) + " spice",
                           0, 65535, {}});
  const auto cards = s.rulings.is(RulingId::ChoamSellTiming, kEndOfPhase) ? std::vector<uint8_t>{} : sellable(s);
  if (cards.empty()) return;
  Decision d{ActionKind::ChoamSell, "Sell a card: a worthless card for 2 spice, one of two copies of the same card for 3", 0, 0, {}};
  for (uint8_t x : cards) d.options.push_back(x);
  out.push_back(std::move(d));
}

void anytime_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  trade_legal(s, seat, out);  // CHOAM or its ally
  if (!is_me(s, seat)) return;
  std::vector<Action> uses;
  card_candidates(s, uses);
  for (const auto& a : uses)
    if (!card_validate(s, a.as<action::ChoamCard>())) out.push_back(a);
  if (!s.rulings.is(RulingId::ChoamSellTiming, kEndOfPhase))
    for (uint8_t x : sellable(s)) out.push_back(action::ChoamSell{.card = x});
  std::vector<Action> karamas;
  karama_candidates(s, karamas);
  for (const auto& a : karamas)
    if (!karama_validate(s, a.as<action::ChoamKarama>())) out.push_back(a);
  if (live_ally(s) != kNoFaction) {  // the battle allowance: none, or all CHOAM's spice now
    const int cur = ally_battle_support(s), spice = s.of(kMe).spice;
    if (cur != 0) out.push_back(action::ChoamSupport{});
    if (spice > 0 && cur != spice && !ability_blocked(s, kMe, Ability::ChoamAllySupport))
      out.push_back(action::ChoamSupport{.battle = static_cast<uint16_t>(spice)});
  }
}

// 3.01.11.02: a prevented sale waits for the turn's end (the Mentat Pause).
void pause_ends_sales(GameState& s) {
  if (ability_cancelled(s, kMe, Ability::ChoamDiscarding)) consume_prevention(s, kMe, Ability::ChoamDiscarding);
  // The alliance abilities' preventions end there too (as the Richese gift's).
  for (const Ability ab : {Ability::ChoamTrade, Ability::ChoamAllySupport})
    if (prevented_bit(s, static_cast<int>(kMe), static_cast<int>(ab))) consume_prevention(s, kMe, ab);
}

bool pause_begins_all(GameState& s) {
  pause_ends_sales(s);
  return pause_begins(s);
}

// ---- advanced: half of the spice others pay in battle -------------------------

void battle_spice_paid(GameState& s, Faction payer, int paid) {
  if (!s.advanced || payer == kMe || paid / 2 == 0) return;
  if (ability_cancelled(s, kMe, Ability::ChoamBattleIncome)) {  // 3.01.11.02: this payment is its use opportunity
    consume_prevention(s, kMe, Ability::ChoamBattleIncome);
    return;
  }
  transfer_spice(s, bank(), shield(kMe), paid / 2);
  // Ruling bureaucrat_choam_income = paid_by_the_battler: the Bureaucrat sees it as the payer's payment to CHOAM.
  if (s.rulings.is(RulingId::BureaucratChoamIncome, 1))
    skills_paid_to_faction(s, static_cast<uint8_t>(payer), static_cast<uint8_t>(kMe), paid / 2);
}

// ---- alliance: paying for the ally's forces in battle (ChoamSupport) -------------

int ally_battle_support(const GameState& s) {
  if (prevented_bit(s, static_cast<int>(kMe), static_cast<int>(Ability::ChoamAllySupport))) return 0;  // 3.01.11.02: until the Mentat Pause
  const uint8_t ally = live_ally(s);
  return ally == kNoFaction || ally != s.choam.battle_support_to ? 0 : s.choam.battle_support;  // for this alliance only
}

void ally_battle_paid(GameState& s, int paid) {
  s.choam.battle_support = static_cast<uint16_t>(std::max(0, s.choam.battle_support - paid));
}

// ---- advanced: the special Karama (ChoamKarama) -----------------------------------

std::optional<Rejection> karama_validate(const GameState& s, const action::ChoamKarama& a) {
  if (!s.advanced) return reject(RejectCode::IllegalChoice, "CHOAM's special Karama is an advanced rule");
  if (s.choam.karama_used) return reject(RejectCode::IllegalChoice, "CHOAM has used its special Karama (once a game)");
  const auto& hand = s.of(kMe).hand;
  if (a.karama >= data::kNumAllTreacheryCards || !hand.contains(a.karama) || kind_of(a.karama) != TreacheryKind::Karama)
    return reject(RejectCode::IllegalChoice, "the special Karama discards a Karama card from CHOAM's hand (karama)");
  if (a.cards.empty()) return reject(RejectCode::IllegalChoice, "name the cards to discard with the Karama, 3 spice each (cards)");
  if (auto why = promised(s, s.seat_of(kMe), a.karama)) return reject(RejectCode::IllegalChoice, *why);
  for (uint8_t card : a.cards)
    if (card < data::kNumAllTreacheryCards)
      if (auto why = promised(s, s.seat_of(kMe), card)) return reject(RejectCode::IllegalChoice, *why);
  for (int i = 0; i < a.cards.size(); ++i) {
    const uint8_t card = a.cards[i];
    if (card >= data::kNumAllTreacheryCards || !hand.contains(card) || card == a.karama)
      return reject(RejectCode::IllegalChoice, "the cards discarded with the Karama come from CHOAM's hand, the Karama aside");
    for (int j = 0; j < i; ++j)
      if (a.cards[j] == card) return reject(RejectCode::IllegalChoice, "a card is named twice");
    if (s.choam.trade_open && card == s.choam.trade_offer)
      return reject(RejectCode::IllegalChoice, "that card is offered to the ally in trade: withdraw the offer first");
  }
  if (s.choam.trade_open && a.karama == s.choam.trade_offer)
    return reject(RejectCode::IllegalChoice, "that Karama is offered to the ally in trade: withdraw the offer first");
  return std::nullopt;
}

void karama_apply(GameState& s, const action::ChoamKarama& a) {
  auto& hand = s.of(kMe).hand;
  hand.remove(a.karama);
  to_treachery_discard(s, a.karama, kMe);
  for (uint8_t card : a.cards) {
    hand.remove(card);
    to_treachery_discard(s, card, kMe);
  }
  transfer_spice(s, bank(), shield(kMe), kKaramaPrice * a.cards.size());
  s.choam.karama_used = 1;
}

// A few candidates (validate filters): every other card, each card alone, the worthless ones.
void karama_candidates(const GameState& s, std::vector<Action>& out) {
  if (!s.advanced || s.choam.karama_used) return;
  const auto& hand = s.of(kMe).hand;
  uint8_t karama = kNone8;
  for (int i = 0; i < hand.n && karama == kNone8; ++i)
    if (kind_of(hand.ids[i]) == TreacheryKind::Karama && !(s.choam.trade_open && hand.ids[i] == s.choam.trade_offer)) karama = hand.ids[i];
  if (karama == kNone8) return;
  action::ChoamKarama all{.karama = karama, .cards = {}}, worthless{.karama = karama, .cards = {}};
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t card = hand.ids[i];
    if (card == karama || (s.choam.trade_open && card == s.choam.trade_offer)) continue;
    if (all.cards.size() < CardList::kCapacity) all.cards.push_back(card);
    if (data::treachery_card(card).category == data::TreacheryCategory::Worthless && worthless.cards.size() < CardList::kCapacity)
      worthless.cards.push_back(card);
    out.push_back(action::ChoamKarama{.karama = karama, .cards = {card}});
  }
  if (all.cards.size() > 1) out.push_back(all);
  if (worthless.cards.size() > 1 && worthless.cards.size() < all.cards.size()) out.push_back(worthless);
}

// ---- advanced: the Auditor's look after a battle -----------------------------------

// The opponent's cards the Auditor may see: its hand but the cards it played in the battle.
std::vector<uint8_t> auditable(const GameState& s, Faction opp, const BattlePlanState& p) {
  std::vector<uint8_t> out;
  const auto& hand = s.of(opp).hand;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t card = hand.ids[i];
    if (card != p.weapon && card != p.defense && card != p.cheap_hero) out.push_back(card);
  }
  return out;
}

// CHOAM looks: audit_count cards drawn at random (recorded draws).
void audit_look(Ctx& c) {
  auto& s = c.s;
  auto& ch = s.choam;
  const int side = battle_faction_of_side(s, 0) == kMe ? 1 : 0;  // the opponent's side
  auto pool = auditable(s, static_cast<Faction>(ch.audit_of), s.battle.plan[side]);
  ch.audit_cards[0] = ch.audit_cards[1] = kNone8;
  for (int i = 0; i < ch.audit_count && !pool.empty(); ++i) {
    const uint32_t k = c.rand_below(static_cast<uint32_t>(pool.size()), DrawKind::Random);
    ch.audit_cards[i] = pool[k];
    pool.erase(pool.begin() + k);
  }
  ch.audit_turn = s.turn;
  ch.audit_stage = 2;
}

bool after_battle_more(Ctx& c) {
  auto& s = c.s;
  auto& ch = s.choam;
  if (!s.advanced || ch.audit_stage != 0) return false;
  ch.audit_stage = 2;  // asked once a battle
  int mine = -1;
  for (int i = 0; i < 2; ++i)
    if (battle_faction_of_side(s, i) == kMe) mine = i;
  if (mine < 0 || s.battle.plan[mine].leader != data::kAuditor) return false;
  const Faction opp = battle_faction_of_side(s, 1 - mine);
  const auto pool = auditable(s, opp, s.battle.plan[1 - mine]);
  if (pool.empty()) return false;
  if (ability_cancelled(s, kMe, Ability::ChoamAudit)) {  // 3.01.11.02: this battle is its use opportunity
    consume_prevention(s, kMe, Ability::ChoamAudit);
    return false;
  }
  const bool alive = leader_alive(s.leaders[data::kAuditor]);
  ch.audit_count = static_cast<uint8_t>(std::min<int>(alive ? kAuditSeen : 1, static_cast<int>(pool.size())));
  ch.audit_of = static_cast<uint8_t>(opp);
  if (s.of(opp).spice < ch.audit_count) {  // it cannot pay to cancel: CHOAM looks
    audit_look(c);
    return false;
  }
  ch.audit_stage = 1;
  s.step = ability::kAudit;
  s.waiting = bit(s.seat_of(opp));
  return true;
}

// Battle sub-step kAudit: the audited faction pays (Respond accept) or lets CHOAM look (Pass).
std::optional<Rejection> audit_validate(const GameState& s, Seat seat, const Action& a) {
  if (a.kind() != ActionKind::Respond && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the Auditor's look: Respond (accept: pay to cancel it) or Pass (let CHOAM look)");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "the audited faction decides on the Auditor's look");
  if (const auto* r = a.get_if<action::Respond>(); r && r->accept && s.f[s.choam.audit_of].spice < s.choam.audit_count)
    return reject(RejectCode::NotEnoughSpice, "cancelling the Auditor's look costs " + std::to_string(s.choam.audit_count) + " spice");
  return std::nullopt;
}

void audit_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const auto* r = a.get_if<action::Respond>();
  if (r && r->accept) {
    transfer_spice(s, shield(static_cast<Faction>(s.choam.audit_of)), shield(kMe), s.choam.audit_count);
    s.choam.audit_stage = 2;
  } else {
    audit_look(c);
  }
  s.waiting = 0;
  (void)seat;
  battle_end(c);
}

void audit_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const std::string n = std::to_string(s.choam.audit_count);
  out.push_back(Decision{ActionKind::Respond,
                         "CHOAM's Auditor looks at " + n + (n == "1" ? " card" : " cards") + " drawn at random from your hand (not those you played in the battle): "
                             "pay CHOAM " + n + " spice to cancel the look, or let it look",
                         0, 1, {}});
  out.push_back(Decision{ActionKind::Pass, "Let CHOAM's Auditor look", 0, 0, {}});
}

void audit_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  out.push_back(action::Respond{.accept = true});
  out.push_back(action::Pass{});
}

void battle_ends(GameState& s) { s.choam.audit_stage = 0; }

// 3.01.11: CHOAM's abilities marked ✷ (a Karama prevents them; ActionKind::Pass: automatic).
constexpr AbilityInfo kAbilities[] = {
    {Ability::ChoamCharity, kMe, "CHOAM Charity", "CHOAM's charity income and payments", ActionKind::Pass},
    {Ability::ChoamInflation, kMe, "Inflation", "the Inflation token", ActionKind::ChoamInflation},
    {Ability::ChoamDiscarding, kMe, "Selling cards", "selling worthless and duplicate cards", ActionKind::ChoamSell},
    {Ability::ChoamRevival, kMe, "CHOAM revival", "revival at 1 spice a force without limit", ActionKind::Revive},
    {Ability::ChoamBattleIncome, kMe, "CHOAM advanced", "half the spice others pay in battle", ActionKind::Pass},
    {Ability::ChoamAudit, kMe, "CHOAM advanced", "the Auditor's look after a battle", ActionKind::Pass},
    {Ability::ChoamTrade, kMe, "CHOAM alliance", "trading a card with the ally", ActionKind::ChoamTrade},
    {Ability::ChoamAllySupport, kMe, "CHOAM alliance", "paying for the ally's forces in battle", ActionKind::ChoamSupport},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.charity_begins = charity_begins;
  r.no_charity_claim = true;
  r.charity_payer = charity_payer;
  r.charity_multiplier = charity_multiplier;
  r.revival_ability = Ability::ChoamRevival;
  r.forbids_bribes = forbids_bribes;
  r.battle_spice_paid = battle_spice_paid;
  r.ally_battle_support = ally_battle_support;
  r.ally_battle_paid = ally_battle_paid;
  r.after_battle_more = after_battle_more;
  r.battle_ends = battle_ends;
  r.card_promised = card_promised;
  r.battle_step = {ability::kAudit, ability::kAudit, nullptr, audit_validate, audit_apply, audit_decisions, audit_legal};
  r.move_blocked = move_blocked;
  r.storm_catches = storm_catches;
  r.anytime = {owns, anytime_validate, anytime_apply, anytime_decisions, anytime_legal};
  r.phase_ends = phase_ends;
  r.response_window = {WindowKind::ChoamSale, sale_what, sale_validate, sale_apply, sale_decisions, sale_legal, sale_closed};
  r.mentat_pause_step = {pause_begins_all, pause_validate, pause_apply, pause_decisions, pause_legal,
                         "CHOAM is deciding on its Inflation token (Mentat Pause)", pause_uses};
  return r;
}

}  // namespace

constinit const FactionRules kChoamRules = make();

namespace {
constexpr ModifierAnswer kAnswers[] = {answer<MovementRangeQuery, kulon_range>(2), answer<FreeRevivalQuery, lalala_revival>(1),
                                       answer<RevivalLimitQuery, revival_limit>(), answer<RevivalCostQuery, revival_cost>()};
}  // namespace

constinit const Owner kChoamOwner{"choam", OwnerKind::Faction, faction_seated<Faction::Choam>, {}, kAnswers};

}  // namespace mentat::rules
