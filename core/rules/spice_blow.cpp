// 1.02 Spice Blow (the Nexus it may cause is core/rules/nexus.cpp).
//
//  1.02.01 reveal the top spice card and discard it;
//  1.02.02 turn 1: Shai-Hulud cards are set aside and shuffled back into the
//          deck after the phase; 1.02.03 so no Nexus on turn 1;
//  1.02.04 territory card: spice from the bank onto the card's location
//          unless that sector is in storm;
//  1.02.05 Shai-Hulud: spice and forces in the territory of the topmost
//          territory card of the discard pile go to the bank and the tanks;
//          keep revealing until a territory card;
//  1.02.06 a Shai-Hulud after turn 1 causes a Nexus at the end of the phase;
//  1.13.02 advanced: a second blow onto discard pile B, each worm devouring
//          under the topmost territory card of its own pile;
//  1.13.03 reshuffle when the deck runs out (basic game: every discard, or
//          as 1.13.03 for pile A under ruling spice_reshuffle_basic);
//  ruling repeated_worm: each Shai-Hulud of a run on one pile devours again
//          (1.02.05), or only the first does and the others are just
//          discarded (1.13.02.02).
// Fremen: 2.04.07 their forces are not devoured; 2.04.10 they decide whether
// their ally is protected (Respond{accept}) whenever their ally has forces
// where a worm appears (ruling fremen_ally_protection: or the ally is always
// protected, unasked); 2.04.15 advanced: every worm after the first of the
// phase (ruling fremen_extra_worms: or of its pile) may be placed by them in
// any sand territory (WormRide{to}, or Pass to let it appear where the cards
// say); a placed worm destroys the spice there too, or only the forces
// (ruling placed_worm_spice). 2.04.08 Beast of Burden happens upon conclusion
// of the Nexus (nexus.cpp): the worms' territories are recorded here in
// s.fremen.blow.rides.
// 1.14.03 advanced Fremen Karama power: after turn 1 the Fremen place their
// sandworm in any sand territory (PlayCard Karama, target = a location there,
// value bit 0 = protect the ally, 2.04.10), a normal Shai-Hulud that devours
// (ruling placed_worm_spice) and, in this phase, causes a Nexus (1.02.06).
// Ruling karama_windows = all_other_seats: at the end of each blow after turn
// 1 the Fremen are asked (step FremenKarama: PlayCard or Pass) whenever, by
// public information, they could use the power; under none they may place it
// only while a Nexus is in progress (nexus.cpp phase).
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

enum BlowStep : uint8_t {
  kBlowing = 0,            // automatic
  kPlaceWorm = 1,          // 2.04.15 the Fremen may place this worm (WormRide{to} or Pass)
  kProtectAlly = 2,        // 2.04.10 the Fremen decide whether their ally is devoured (Respond)
  kProtectAllyPlaced = 3,  // the same, for a worm the Fremen placed (2.04.15, ruling placed_worm_spice)
  kFremenKarama = 4,       // 1.14.03 the Fremen may place their Karama sandworm (PlayCard) or Pass
};

bool protect_step(uint8_t step) { return step == kProtectAlly || step == kProtectAllyPlaced; }

// Ruling values (core/rulings.cpp).
constexpr uint8_t kKeepTopTerritory = 1;  // SpiceReshuffleBasic
constexpr uint8_t kExtraWormsPerPile = 1; // FremenExtraWorms
constexpr uint8_t kOnlyFirstWorm = 1;     // RepeatedWorm
constexpr uint8_t kAlwaysProtect = 1;     // FremenAllyProtection
constexpr uint8_t kPlacedForcesOnly = 1;  // PlacedWormSpice

int num_piles(const GameState& s) { return s.advanced ? 2 : 1; }

bool is_sand(TerritoryId t) {
  const auto k = data::territory(t).kind;
  return k == data::TerritoryKind::Sand || k == data::TerritoryKind::ProtectedSand;
}

Seat fremen_seat(const GameState& s) { return s.seat_of(Faction::Fremen); }

// Territory of the topmost territory card in a discard pile, if any.
std::optional<TerritoryId> topmost_territory(const GameState& s, int pile) {
  const auto& p = s.spice_discard[pile];
  for (int i = p.n - 1; i >= 0; --i) {
    const auto& card = data::spice_card(p.ids[i]);
    if (!card.shai_hulud) return data::territory_of(card.location);
  }
  return std::nullopt;
}

// 1.13.03 / 0.05: restock the empty spice deck. Advanced game: the cards of
// pile A under its topmost territory card, and all of pile B. Basic game:
// the whole discard pile (ruling spice_reshuffle_basic all_discards), or as
// pile A in the advanced game (keep_top_territory).
void reshuffle_spice(Ctx& c) {
  auto& s = c.s;
  auto& a = s.spice_discard[0];
  int keep = 0;  // cards of pile A that stay (the topmost territory card and above)
  if (s.advanced || s.rulings.is(RulingId::SpiceReshuffleBasic, kKeepTopTerritory)) {
    for (int i = a.n - 1; i >= 0; --i) {
      if (!data::spice_card(a.ids[i]).shai_hulud) {
        keep = a.n - i;
        break;
      }
    }
  }
  const int take = a.n - keep;
  for (int i = 0; i < take; ++i) s.spice_deck.push(a.ids[i]);
  for (int i = 0; i < keep; ++i) a.ids[i] = a.ids[take + i];
  for (int i = keep; i < a.n; ++i) a.ids[i] = 0;
  a.n = static_cast<uint8_t>(keep);
  auto& b = s.spice_discard[1];
  while (!b.empty()) s.spice_deck.push(b.pop());
  if (!s.spice_deck.empty()) shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
}

// Reveals the top spice card (kNone8 when no card can be had at all).
uint8_t reveal(Ctx& c) {
  auto& s = c.s;
  if (s.spice_deck.empty()) reshuffle_spice(c);
  if (s.spice_deck.empty()) return kNone8;
  const uint8_t id = s.spice_deck.pop();
  c.record(DrawKind::DrawSpice, id);
  return id;
}

bool ally_protectable(const GameState& s, TerritoryId t) {
  if (!s.has(Faction::Fremen)) return false;
  const uint8_t ally = s.of(Faction::Fremen).ally;
  if (ally >= kNumFactions || !s.has(static_cast<Faction>(ally))) return false;
  return s.forces_in_territory(static_cast<Faction>(ally), t) > 0;
}

// 1.02.05: the worm destroys the spice and the forces in territory t
// (2.04.07 not the Fremen; 2.04.10 not their ally when protected). A worm the
// Fremen placed (2.04.15) leaves the spice under ruling placed_worm_spice
// forces_only.
// 3.01.11.02 (cards.cpp): a prevented 2.04.07 is used up by the first worm
// that finds Fremen forces (they are devoured like anyone's); a prevented
// 2.04.10 by the first worm that finds the ally's forces (not protected,
// the Fremen are not asked).
void devour(GameState& s, TerritoryId t, bool protect_ally, bool placed) {
  const auto& ter = data::territory(t);
  const uint8_t fremen_ally = s.has(Faction::Fremen) ? s.of(Faction::Fremen).ally : kNoFaction;
  bool spare_fremen = true;
  const bool any_worm = prevention_at_next_occasion(s);  // ruling karama_automatic_use: every worm is the occasion
  if (s.has(Faction::Fremen) && (any_worm || s.forces_in_territory(Faction::Fremen, t) > 0) &&
      ability_cancelled(s, Faction::Fremen, Ability::FremenShaiHulud)) {
    spare_fremen = false;
    consume_prevention(s, Faction::Fremen, Ability::FremenShaiHulud);
  }
  if ((any_worm || ally_protectable(s, t)) && ability_cancelled(s, Faction::Fremen, Ability::FremenAllyProtection)) {
    protect_ally = false;
    consume_prevention(s, Faction::Fremen, Ability::FremenAllyProtection);
  }
  const bool spice = !(placed && s.rulings.is(RulingId::PlacedWormSpice, kPlacedForcesOnly));
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (spice && s.spice_on_board[loc] > 0) transfer_spice(s, board(loc), bank(), s.spice_on_board[loc]);
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto fa = static_cast<Faction>(fi);
      if (!s.has(fa) || (fa == Faction::Fremen && spare_fremen)) continue;
      if (protect_ally && fi == fremen_ally) continue;
      const int reg = s.forces_at(fa, loc, 0), spec = s.forces_at(fa, loc, 1);
      if (reg + spec > 0) forces_to_tanks(s, fa, loc, reg, spec);
    }
  }
  // 2.04.08: the Fremen may ride this worm upon conclusion of the Nexus.
  if (s.has(Faction::Fremen) && s.fremen.blow.n_rides < static_cast<int>(sizeof(s.fremen.blow.rides)))
    s.fremen.blow.rides[s.fremen.blow.n_rides++] = t;
}

// A worm appears in territory t (`placed`: by the Fremen, 2.04.15): asks the
// Fremen about their ally when that matters, else devours at once. False
// when the blow waits for a decision.
bool worm_appears(Ctx& c, TerritoryId t, bool placed) {
  auto& s = c.s;
  if (ally_protectable(s, t) && !ability_cancelled(s, Faction::Fremen, Ability::FremenAllyProtection)) {
    if (s.rulings.is(RulingId::FremenAllyProtection, kAlwaysProtect)) {
      devour(s, t, true, placed);
      return true;
    }
    s.fremen.blow.territory = t;
    s.step = placed ? kProtectAllyPlaced : kProtectAlly;
    s.waiting = bit(fremen_seat(s));
    return false;
  }
  devour(s, t, false, placed);
  return true;
}

// Ruling repeated_worm only_first: a Shai-Hulud after the first of its pile
// in this phase is only discarded (1.13.02.02).
bool worm_without_effect(const GameState& s) {
  return s.rulings.is(RulingId::RepeatedWorm, kOnlyFirstWorm) && s.blow.pile_worms > 1;
}

// Worm whose territory comes from the cards (its own discard pile).
bool worm_from_pile(Ctx& c) {
  if (worm_without_effect(c.s)) return true;
  const auto t = topmost_territory(c.s, c.s.blow.pile);
  if (!t) return true;  // no territory card under it: nothing to devour
  return worm_appears(c, *t, false);
}

// 2.04.15: does the Fremen place this worm? Every worm after the first of the
// phase (ruling fremen_extra_worms per_phase) or of its pile (per_pile).
bool fremen_place_worm(const GameState& s) {
  if (!s.advanced || !s.has(Faction::Fremen)) return false;
  if (s.rulings.is(RulingId::FremenExtraWorms, kExtraWormsPerPile)) return s.blow.pile_worms > 1;
  return s.blow.worms > 1;
}

// The current pile has its territory card (or no card at all): on to the next.
void next_pile(GameState& s) {
  ++s.blow.pile;
  s.blow.pile_worms = 0;
}

void finish(Ctx& c) {
  auto& s = c.s;
  // 1.14.03 (ruling karama_windows = all_other_seats): asked on public information only.
  if (!s.fremen.blow.karama_asked && s.turn > 1 && karama_windows_ask(s) && karama_power_possible(s, Faction::Fremen)) {
    s.fremen.blow.karama_asked = 1;
    s.step = kFremenKarama;
    s.waiting = bit(fremen_seat(s));
    return;
  }
  // 1.02.02: the set-aside Shai-Hulud go back into the deck, shuffled.
  if (!s.spice_set_aside.empty()) {
    while (!s.spice_set_aside.empty()) s.spice_deck.push(s.spice_set_aside.pop());
    shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
  }
  s.blow.pile = 0;
  s.blow.pile_worms = 0;
  s.fremen.blow.territory = 0;
  // 1.02.03 / 1.02.06.
  if (s.nexus_pending && s.turn > 1) {
    enter_phase(c, Phase::Nexus);
  } else {
    s.nexus_pending = 0;
    enter_phase(c, Phase::Charity);
  }
}

// Reveals cards until every pile has its territory card or a decision is due.
void run(Ctx& c) {
  auto& s = c.s;
  s.step = kBlowing;
  s.waiting = 0;
  while (s.blow.pile < num_piles(s)) {
    const uint8_t id = reveal(c);
    if (id == kNone8) {  // no spice card left anywhere: this blow yields nothing
      next_pile(s);
      continue;
    }
    const auto& card = data::spice_card(id);
    if (!card.shai_hulud) {
      // 1.02.04
      s.spice_discard[s.blow.pile].push(id);
      if (!s.in_storm(card.location)) transfer_spice(s, bank(), board(card.location), card.amount);
      next_pile(s);
      continue;
    }
    if (s.turn <= 1) {  // 1.02.02
      s.spice_set_aside.push(id);
      continue;
    }
    // 1.02.05 / 1.02.06
    s.spice_discard[s.blow.pile].push(id);
    s.nexus_pending = 1;
    ++s.blow.worms;
    ++s.blow.pile_worms;
    if (fremen_place_worm(s)) {  // 2.04.15
      s.step = kPlaceWorm;
      s.waiting = bit(fremen_seat(s));
      return;
    }
    if (!worm_from_pile(c)) return;
  }
  finish(c);
}

void enter(Ctx& c) {
  auto& s = c.s;
  clear_blow_scratch(s);
  run(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (!has_bit(s.waiting, seat))
    return reject(RejectCode::NotYourDecision, "only the Fremen decide anything during the spice blow, and only when a sandworm asks for it");
  if (s.step == kPlaceWorm) {
    if (a.kind == ActionKind::Pass) return std::nullopt;
    if (a.kind != ActionKind::WormRide)
      return reject(RejectCode::WrongPhase, "place the sandworm (WormRide with a location in a sand territory) or Pass (2.04.15)");
    if (auto why = ability_blocked(s, Faction::Fremen, Ability::FremenWormPlacement)) return reject(RejectCode::IllegalChoice, *why);
    if (a.to >= data::kNumLocations) return reject(RejectCode::Malformed, "unknown location");
    if (!is_sand(data::territory_of(a.to)))
      return reject(RejectCode::IllegalChoice, std::string(data::territory(data::territory_of(a.to)).name) + " is not a sand territory (2.04.15)");
    return std::nullopt;
  }
  if (s.step == kFremenKarama) {
    if (a.kind != ActionKind::Pass)
      return reject(RejectCode::WrongPhase, "place your sandworm with your Karama power (PlayCard, 1.14.03) or Pass");
    return std::nullopt;
  }
  if (protect_step(s.step)) {
    if (a.kind != ActionKind::Respond)
      return reject(RejectCode::WrongPhase, "answer whether your ally is protected from the sandworm (Respond: accept=true protects, accept=false does not, 2.04.10)");
    return std::nullopt;
  }
  return reject(RejectCode::WrongPhase, "nothing is decided in the spice blow now");
}

void apply(Ctx& c, Seat, const Action& a) {
  auto& s = c.s;
  s.waiting = 0;
  if (s.step == kPlaceWorm) {
    consume_prevention(s, Faction::Fremen, Ability::FremenWormPlacement);  // 3.01.11.02: its use opportunity
    s.step = kBlowing;
    const bool go_on =
        a.kind == ActionKind::WormRide ? worm_appears(c, data::territory_of(a.to), true) : worm_from_pile(c);
    if (go_on) run(c);
    return;
  }
  if (s.step == kFremenKarama) {  // Pass
    run(c);
    return;
  }
  if (protect_step(s.step)) {
    const bool protect = a.flag;
    devour(s, s.fremen.blow.territory, protect, s.step == kProtectAllyPlaced);
    s.fremen.blow.territory = 0;
    run(c);
  }
}

std::string worm_place_name(const GameState& s) {
  if (worm_without_effect(s)) return "nowhere (ruling repeated_worm=only_first: it is only discarded)";
  const auto t = topmost_territory(s, s.blow.pile);
  return t ? std::string(data::territory(*t).name) : std::string("nowhere (no territory card in the pile)");
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kPlaceWorm) {
    Decision d{ActionKind::WormRide, "Place the additional sandworm in any sand territory (2.04.15)", 0, 0, {}};
    for (int t = 0; t < data::kNumTerritories; ++t)
      if (is_sand(static_cast<TerritoryId>(t))) d.options.push_back(data::territory(static_cast<TerritoryId>(t)).first_location);
    out.push_back(d);
    out.push_back(Decision{ActionKind::Pass, "Let the sandworm appear in " + worm_place_name(s), 0, 0, {}});
  } else if (s.step == kFremenKarama) {
    out.push_back(Decision{ActionKind::Pass, "Do not place your sandworm with your Karama power (PlayCard, 1.14.03) this turn", 0, 0, {}});
  } else if (protect_step(s.step)) {
    out.push_back(Decision{ActionKind::Respond,
                           "A sandworm appears in " + std::string(data::territory(s.fremen.blow.territory).name) +
                               ": protect your ally's forces there (accept) or let them be devoured (2.04.10)",
                           0, 1, {}});
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kPlaceWorm) {
    for (int t = 0; t < data::kNumTerritories && !ability_cancelled(s, Faction::Fremen, Ability::FremenWormPlacement); ++t) {
      if (!is_sand(static_cast<TerritoryId>(t))) continue;
      Action a;
      a.kind = ActionKind::WormRide;
      a.to = data::territory(static_cast<TerritoryId>(t)).first_location;
      out.push_back(a);
    }
    Action pass;
    pass.kind = ActionKind::Pass;
    out.push_back(pass);
  } else if (s.step == kFremenKarama) {
    Action pass;
    pass.kind = ActionKind::Pass;
    out.push_back(pass);
  } else if (protect_step(s.step)) {
    for (bool accept : {true, false}) {
      Action a;
      a.kind = ActionKind::Respond;
      a.flag = accept;
      out.push_back(a);
    }
  }
}

}  // namespace

std::optional<Rejection> check_fremen_worm(const GameState& s, LocationId to) {
  const bool blow = s.phase == Phase::SpiceBlow && s.step == kFremenKarama;
  const bool nexus = s.phase == Phase::Nexus && s.waiting != 0;
  if (!blow && !nexus)
    return reject(RejectCode::WrongPhase, s.phase == Phase::SpiceBlow || s.phase == Phase::Nexus
                                              ? "the Fremen place their Karama sandworm when asked at the end of the spice blow, or during a Nexus (1.14.03)"
                                              : "the Fremen Karama power is used during the Spice Blow and Nexus phase (1.14.03)");
  if (to >= data::kNumLocations) return reject(RejectCode::Malformed, "name a location of the sand territory for the sandworm (target)");
  if (!is_sand(data::territory_of(to)))
    return reject(RejectCode::IllegalChoice, std::string(data::territory(data::territory_of(to)).name) + " is not a sand territory (1.14.03)");
  return std::nullopt;
}

void fremen_karama_worm(Ctx& c, LocationId to, bool protect_ally) {
  auto& s = c.s;
  const TerritoryId t = data::territory_of(to);
  const bool protect = ally_protectable(s, t) && (protect_ally || s.rulings.is(RulingId::FremenAllyProtection, kAlwaysProtect));
  devour(s, t, protect, true);
  if (s.phase != Phase::SpiceBlow) return;  // during a Nexus: it goes on
  s.nexus_pending = 1;                      // 1.02.06
  s.waiting = 0;
  run(c);                                   // the blow ends (no more questions: the power is used)
}

const PhaseRules& spice_blow_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
