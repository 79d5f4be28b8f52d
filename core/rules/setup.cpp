// 0.xx Setup of the game: decks, spice, forces, traitors (0.11), starting
// treachery cards (0.14, 2.05.04 from the faction data). The first storm
// (0.16) is dialed in the Storm phase of turn 1 (core/rules/storm.cpp).
// Leader Skills (core/cards/leader_skills.cpp): the skill cards are dealt
// with the traitors and assigned in the same step (AssignSkill).
// The factions' own setup reaches it through the hook table
// (core/factions/faction_rules.h): setup_decks (2.04.13 the Fremen storm
// deck), places_start_forces and setup_steps (2.02.03 the Bene Gesserit
// prediction, 2.04.02 the Fremen placement, 2.02.02 / 2.02.08 the Bene
// Gesserit's starting force), in core/factions/<faction>.cpp.
#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

using data::kNumLocations;

// The setup step of a faction in the game at GameState::step (*owner set), or null.
const FactionRules::SetupDecision* faction_setup_step(const GameState& s, Faction* owner = nullptr) {
  for (int fi = 0; fi < kNumFactions; ++fi) {
    if (!s.has(static_cast<Faction>(fi))) continue;
    for (const auto& d : faction_rules(static_cast<Faction>(fi)).setup_steps)
      if (static_cast<uint8_t>(d.step) == s.step) {
        if (owner) *owner = static_cast<Faction>(fi);
        return &d;
      }
  }
  return nullptr;
}

// Moves to the next setup step that has someone to ask, or starts turn 1.
void next_step(Ctx& c) {
  auto& s = c.s;
  for (;;) {
    s.waiting = 0;
    if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) {
      for (int i = 0; i < kNumFactions; ++i) {
        auto& fs = s.f[i];
        if (fs.in_game && (fs.traitor_offer.n > 0 || skills_to_assign(s, static_cast<Faction>(i)))) s.waiting |= bit(fs.seat);
      }
      if (s.waiting) return;
    } else if (s.step == static_cast<uint8_t>(SetupStep::StormDial)) {
      s.turn = 1;
      enter_phase(c, Phase::Storm);
      return;
    } else {
      Faction owner{};
      if (const auto* d = faction_setup_step(s, &owner); d && d->asks(s)) {
        s.waiting = bit(s.seat_of(owner));
        return;
      }
    }
    ++s.step;
  }
}

void enter(Ctx& c) {
  auto& s = c.s;
  s.phase = Phase::Setup;
  s.step = static_cast<uint8_t>(SetupStep::Prediction);
  // 0.05 / 0.06: shuffle the decks.
  // The card sets of the game's modules that go in the deck (the base set always).
  const uint8_t sets = data::card_sets_in(s.modules, data::CardPlace::TreacheryDeck);
  for (int set = 0; set < data::kNumCardSets; ++set) {
    if (!((sets >> set) & 1u)) continue;
    const auto& info = data::card_set(static_cast<data::CardSet>(set));
    for (int i = info.first; i < info.first + info.count; ++i) s.treachery_deck.push(static_cast<uint8_t>(i));
  }
  shuffle_pile(c, s.treachery_deck, DrawKind::ShuffleTreachery);
  // The card sets of the game's modules that form the Richese cache (CHOAM & Richese), in id order.
  const uint8_t cache_sets = data::card_sets_in(s.modules, data::CardPlace::RicheseCache);
  for (int set = 0; set < data::kNumCardSets; ++set) {
    if (!((cache_sets >> set) & 1u)) continue;
    const auto& info = data::card_set(static_cast<data::CardSet>(set));
    for (int i = info.first; i < info.first + info.count; ++i) s.richese.cache.push(static_cast<uint8_t>(i));
  }
  for (int i = 0; i < data::kNumSpiceCards; ++i) s.spice_deck.push(static_cast<uint8_t>(i));
  shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
  // 0.11: the traitor deck holds the leaders of the factions in play.
  for (int l = 0; l < data::kNumLeaders; ++l)  // the CHOAM Auditor only in the advanced game
    if (s.leader_in_game(static_cast<LeaderId>(l))) s.traitor_deck.push(static_cast<uint8_t>(l));
  shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);
  for (int fi = 0; fi < kNumFactions; ++fi)  // 2.04.13 (hook setup_decks)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).setup_decks; h && s.has(static_cast<Faction>(fi))) h(c);
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction fa = s.faction_at(seat);
    const auto& setup = data::faction_setup(fa);
    auto& fs = s.of(fa);
    // 0.12 starting spice.
    transfer_spice(s, bank(), shield(fa), setup.starting_spice);
    // 0.13 starting forces: everything to reserves, then the fixed placements.
    move_forces(s, fa, supply(), reserves_zone(), setup.forces_total - setup.special_forces, setup.special_forces,
                ForceCause::Setup);
    auto fixed = data::fixed_start_location(fa);
    const auto places = faction_rules(fa).places_start_forces;  // 2.02.08
    if (fixed && !(places && places(s)))
      move_forces(s, fa, reserves_zone(), at(*fixed), setup.forces_on_planet, 0, ForceCause::Setup);
    // 0.11 deal four traitor cards each.
    for (int k = 0; k < 4; ++k) {
      uint8_t t = s.traitor_deck.pop();
      c.record(DrawKind::DealTraitor, t);
      fs.traitor_offer.push(t);
    }
    // 2.05.03 Harkonnen keeps all four.
    if (setup.traitors_kept == 4) {
      while (!fs.traitor_offer.empty()) fs.traitors.push(fs.traitor_offer.pop());
    }
  }
  skills_deal(c);  // Leader Skills: two each
  // 0.14 starting treachery card (2.05.04 Harkonnen draws a second one).
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction fa = s.faction_at(seat);
    for (int k = 0; k < data::faction_setup(fa).starting_treachery_cards; ++k) s.of(fa).hand.push(draw_treachery(c));
  }
  next_step(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "this seat has no setup decision to make now");
  const Faction me = s.faction_at(seat);
  if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) {
    if (a.kind() == ActionKind::AssignSkill) return skills_assign_validate(s, me, a.as<action::AssignSkill>());
    if (a.kind() != ActionKind::SelectTraitor)
      return reject(RejectCode::WrongPhase, skills_to_assign(s, me) ? "select one of the traitor cards dealt (SelectTraitor) and assign a leader skill (AssignSkill)"
                                                                    : "select one of the four traitor cards dealt (SelectTraitor)");
    if (s.of(me).traitor_offer.empty()) return reject(RejectCode::IllegalChoice, "you have already kept your traitor card");
    if (!s.of(me).traitor_offer.contains(a.as<action::SelectTraitor>().leader))
      return reject(RejectCode::IllegalChoice, "that leader is not among the traitor cards dealt to you");
    return std::nullopt;
  }
  if (const auto* d = faction_setup_step(s)) return d->validate(s, a);
  return reject(RejectCode::WrongPhase, "no setup decision is pending");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (s.step == static_cast<uint8_t>(SetupStep::Traitors) && a.kind() == ActionKind::AssignSkill) {
    skills_assign_apply(s, s.faction_at(seat), a.as<action::AssignSkill>());
  } else if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) {
    auto& fs = s.of(s.faction_at(seat));
    const LeaderId kept = a.as<action::SelectTraitor>().leader;
    fs.traitors.push(kept);
    fs.traitor_offer.remove(kept);
    while (!fs.traitor_offer.empty()) fs.traitors_discarded.push(fs.traitor_offer.pop());
  } else if (const auto* d = faction_setup_step(s)) {
    d->apply(s, a);
  }
  const Faction me = s.faction_at(seat);
  if (s.step != static_cast<uint8_t>(SetupStep::Traitors) || (s.of(me).traitor_offer.empty() && !skills_to_assign(s, me)))
    s.waiting &= static_cast<uint8_t>(~bit(seat));
  if (s.waiting == 0) {
    if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) skills_assigned_all(c);  // the skill cards face up
    ++s.step;
    next_step(c);
  }
}

void traitor_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  skills_decisions(s, s.faction_at(seat), out);
  if (s.of(s.faction_at(seat)).traitor_offer.empty()) return;
  Decision d{ActionKind::SelectTraitor, "Keep one of the traitor cards dealt to you", 0, 0, {}};
  const auto& offer = s.of(s.faction_at(seat)).traitor_offer;
  for (int i = 0; i < offer.n; ++i) d.options.push_back(offer.ids[i]);
  out.push_back(d);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) traitor_decisions(s, seat, out);
  else if (const auto* d = faction_setup_step(s)) d->decisions(s, out);
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == static_cast<uint8_t>(SetupStep::Traitors)) {
    skills_legal(s, s.faction_at(seat), out);
    const auto& offer = s.of(s.faction_at(seat)).traitor_offer;
    for (int i = 0; i < offer.n; ++i) out.push_back(action::SelectTraitor{.leader = offer.ids[i]});
  } else if (const auto* d = faction_setup_step(s)) {
    d->legal(s, out);
  }
}

}  // namespace

const PhaseRules& setup_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
