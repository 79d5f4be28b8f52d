// 1.08 Spice Collection: forces in a territory holding spice collect 2 spice
// per force (3 when the faction occupies Arrakeen or Carthag), in storm
// order, until the spice there runs out (1.08.03: the rest stays).
// Advanced increased spice flow (1.13.01): the occupant of Arrakeen and of
// Carthag collects 2 more, the occupant of Tuek's Sietch 1 more.
// Automatic: nobody decides anything here.
#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

void enter(Ctx& c) {
  auto& s = c.s;
  raise(s, PhaseBegins{Phase::SpiceCollection});  // the owners' phase start (core/rules/owners.h)
  const auto order = order_from_first(s);
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto loc = static_cast<LocationId>(l);
    if (s.spice_on_board[loc] == 0) continue;
    const TerritoryId t = data::territory_of(loc);
    for (Seat seat : order) {
      const Faction fa = s.faction_at(seat);
      if (!occupies(s, fa, t)) continue;
      int forces = 0;
      const auto& ter = data::territory(t);
      for (int i = 0; i < ter.num_locations; ++i) {
        const auto piece = static_cast<LocationId>(ter.first_location + i);
        if (s.in_storm(piece)) continue;  // forces under the storm cannot harvest
        forces += s.forces_at(fa, piece, 0);
        if (specials_fight(s, fa)) forces += s.forces_at(fa, piece, 1);  // 2.02.12
      }
      const bool thopters = occupies(s, fa, data::territory_of(data::arrakeen())) ||
                            occupies(s, fa, data::territory_of(data::carthag()));
      const int want = forces * (thopters ? 3 : 2);
      const int take = std::min<int>(want, s.spice_on_board[loc]);
      if (take > 0) transfer_spice(s, board(loc), shield(fa), take);
    }
  }
  if (s.advanced) {
    struct Flow { LocationId loc; int amount; };
    const Flow flows[] = {{data::arrakeen(), 2}, {data::carthag(), 2}, {data::tueks_sietch(), 1}};
    for (const auto& fl : flows) {
      for (Seat seat : order) {
        const Faction fa = s.faction_at(seat);
        if (occupies(s, fa, data::territory_of(fl.loc)) && other_factions_in(s, fa, data::territory_of(fl.loc)) == 0) {
          transfer_spice(s, bank(), shield(fa), fl.amount);
          break;
        }
      }
    }
  }
  enter_phase(c, Phase::MentatPause);
}

std::optional<Rejection> validate(const GameState&, Seat, const Action&) {
  return reject(RejectCode::WrongPhase, "spice collection is automatic");
}
void apply(Ctx&, Seat, const Action&) {}
void decisions(const GameState&, Seat, std::vector<Decision>&) {}
void legal(const GameState&, Seat, std::vector<Action>&) {}

}  // namespace

const PhaseRules& collection_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
