// 0.xx Setup of the game: decks, spice, forces, traitors (0.11), the Bene
// Gesserit prediction (2.02.03), starting treachery cards (0.14, 2.05.04),
// Fremen placement (2.04.02) and the Bene Gesserit's starting force (2.02.02,
// 2.02.08). The first storm (0.16) is dialed in the Storm phase of turn 1
// (core/rules/storm.cpp).
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

using data::kNumLocations;

bool bg_places_by_choice(const GameState& s) {
  return s.has(Faction::BeneGesserit) &&
         (s.advanced || s.rulings.is(RulingId::BgStartBasic, 1));
}

// Moves to the next setup step that has someone to ask, or starts turn 1.
void next_step(Ctx& c) {
  auto& s = c.s;
  for (;;) {
    s.waiting = 0;
    switch (static_cast<SetupStep>(s.step)) {
      case SetupStep::Prediction:
        if (s.has(Faction::BeneGesserit) && s.of(Faction::BeneGesserit).prediction_turn == 0) {
          s.waiting = bit(s.seat_of(Faction::BeneGesserit));
          return;
        }
        break;
      case SetupStep::Traitors:
        for (int i = 0; i < kNumFactions; ++i) {
          auto& fs = s.f[i];
          if (fs.in_game && fs.traitor_offer.n > 0) s.waiting |= bit(fs.seat);
        }
        if (s.waiting) return;
        break;
      case SetupStep::FremenPlacement:
        if (s.has(Faction::Fremen) && s.of(Faction::Fremen).reserves[0] + s.of(Faction::Fremen).reserves[1] == 20) {
          s.waiting = bit(s.seat_of(Faction::Fremen));
          return;
        }
        break;
      case SetupStep::BgPlacement:
        if (bg_places_by_choice(s) && s.of(Faction::BeneGesserit).reserves[0] == 20) {
          s.waiting = bit(s.seat_of(Faction::BeneGesserit));
          return;
        }
        break;
      case SetupStep::StormDial:
        s.turn = 1;
        enter_phase(c, Phase::Storm);
        return;
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
  for (int i = 0; i < data::kNumSpiceCards; ++i) s.spice_deck.push(static_cast<uint8_t>(i));
  shuffle_pile(c, s.spice_deck, DrawKind::ShuffleSpice);
  // 0.11: the traitor deck holds the leaders of the factions in play.
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (s.has(data::leader(static_cast<LeaderId>(l)).faction)) s.traitor_deck.push(static_cast<uint8_t>(l));
  shuffle_pile(c, s.traitor_deck, DrawKind::ShuffleTraitors);
  // 2.04.13: the advanced Fremen storm deck.
  if (s.advanced && s.has(Faction::Fremen)) {
    for (uint8_t v = 1; v <= 6; ++v) s.fremen.storm_deck.push(v);
    shuffle_pile(c, s.fremen.storm_deck, DrawKind::ShuffleStormDeck);
  }
  for (Seat seat = 0; seat < s.num_seats; ++seat) {
    const Faction fa = s.faction_at(seat);
    const auto& setup = data::faction_setup(fa);
    auto& fs = s.of(fa);
    // 0.12 starting spice.
    transfer_spice(s, bank(), shield(fa), setup.starting_spice);
    // 0.13 starting forces: everything to reserves, then the fixed placements.
    fs.reserves[1] = setup.special_forces;
    fs.reserves[0] = static_cast<uint8_t>(setup.forces_total - setup.special_forces);
    auto fixed = data::fixed_start_location(fa);
    if (fixed && !(fa == Faction::BeneGesserit && bg_places_by_choice(s))) {
      s.forces_at(fa, *fixed, 0) = setup.forces_on_planet;
      fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - setup.forces_on_planet);
    }
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
  switch (static_cast<SetupStep>(s.step)) {
    case SetupStep::Prediction: {
      if (a.kind != ActionKind::Predict) return reject(RejectCode::WrongPhase, "the Bene Gesserit must make the prediction (Predict)");
      if (a.faction >= kNumFactions || !s.has(static_cast<Faction>(a.faction)))
        return reject(RejectCode::IllegalChoice, "the predicted faction is not in this game");
      if (static_cast<Faction>(a.faction) == Faction::BeneGesserit)
        return reject(RejectCode::IllegalChoice, "the Bene Gesserit must predict another faction");
      if (a.value < 1 || a.value > s.max_turns)
        return reject(RejectCode::IllegalChoice, "the predicted turn must be 1.." + std::to_string(s.max_turns));
      return std::nullopt;
    }
    case SetupStep::Traitors: {
      if (a.kind != ActionKind::SelectTraitor) return reject(RejectCode::WrongPhase, "select one of the four traitor cards dealt (SelectTraitor)");
      if (!s.of(me).traitor_offer.contains(a.value))
        return reject(RejectCode::IllegalChoice, "that leader is not among the traitor cards dealt to you");
      return std::nullopt;
    }
    case SetupStep::FremenPlacement: {
      if (a.kind != ActionKind::PlaceForces) return reject(RejectCode::WrongPhase, "the Fremen must place their 10 starting forces (PlaceForces)");
      int total = 0, special = 0;
      for (int i = 0; i < a.n_placements; ++i) {
        const auto& p = a.placements[i];
        if (p.location >= kNumLocations) return reject(RejectCode::Malformed, "unknown location");
        bool ok = false;
        for (auto t : data::fremen_start_territories()) ok |= data::territory_of(p.location) == t;
        if (!ok) return reject(RejectCode::IllegalChoice, std::string(data::location(p.location).name) + " is not Sietch Tabr, False Wall South or False Wall West");
        total += p.forces + p.special;
        special += p.special;
      }
      if (total != 10) return reject(RejectCode::IllegalChoice, "the Fremen place exactly 10 forces, not " + std::to_string(total));
      if (special > s.of(Faction::Fremen).reserves[1]) return reject(RejectCode::IllegalChoice, "only 3 Fedaykin exist");
      return std::nullopt;
    }
    case SetupStep::BgPlacement: {
      if (a.kind != ActionKind::PlaceForces || a.n_placements != 1)
        return reject(RejectCode::WrongPhase, "the Bene Gesserit place one starting force (PlaceForces with one placement)");
      const auto& p = a.placements[0];
      if (p.location >= kNumLocations) return reject(RejectCode::Malformed, "unknown location");
      if (p.forces + p.special != 1) return reject(RejectCode::IllegalChoice, "exactly one force is placed");
      return std::nullopt;
    }
    case SetupStep::StormDial: break;
  }
  return reject(RejectCode::WrongPhase, "no setup decision is pending");
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  auto& fs = s.of(me);
  switch (a.kind) {
    case ActionKind::Predict:
      fs.prediction_faction = a.faction;
      fs.prediction_turn = a.value;
      break;
    case ActionKind::SelectTraitor:
      fs.traitors.push(a.value);
      fs.traitor_offer.remove(a.value);
      while (!fs.traitor_offer.empty()) fs.traitors_discarded.push(fs.traitor_offer.pop());
      break;
    case ActionKind::PlaceForces:
      for (int i = 0; i < a.n_placements; ++i) {
        const auto& p = a.placements[i];
        const int n = p.forces + p.special;
        if (me == Faction::BeneGesserit) {
          // 2.02.08: an advisor; a fighter if alone in the territory. Basic game
          // with the any-territory ruling: always a fighter.
          const bool alone = other_factions_in(s, me, data::territory_of(p.location)) == 0;
          const int kind = (s.advanced && !alone) ? 1 : 0;
          s.forces_at(me, p.location, kind) = static_cast<uint8_t>(s.forces_at(me, p.location, kind) + n);
          fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - n);
        } else {
          s.forces_at(me, p.location, 0) = static_cast<uint8_t>(s.forces_at(me, p.location, 0) + p.forces);
          s.forces_at(me, p.location, 1) = static_cast<uint8_t>(s.forces_at(me, p.location, 1) + p.special);
          fs.reserves[0] = static_cast<uint8_t>(fs.reserves[0] - p.forces);
          fs.reserves[1] = static_cast<uint8_t>(fs.reserves[1] - p.special);
        }
      }
      break;
    default: break;
  }
  s.waiting &= static_cast<uint8_t>(~bit(seat));
  if (s.waiting == 0) {
    ++s.step;
    next_step(c);
  }
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Faction me = s.faction_at(seat);
  switch (static_cast<SetupStep>(s.step)) {
    case SetupStep::Prediction: {
      Decision d{ActionKind::Predict, "Predict the faction and the turn of a stronghold victory", 1, s.max_turns, {}};
      for (int i = 0; i < kNumFactions; ++i)
        if (s.f[i].in_game && i != static_cast<int>(Faction::BeneGesserit)) d.options.push_back(static_cast<uint16_t>(i));
      out.push_back(d);
      break;
    }
    case SetupStep::Traitors: {
      Decision d{ActionKind::SelectTraitor, "Keep one of the traitor cards dealt to you", 0, 0, {}};
      const auto& offer = s.of(me).traitor_offer;
      for (int i = 0; i < offer.n; ++i) d.options.push_back(offer.ids[i]);
      out.push_back(d);
      break;
    }
    case SetupStep::FremenPlacement: {
      Decision d{ActionKind::PlaceForces, "Distribute 10 forces among Sietch Tabr, False Wall South and False Wall West", 10, 10, {}};
      for (auto t : data::fremen_start_territories()) {
        const auto& ter = data::territory(t);
        for (int i = 0; i < ter.num_locations; ++i) d.options.push_back(static_cast<uint16_t>(ter.first_location + i));
      }
      out.push_back(d);
      break;
    }
    case SetupStep::BgPlacement: {
      Decision d{ActionKind::PlaceForces, "Place one force (an advisor in the advanced game) in any territory", 1, 1, {}};
      for (int l = 0; l < kNumLocations; ++l) d.options.push_back(static_cast<uint16_t>(l));
      out.push_back(d);
      break;
    }
    case SetupStep::StormDial: break;
  }
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  std::vector<Decision> ds;
  decisions(s, seat, ds);
  for (const auto& d : ds) {
    switch (d.kind) {
      case ActionKind::Predict:
        for (auto fac : d.options)
          for (int t = 1; t <= s.max_turns; ++t) {
            Action a;
            a.kind = ActionKind::Predict;
            a.faction = static_cast<uint8_t>(fac);
            a.value = static_cast<uint8_t>(t);
            out.push_back(a);
          }
        break;
      case ActionKind::SelectTraitor:
        for (auto l : d.options) {
          Action a;
          a.kind = ActionKind::SelectTraitor;
          a.value = static_cast<uint8_t>(l);
          out.push_back(a);
        }
        break;
      case ActionKind::PlaceForces:
        if (s.faction_at(seat) == Faction::Fremen) {
          // A few representative distributions over the three territories.
          const LocationId tabr = data::sietch_tabr();
          const auto fws = data::territory(data::fremen_start_territories()[1]).first_location;
          const auto fww = data::territory(data::fremen_start_territories()[2]).first_location;
          const uint8_t splits[][3] = {{10, 0, 0}, {4, 3, 3}, {0, 10, 0}, {0, 0, 10}, {5, 5, 0}};
          for (const auto& sp : splits) {
            Action a;
            a.kind = ActionKind::PlaceForces;
            const LocationId locs[3] = {tabr, static_cast<LocationId>(fws), static_cast<LocationId>(fww)};
            for (int i = 0; i < 3; ++i)
              if (sp[i]) a.placements[a.n_placements++] = Placement{locs[i], sp[i], 0};
            out.push_back(a);
          }
        } else {
          for (auto l : d.options) {
            Action a;
            a.kind = ActionKind::PlaceForces;
            a.placements[0] = Placement{static_cast<LocationId>(l), 1, 0};
            a.n_placements = 1;
            out.push_back(a);
          }
        }
        break;
      default: break;
    }
  }
}

}  // namespace

const PhaseRules& setup_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
