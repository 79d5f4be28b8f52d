#include "inspect/custody.h"

#include <array>

#include <fmt/format.h>

namespace mentat::inspect {

std::string_view component_name(Component c) {
  switch (c) {
    case Component::Treachery: return "treachery card";
    case Component::Spice: return "spice card";
    case Component::Traitor: return "traitor card";
    case Component::Leader: return "leader";
    case Component::StormCard: return "storm card";
    case Component::NoFieldToken: return "No-Field token";
    case Component::LeaderSkill: return "leader skill card";
    case Component::StrongholdCard: return "stronghold card";
  }
  return "?";
}

std::string component_label(Component c, uint8_t id) {
  switch (c) {
    case Component::Treachery: return fmt::format("{} #{}", data::treachery_card(id).name, id);
    case Component::Spice: return data::spice_card_name(id);
    case Component::Traitor: return fmt::format("traitor {}", data::leader(id).name);
    case Component::Leader: return std::string(data::leader(id).name);
    case Component::StormCard: return fmt::format("storm card {}", id);
    case Component::NoFieldToken:
      return id < kNumNoFieldTokens ? fmt::format("No-Field token {}", kNoFieldValues[id]) : fmt::format("No-Field token #{}", id);
    case Component::LeaderSkill: return fmt::format("skill {}", data::leader_skill_name(id));
    case Component::StrongholdCard: return fmt::format("stronghold card {}", data::stronghold_card_name(id));
  }
  return "?";
}

namespace {

// Every component with its place: fn(kind, id, zone) where zone() names the
// place (built only when called: check_invariants needs it only to report).
template <class Fn>
void visit_custody(const GameState& s, Fn&& fn) {
  auto pile = [&](Component k, const auto& p, auto zone) {
    for (int i = 0; i < p.n; ++i) fn(k, p.ids[i], zone);
  };
  auto named = [](const char* z) { return [z] { return std::string(z); }; };
  pile(Component::Treachery, s.treachery_deck, named("treachery_deck"));
  pile(Component::Treachery, s.treachery_discard, named("treachery_discard"));
  pile(Component::Treachery, s.bidding.row, named("up_for_bid"));
  pile(Component::Treachery, s.battle.wheels, named("battle_wheels"));
  pile(Component::Treachery, s.treachery_set_aside, named("treachery_set_aside"));  // 3.01.07 Family Atomics
  pile(Component::Treachery, s.harkonnen.karama_taken, named("karama_taken"));                // 1.14.04 Harkonnen give-back
  pile(Component::Treachery, s.treachery_played, named("played"));  // a card whose effect is resolving (public)
  // Module sections (core/state.h): visited whatever the modules, so that a
  // component left in the section of a module the game does not use is seen.
  pile(Component::Treachery, s.richese.cache, named("richese_cache"));
  pile(Component::Treachery, s.richese.removed, named("removed_from_game"));  // an unsold cache lot Richese did not keep
  for (int i = 0; i < kNumNoFieldTokens; ++i) {
    const auto& t = s.richese.no_field[i];
    if (!s.uses(data::Module::ChoamRichese) && t.zone == TokenZone::Reserve && t.location == kNone8) continue;  // unused
    fn(Component::NoFieldToken, static_cast<uint8_t>(i), [&t] {
      switch (t.zone) {
        case TokenZone::Reserve: return std::string("no_field_reserve");
        case TokenZone::Board:
          return t.location < data::kNumLocations ? "board:" + std::string(data::location(t.location).name) : std::string("board:?");
        case TokenZone::Revealed: return std::string("no_field_revealed");
      }
      return std::string("?");
    });
  }
  pile(Component::LeaderSkill, s.skills.deck, named("skill_deck"));
  pile(Component::LeaderSkill, s.skills.discard, named("skill_discard"));
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (s.skills.assigned[l])
      fn(Component::LeaderSkill, static_cast<uint8_t>(s.skills.assigned[l] - 1), [&s, l] {
        return std::string(s.skills.face_down[l] ? "skill_face_down:" : "skill:") + std::string(data::leader(static_cast<LeaderId>(l)).name);
      });
  for (int i = 0; i < data::kNumStrongholdCards; ++i) {
    const uint8_t h = s.stronghold_cards.holder[i];
    if (!s.uses(data::Module::StrongholdCards) && h == kNoFaction) continue;  // unused
    fn(Component::StrongholdCard, static_cast<uint8_t>(i), [h] {
      return h == kNoFaction ? std::string("stronghold")
                             : h < kNumFactions ? "held:" + std::string(faction_key(static_cast<Faction>(h))) : std::string("held:?");
    });
  }
  pile(Component::Spice, s.spice_deck, named("spice_deck"));
  pile(Component::Spice, s.spice_discard[0], named("spice_discard_a"));
  pile(Component::Spice, s.spice_discard[1], named("spice_discard_b"));
  pile(Component::Spice, s.spice_set_aside, named("spice_set_aside"));
  pile(Component::Traitor, s.traitor_deck, named("traitor_deck"));
  pile(Component::StormCard, s.fremen.storm_deck, named("storm_deck"));
  if (s.fremen.storm_card) fn(Component::StormCard, s.fremen.storm_card, named("storm_card"));
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& fs = s.f[fi];
    if (!fs.in_game) continue;
    const std::string_view key = faction_key(static_cast<Faction>(fi));
    auto of = [key](const char* z) { return [z, key] { return std::string(z) + ":" + std::string(key); }; };
    pile(Component::Treachery, fs.hand, of("hand"));
    pile(Component::Traitor, fs.traitors, of("traitors"));
    pile(Component::Traitor, fs.traitor_offer, of("traitor_offer"));
    pile(Component::Traitor, fs.traitors_discarded, of("traitors_discarded"));
  }
  for (int fi = 0; fi < kNumFactions; ++fi) {  // dealt leader skills; any faction, so a card with one not in the game is seen
    const std::string_view key = faction_key(static_cast<Faction>(fi));
    pile(Component::LeaderSkill, s.skills.hand[fi], [key] { return "skill_hand:" + std::string(key); });
  }
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!s.has(data::leader(static_cast<LeaderId>(l)).faction)) continue;
    const auto& ls = s.leaders[l];
    if (!s.leader_in_game(static_cast<LeaderId>(l))) {  // the basic game's Auditor stays in the box
      fn(Component::Leader, static_cast<uint8_t>(l), [] { return std::string("out_of_game"); });
      continue;
    }
    fn(Component::Leader, static_cast<uint8_t>(l), [&ls] {
      std::string zone;
      switch (ls.zone) {
        case LeaderZone::Pool: zone = "pool"; break;
        case LeaderZone::Tanks: zone = "tanks"; break;
        case LeaderZone::TanksFaceDown: zone = "tanks_face_down"; break;
        case LeaderZone::Battlefield: zone = "battlefield"; break;
      }
      if (ls.holder < kNumFactions) zone += ":" + std::string(faction_key(static_cast<Faction>(ls.holder)));
      return zone;
    });
  }
}

}  // namespace

namespace {

using Seen = std::array<std::array<uint8_t, 64>, kNumComponentKinds>;

// The module sections (core/state.h): "module" (a module the game does not
// use leaves its section empty), each module's components exactly once,
// and what their zones require.
std::optional<Violation> check_module_sections(const GameState& s, const Seen& seen) {
  // A card whose effect is resolving: only games with modules have such cards
  // (each base card is discarded as it is played, core/rules/cards.cpp).
  if (s.modules == 0 && !s.treachery_played.empty())
    return Violation{"module", fmt::format("{} is in the played-card zone of a base game", component_label(Component::Treachery, s.treachery_played.ids[0]))};
  const uint8_t cache_sets = data::card_sets_in(s.modules, data::CardPlace::RicheseCache);
  for (int i = 0; i < s.richese.cache.n; ++i) {
    const uint8_t id = s.richese.cache.ids[i];
    if (id >= data::kNumAllTreacheryCards || !((cache_sets >> static_cast<int>(data::treachery_card(id).set)) & 1u))
      return Violation{"module", fmt::format("treachery card #{} is in the Richese cache but not of a cache set of this game", id)};
  }
  {  // the Richese Bidding-phase lot (core/factions/richese.cpp): values in range
    const auto& b = s.richese.bidding;
    if (static_cast<int>(b.lot) > 2 || static_cast<int>(b.auction) > 3 || b.cache_timing > 3 || b.cache_done > 1 || b.market_sold > 1 ||
        b.after_row > 1)
      return Violation{"module", "the Richese lot's fields are out of range"};
    if ((b.lot != LotKind::None) != (b.lot_card != kNone8) || (b.lot_card != kNone8 && b.lot_card >= data::kNumAllTreacheryCards))
      return Violation{"module", "the Richese lot names no card, or a card that does not exist"};
    if (s.richese.gift_card != kNone8 && s.richese.gift_card >= data::kNumAllTreacheryCards)
      return Violation{"module", "the last Richese gift names a card that does not exist"};
  }
  if (s.uses(data::Module::ChoamRichese)) {
    for (int i = 0; i < data::kNumAllTreacheryCards; ++i)
      if (((cache_sets >> static_cast<int>(data::treachery_card(static_cast<TreacheryId>(i)).set)) & 1u) && seen[0][i] != 1)
        return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Treachery, static_cast<uint8_t>(i)))};
    int on_board = 0, revealed = 0;
    for (int i = 0; i < kNumNoFieldTokens; ++i) {
      const auto& t = s.richese.no_field[i];
      const std::string label = component_label(Component::NoFieldToken, static_cast<uint8_t>(i));
      switch (t.zone) {
        case TokenZone::Reserve:
        case TokenZone::Revealed:
          if (t.location != kNone8) return Violation{"no_field", label + " is off the board but names a location"};
          revealed += t.zone == TokenZone::Revealed;
          break;
        case TokenZone::Board:
          if (t.location >= data::kNumLocations) return Violation{"no_field", label + " is on the board at no location"};
          ++on_board;
          break;
        default: return Violation{"no_field", label + " is in an unknown zone"};
      }
    }
    if (!s.has(Faction::Richese) && (on_board || revealed))
      return Violation{"no_field", "a No-Field token is in play without the Richese"};
    if (on_board > 1) return Violation{"no_field", fmt::format("{} No-Field tokens are on the planet (at most one)", on_board)};
    if (revealed > 1) return Violation{"no_field", fmt::format("{} No-Field tokens are face up (only the last revealed)", revealed)};
  } else {
    if (!s.richese.cache.empty()) return Violation{"module", "the Richese cache holds cards without CHOAM & Richese"};
    for (const auto& t : s.richese.no_field)
      if (t.zone != TokenZone::Reserve || t.location != kNone8) return Violation{"module", "a No-Field token is in play without CHOAM & Richese"};
  }
  if (s.uses(data::Module::LeaderSkills)) {
    for (int i = 0; i < data::kNumLeaderSkills; ++i)
      if (seen[6][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::LeaderSkill, static_cast<uint8_t>(i)))};
    for (int fi = 0; fi < kNumFactions; ++fi)
      if (!s.f[fi].in_game && !s.skills.hand[fi].empty())
        return Violation{"skills", fmt::format("{} holds skill cards but is not in the game", faction_name(static_cast<Faction>(fi)))};
    for (int l = 0; l < data::kNumLeaders; ++l) {
      if (s.skills.assigned[l] > data::kNumLeaderSkills)
        return Violation{"skills", fmt::format("{} has an unknown skill card", data::leader(static_cast<LeaderId>(l)).name)};
      if (s.skills.assigned[l] && !s.has(data::leader(static_cast<LeaderId>(l)).faction))
        return Violation{"skills", fmt::format("{} holds a skill card but its faction is not in the game", data::leader(static_cast<LeaderId>(l)).name)};
      if (!s.skills.assigned[l] && s.skills.face_down[l])
        return Violation{"skills", fmt::format("{} has a face-down skill card flag without a card", data::leader(static_cast<LeaderId>(l)).name)};
    }
  } else {
    bool any = !s.skills.deck.empty() || !s.skills.discard.empty();
    for (const auto& h : s.skills.hand) any = any || !h.empty();
    for (int l = 0; l < data::kNumLeaders; ++l) any = any || s.skills.assigned[l] || s.skills.face_down[l];
    if (any) return Violation{"module", "leader skill cards are in play without the leader_skills module"};
  }
  if (s.uses(data::Module::StrongholdCards)) {
    for (int i = 0; i < data::kNumStrongholdCards; ++i) {
      const uint8_t h = s.stronghold_cards.holder[i];
      if (h != kNoFaction && (h >= kNumFactions || !s.f[h].in_game))
        return Violation{"stronghold_cards", fmt::format("{} is held by a faction not in the game", component_label(Component::StrongholdCard, static_cast<uint8_t>(i)))};
    }
  } else {
    for (uint8_t h : s.stronghold_cards.holder)
      if (h != kNoFaction) return Violation{"module", "a stronghold card is held without the stronghold_cards module"};
  }
  return std::nullopt;
}

}  // namespace

std::vector<CustodyEntry> enumerate_custody(const GameState& s) {
  std::vector<CustodyEntry> out;
  visit_custody(s, [&](Component k, uint8_t id, const auto& zone) { out.push_back({k, id, zone()}); });
  return out;
}

std::optional<Violation> check_invariants(const GameState& s) {
  // Custody: each component exactly once.
  std::array<std::array<uint8_t, 64>, kNumComponentKinds> seen{};
  std::optional<Violation> twice;
  visit_custody(s, [&](Component k, uint8_t id, const auto& zone) {
    auto& n = seen[static_cast<int>(k)][id];
    if (++n > 1 && !twice)
      twice = Violation{"custody", fmt::format("{} is in more than one place (again in {})", component_label(k, id), zone())};
  });
  if (twice) return twice;
  if (auto v = check_module_sections(s, seen)) return v;
  if (s.treachery_discard_hidden > s.treachery_discard.n)
    return Violation{"custody", fmt::format("{} hidden discards below the Nullentropy Box, but the pile holds {}", s.treachery_discard_hidden, s.treachery_discard.n)};
  // Every treachery card of the card sets the game's modules put in the deck.
  const uint8_t sets = data::card_sets_in(s.modules, data::CardPlace::TreacheryDeck);
  for (int i = 0; i < data::kNumAllTreacheryCards; ++i)
    if (((sets >> static_cast<int>(data::treachery_card(static_cast<TreacheryId>(i)).set)) & 1u) && seen[0][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Treachery, static_cast<uint8_t>(i)))};
  for (int i = 0; i < data::kNumSpiceCards; ++i)
    if (seen[1][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Spice, static_cast<uint8_t>(i)))};
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!s.leader_in_game(static_cast<LeaderId>(l))) continue;  // the basic game's Auditor has no traitor card
    if (seen[2][l] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Traitor, static_cast<uint8_t>(l)))};
  }
  if (s.advanced && s.has(Faction::Fremen) && s.phase != Phase::Setup)
    for (int v = 1; v <= 6; ++v)
      if (seen[4][v] != 1) return Violation{"custody", fmt::format("storm card {} is nowhere", v)};
  // Forces: every faction keeps its 20.
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto fa = static_cast<Faction>(fi);
    if (!s.has(fa)) continue;
    int total = s.forces_total(fa);
    if (fa == Faction::Richese) {  // the special force on the board is the No-Field token (core/state.h), not a force
      const auto& rf = s.of(fa);
      if (rf.reserves[1] || rf.tanks[1]) return Violation{"no_field", "the Richese have special forces off the board (only the No-Field token is one)"};
      for (int l = 0; l < data::kNumLocations; ++l) {
        const int marker = s.forces_at(fa, static_cast<LocationId>(l), 1);
        bool token_here = false;
        for (const auto& t : s.richese.no_field) token_here = token_here || (t.zone == TokenZone::Board && t.location == l);
        if (marker != (token_here ? 1 : 0))
          return Violation{"no_field", fmt::format("the Richese special force at {} does not match the No-Field token", data::location(static_cast<LocationId>(l)).name)};
        total -= marker;
      }
    }
    if (total != data::faction_setup(fa).forces_total)
      return Violation{"forces", fmt::format("{} has {} forces, not {}", faction_name(fa), total, data::faction_setup(fa).forces_total)};
  }
  // Spice: conserved.
  int64_t sum = s.bank;
  if (s.bank < 0) return Violation{"spice", "the bank is negative"};
  for (const auto& fs : s.f) sum += fs.spice + fs.bribes;
  for (auto v : s.spice_on_board) sum += v;
  if (sum != kSpiceTotal) return Violation{"spice", fmt::format("spice total is {}, not {}", sum, kSpiceTotal)};
  return std::nullopt;
}

std::optional<Violation> check_position(const GameSetup& setup) {
  if (!setup.start) return Violation{"position", "no position given"};
  if (auto why = check_start(*setup.start, setup.resume)) return Violation{"position", *why};
  if (auto v = check_invariants(*setup.start)) return v;
  const GameState first = create_game(setup, nullptr);
  if (auto v = check_invariants(first)) {
    v->detail = "once its phase opens: " + v->detail;
    return v;
  }
  // The game must wait for someone, and each seat it waits for must have
  // something legal to do (a state inside a phase is taken as given).
  const uint8_t w = waiting_for(first);
  if (!w && first.phase != Phase::GameOver)
    return Violation{"position", fmt::format("at step {} of the {} phase the game waits for no one", first.step,
                                             phase_name(first.phase))};
  for (Seat seat = 0; seat < first.num_seats; ++seat)
    if (((w >> seat) & 1u) && legal_actions(first, seat).empty())
      return Violation{"position", fmt::format("at step {} of the {} phase the game waits for {}, who has no legal action",
                                               first.step, phase_name(first.phase), faction_name(first.faction_at(seat)))};
  return std::nullopt;
}

}  // namespace mentat::inspect
