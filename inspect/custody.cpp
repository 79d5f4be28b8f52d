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
  pile(Component::Treachery, s.karama_taken, named("karama_taken"));                // 1.14.04 Harkonnen give-back
  pile(Component::Spice, s.spice_deck, named("spice_deck"));
  pile(Component::Spice, s.spice_discard[0], named("spice_discard_a"));
  pile(Component::Spice, s.spice_discard[1], named("spice_discard_b"));
  pile(Component::Spice, s.spice_set_aside, named("spice_set_aside"));
  pile(Component::Traitor, s.traitor_deck, named("traitor_deck"));
  pile(Component::StormCard, s.storm_deck, named("storm_deck"));
  if (s.storm_card) fn(Component::StormCard, s.storm_card, named("storm_card"));
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
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!s.has(data::leader(static_cast<LeaderId>(l)).faction)) continue;
    const auto& ls = s.leaders[l];
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

std::vector<CustodyEntry> enumerate_custody(const GameState& s) {
  std::vector<CustodyEntry> out;
  visit_custody(s, [&](Component k, uint8_t id, const auto& zone) { out.push_back({k, id, zone()}); });
  return out;
}

std::optional<Violation> check_invariants(const GameState& s) {
  // Custody: each component exactly once.
  std::array<std::array<uint8_t, 64>, 5> seen{};
  std::optional<Violation> twice;
  visit_custody(s, [&](Component k, uint8_t id, const auto& zone) {
    auto& n = seen[static_cast<int>(k)][id];
    if (++n > 1 && !twice)
      twice = Violation{"custody", fmt::format("{} is in more than one place (again in {})", component_label(k, id), zone())};
  });
  if (twice) return twice;
  // Every treachery card of the card sets the game's modules put in the deck.
  const uint8_t sets = data::card_sets_in(s.modules, data::CardPlace::TreacheryDeck);
  for (int i = 0; i < data::kNumAllTreacheryCards; ++i)
    if (((sets >> static_cast<int>(data::treachery_card(static_cast<TreacheryId>(i)).set)) & 1u) && seen[0][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Treachery, static_cast<uint8_t>(i)))};
  for (int i = 0; i < data::kNumSpiceCards; ++i)
    if (seen[1][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Spice, static_cast<uint8_t>(i)))};
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!s.has(data::leader(static_cast<LeaderId>(l)).faction)) continue;
    if (seen[2][l] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Traitor, static_cast<uint8_t>(l)))};
  }
  if (s.advanced && s.has(Faction::Fremen) && s.phase != Phase::Setup)
    for (int v = 1; v <= 6; ++v)
      if (seen[4][v] != 1) return Violation{"custody", fmt::format("storm card {} is nowhere", v)};
  // Forces: every faction keeps its 20.
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto fa = static_cast<Faction>(fi);
    if (!s.has(fa)) continue;
    const int total = s.forces_total(fa);
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

}  // namespace mentat::inspect
