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

std::vector<CustodyEntry> enumerate_custody(const GameState& s) {
  std::vector<CustodyEntry> out;
  auto pile = [&](Component k, const auto& p, const std::string& zone) {
    for (int i = 0; i < p.n; ++i) out.push_back({k, p.ids[i], zone});
  };
  pile(Component::Treachery, s.treachery_deck, "treachery_deck");
  pile(Component::Treachery, s.treachery_discard, "treachery_discard");
  pile(Component::Treachery, s.bidding.row, "up_for_bid");
  pile(Component::Treachery, s.battle.wheels, "battle_wheels");
  pile(Component::Treachery, s.treachery_set_aside, "treachery_set_aside");  // 3.01.07 Family Atomics
  pile(Component::Treachery, s.karama_taken, "karama_taken");                // 1.14.04 Harkonnen give-back
  pile(Component::Spice, s.spice_deck, "spice_deck");
  pile(Component::Spice, s.spice_discard[0], "spice_discard_a");
  pile(Component::Spice, s.spice_discard[1], "spice_discard_b");
  pile(Component::Spice, s.spice_set_aside, "spice_set_aside");
  pile(Component::Traitor, s.traitor_deck, "traitor_deck");
  pile(Component::StormCard, s.storm_deck, "storm_deck");
  if (s.storm_card) out.push_back({Component::StormCard, s.storm_card, "storm_card"});
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto& fs = s.f[fi];
    if (!fs.in_game) continue;
    const std::string key(faction_key(static_cast<Faction>(fi)));
    pile(Component::Treachery, fs.hand, "hand:" + key);
    pile(Component::Traitor, fs.traitors, "traitors:" + key);
    pile(Component::Traitor, fs.traitor_offer, "traitor_offer:" + key);
    pile(Component::Traitor, fs.traitors_discarded, "traitors_discarded:" + key);
  }
  for (int l = 0; l < data::kNumLeaders; ++l) {
    if (!s.has(data::leader(static_cast<LeaderId>(l)).faction)) continue;
    const auto& ls = s.leaders[l];
    std::string zone;
    switch (ls.zone) {
      case LeaderZone::Pool: zone = "pool"; break;
      case LeaderZone::Tanks: zone = "tanks"; break;
      case LeaderZone::TanksFaceDown: zone = "tanks_face_down"; break;
      case LeaderZone::Battlefield: zone = "battlefield"; break;
    }
    if (ls.holder < kNumFactions) zone += ":" + std::string(faction_key(static_cast<Faction>(ls.holder)));
    out.push_back({Component::Leader, static_cast<uint8_t>(l), zone});
  }
  return out;
}

std::optional<Violation> check_invariants(const GameState& s) {
  // Custody: each component exactly once.
  std::array<std::array<uint8_t, 64>, 5> seen{};
  for (const auto& e : enumerate_custody(s)) {
    auto& n = seen[static_cast<int>(e.kind)][e.id];
    if (++n > 1)
      return Violation{"custody", fmt::format("{} is in more than one place (again in {})", component_label(e.kind, e.id), e.zone)};
  }
  for (int i = 0; i < data::kNumTreacheryCards; ++i)
    if (seen[0][i] != 1) return Violation{"custody", fmt::format("{} is nowhere", component_label(Component::Treachery, static_cast<uint8_t>(i)))};
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
