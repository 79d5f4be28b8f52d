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
// Faction abilities reach the blow through the hook table
// (core/factions/faction_rules.h, docs/ARCHITECTURE.md "Faction hooks"):
// worm_revealed (a faction places the worm), worm_appears (a faction is
// asked first), worm_spares (whose forces the worm spares, what it records),
// blow_ends (a question before the phase ends) and blow_step (the faction's
// sub-steps of GameState::step; 0 is this phase's own). The Fremen's 2.04.07,
// 2.04.10, 2.04.15, 2.04.08 (the rides) and 1.14.03 (the Karama sandworm)
// are in core/factions/fremen.cpp.
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"

namespace mentat::rules {
namespace {

constexpr uint8_t kBlowing = 0;  // the phase's own step (automatic); factions' steps: hook blow_step

// Ruling values (core/rulings.cpp).
constexpr uint8_t kKeepTopTerritory = 1;  // SpiceReshuffleBasic
constexpr uint8_t kOnlyFirstWorm = 1;     // RepeatedWorm
constexpr uint8_t kPlacedForcesOnly = 1;  // PlacedWormSpice

int num_piles(const GameState& s) { return s.advanced ? 2 : 1; }

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

// The blow step of the faction (in the game) that owns GameState::step, or null.
const FactionRules::BlowStep* faction_blow_step(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& st = faction_rules(static_cast<Faction>(fi)).blow_step;
    if (st.first && s.step >= st.first && s.step <= st.last && s.has(static_cast<Faction>(fi))) return &st;
  }
  return nullptr;
}

// 1.02.05: the worm destroys the spice and the forces in territory t, but
// the forces of the factions the hook worm_spares names (2.04.07, 2.04.10;
// `answer`: the answer to the worm_appears question). A worm a faction placed
// (2.04.15, 1.14.03) leaves the spice under ruling placed_worm_spice
// forces_only.
void devour(GameState& s, TerritoryId t, bool answer, bool placed) {
  const auto& ter = data::territory(t);
  FactionMask spared = 0;
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).worm_spares; h && s.has(static_cast<Faction>(fi)))
      spared |= h(s, t, answer);
  const bool spice = !(placed && s.rulings.is(RulingId::PlacedWormSpice, kPlacedForcesOnly));
  for (int i = 0; i < ter.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(ter.first_location + i);
    if (spice && s.spice_on_board[loc] > 0) transfer_spice(s, board(loc), bank(), s.spice_on_board[loc]);
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto fa = static_cast<Faction>(fi);
      if (!s.has(fa) || (spared & faction_bit(fa))) continue;
      const int reg = s.forces_at(fa, loc, 0);
      int spec = s.forces_at(fa, loc, 1);
      if (const auto h = faction_rules(fa).force_token.worm_ignores; h && h(s)) spec = 0;  // ruling no_field_worm
      if (reg + spec > 0) forces_to_tanks(s, fa, loc, reg, spec);
    }
  }
}

// A worm appears in territory t (`placed`: by a faction, 2.04.15): a faction
// may be asked first (hook worm_appears, 2.04.10), else it devours at once.
// False when the blow waits for a decision.
bool worm_appears(Ctx& c, TerritoryId t, bool placed) {
  auto& s = c.s;
  bool answer = false;
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).worm_appears; h && s.has(static_cast<Faction>(fi)) && h(s, t, placed, &answer))
      return false;
  devour(s, t, answer, placed);
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

// The current pile has its territory card (or no card at all): on to the next.
void next_pile(GameState& s) {
  ++s.blow.pile;
  s.blow.pile_worms = 0;
}

void finish(Ctx& c) {
  auto& s = c.s;
  for (int fi = 0; fi < kNumFactions; ++fi)  // 1.14.03 (hook blow_ends)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).blow_ends; h && s.has(static_cast<Faction>(fi)) && h(s)) return;
  // 1.02.02: the set-aside Shai-Hulud go back into the deck, shuffled.
  if (!s.spice_set_aside.empty()) {
    while (!s.spice_set_aside.empty()) s.spice_deck.push(s.spice_set_aside.pop());
    shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
  }
  s.blow.pile = 0;
  s.blow.pile_worms = 0;
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
    for (int fi = 0; fi < kNumFactions; ++fi)  // 2.04.15 (hook worm_revealed)
      if (const auto h = faction_rules(static_cast<Faction>(fi)).worm_revealed; h && s.has(static_cast<Faction>(fi)) && h(s)) return;
    if (!worm_from_pile(c)) return;
  }
  finish(c);
}

void enter(Ctx& c) {
  auto& s = c.s;
  clear_blow_scratch(s);
  raise(s, PhaseBegins{Phase::SpiceBlow});  // the owners' phase start (core/rules/owners.h)
  run(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (!has_bit(s.waiting, seat)) {
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (const auto& st = faction_rules(static_cast<Faction>(fi)).blow_step; st.first && s.has(static_cast<Faction>(fi)))
        return reject(RejectCode::NotYourDecision, st.wait);
    return reject(RejectCode::NotYourDecision, "nobody decides anything during the spice blow");
  }
  if (const auto* st = faction_blow_step(s)) return st->validate(s, a);
  return reject(RejectCode::WrongPhase, "nothing is decided in the spice blow now");
}

void apply(Ctx& c, Seat, const Action& a) {
  c.s.waiting = 0;
  if (const auto* st = faction_blow_step(c.s)) st->apply(c, a);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (const auto* st = faction_blow_step(s)) st->decisions(s, out);
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (const auto* st = faction_blow_step(s)) st->legal(s, out);
}

}  // namespace

// ---- for the factions' blow hooks (core/rules/rules.h) ----

void spice_blow_devour(GameState& s, TerritoryId t, bool answer, bool placed) { devour(s, t, answer, placed); }
bool spice_blow_worm_appears(Ctx& c, TerritoryId t, bool placed) { return worm_appears(c, t, placed); }
bool spice_blow_worm_from_pile(Ctx& c) { return worm_from_pile(c); }
void spice_blow_run(Ctx& c) { run(c); }

uint8_t spice_blow_worm_territory(const GameState& s) {
  if (worm_without_effect(s)) return kNone8;
  const auto t = topmost_territory(s, s.blow.pile);
  return t ? static_cast<uint8_t>(*t) : kNone8;
}

std::string spice_blow_worm_place(const GameState& s) {
  if (worm_without_effect(s)) return "no territory (under this game's ruling on repeated sandworms it is only discarded)";
  const auto t = topmost_territory(s, s.blow.pile);
  return t ? std::string(data::territory(*t).name) : std::string("nowhere (no territory card in the pile)");
}

void spice_blow_worm_placed(Ctx& c, TerritoryId t, bool answer) {
  auto& s = c.s;
  devour(s, t, answer, true);
  if (s.phase != Phase::SpiceBlow) return;  // during a Nexus: it goes on
  s.nexus_pending = 1;                      // 1.02.06
  s.waiting = 0;
  run(c);                                   // the blow goes on to its end
}

namespace {
// 1.00.05: a faction's sub-step of the blow (the Fremen's 2.04.10 / 2.04.15
// questions and their 1.14.03 Karama sandworm).
const char* ability_in_use(const GameState& s) {
  return faction_blow_step(s) ? "the Fremen's sandworm ability (2.04.10 / 2.04.15 / 1.14.03)" : nullptr;
}
}  // namespace

const PhaseRules& spice_blow_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal, ability_in_use};
  return r;
}

}  // namespace mentat::rules
