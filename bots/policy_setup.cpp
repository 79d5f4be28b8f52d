// The bots' policies (bots/brain.h) for the decisions before and around the
// turn's first phases: setup (the traitor kept, the leader skills assigned,
// the Bene Gesserit's prediction, the Fremen's and Bene Gesserit's
// placement), the Storm phase (the dial, Weather Control, Family Atomics),
// the Spice Blow and Nexus sandworms (the Fremen's ride and extra worm),
// Wormsign (2.01.07: what the Atreides know of the next spice card) and
// CHOAM Charity. docs/BOTS.md's table gives each policy per profile.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- setup ----------------------------------------------------------------------------

size_t Brain::select_traitor() {
  return or_fallback(best<action::SelectTraitor>([&](const action::SelectTraitor& a) {
    if (a.leader >= data::kNumLeaders) return -1.0;
    const auto& L = data::leader(a.leader);
    if (L.faction == me()) return -10.0;  // one's own leader never betrays oneself
    double v = L.strength;
    if (hard() && !k_.has(L.faction)) v -= 20;
    return v;
  }));
}

// Leader Skills: the skill worth most to this seat under its strongest leader
// (the leader it fights with most and loses least often). Skills whose bands
// are not implemented (docs/cards/leader-skills.md) are worth little.
size_t Brain::assign_skill() {
  static constexpr double kWorth[data::kNumLeaderSkills] = {
      1.5,  // Bureaucrat (battle band)
      1.5,  // Diplomat
      2.5, 3.0, 3.0,  // Killer Medic, Master of Assassins, Mentat
      2.5,  // Planetologist
      2.5,  // Prana Bindu Adept
      1.5,  // Rihani Decipherer (no strength bonus: a look, a swap)
      2.0, 2.0, 2.0, 2.0, 3.0, 2.5,  // Sandmaster, Smuggler, Spice Banker, Suk Graduate, Swordmaster, Warmaster
  };
  return or_fallback(best<action::AssignSkill>([&](const action::AssignSkill& a) {
    if (a.skill >= data::kNumLeaderSkills || a.leader >= data::kNumLeaders) return -100.0;
    double v = 10 * kWorth[a.skill] + data::leader(a.leader).strength;
    if (me() == Faction::Fremen && a.skill == static_cast<int>(data::LeaderSkill::Smuggler)) v -= 15;  // the Fremen never ship from off-planet
    return v;
  }));
}

size_t Brain::predict() {
  const int lo = std::min(k_.max_turns, 3);
  return or_fallback(best<action::Predict>([&](const action::Predict& a) {
    if (a.turn < lo) return -1.0;
    return static_cast<double>(rng_.below(1000));
  }));
}

size_t Brain::place_forces() {
  if (me() == Faction::Fremen) {
    // Most forces in Sietch Tabr (a stronghold); hard keeps a second group nearby.
    return or_fallback(best<action::PlaceForces>([&](const action::PlaceForces& a) {
      double v = 0;
      for (int i = 0; i < a.placements.size(); ++i) {
        const auto& p = a.placements[i];
        if (p.location == data::sietch_tabr()) v += p.forces;
      }
      if (hard() && a.placements.size() == 2) v += 6;
      return v;
    }));
  }
  // Bene Gesserit: Polar Sink (medium), a stronghold (hard: flippable later).
  return or_fallback(best<action::PlaceForces>([&](const action::PlaceForces& a) {
    if (a.placements.size() == 0) return -1.0;
    const LocationId l = a.placements[0].location;
    if (hard()) return is_stronghold_loc(l) ? 5.0 + rng_.below(100) / 100.0 : 0.0;
    return l == data::polar_sink() ? 1.0 : 0.0;
  }));
}

// ---- storm -------------------------------------------------------------------------

// Losses the storm inflicts when it moves `moved` sectors: others' forces
// killed count for, one's own against (brutal, hard).
double Brain::storm_score(int moved) const {
  double v = 0;
  for (int step = 1; step <= moved && step <= data::kNumSectors; ++step) {
    const int sector = (k_.storm_sector + step) % data::kNumSectors;
    for (int l = 0; l < data::kNumLocations; ++l) {
      const auto& loc = data::location(static_cast<LocationId>(l));
      if (loc.sector != sector || data::territory(loc.territory).storm_protected) continue;
      for (int f = 0; f < kNumFactions; ++f) {
        if (!k_.fac[f].present) continue;
        double n = k_.forces[f][l][0] + k_.forces[f][l][1];
        if (static_cast<Faction>(f) == Faction::Fremen) n *= 0.5;
        if (static_cast<Faction>(f) == me() || k_.is_ally(static_cast<Faction>(f))) v -= 1.5 * n;
        else v += n;
      }
      if (k_.fighters(me(), static_cast<LocationId>(l)) > 0) v -= 0.3 * k_.spice_on_board[l];
    }
  }
  return v;
}

size_t Brain::dial_storm() {
  if (!hard()) return random_of(ActionKind::DialStorm);
  const DecisionInfo* d = decision(ActionKind::DialStorm);
  const int lo = d ? d->min : 0, hi = d ? d->max : 3;
  return or_fallback(best<action::DialStorm>([&](const action::DialStorm& a) {
    // The other dial is unknown: average over its range.
    double v = 0;
    int n = 0;
    for (int o = lo; o <= hi; ++o, ++n) v += storm_score(a.value + o);
    return n ? v / n : 0.0;
  }));
}

// ---- storm cards (3.01.23 Weather Control, 3.01.07 Family Atomics) -----------------

size_t Brain::storm_card() {
  const DecisionInfo* d = decision(ActionKind::DialStorm);
  const int lo = d ? d->min : 1, hi = d ? d->max : 3;
  // What the dials will do: this seat's best dial against the average other dial.
  double base = 0;
  {
    double top = kNeg;
    for (int mine = lo; mine <= hi; ++mine) {
      double v = 0;
      int n = 0;
      for (int o = lo; o <= hi; ++o, ++n) v += storm_score(mine + o);
      top = std::max(top, n ? v / n : 0.0);
    }
    base = d ? top : 0.0;
  }
  const double wc_keep = hard() ? 3.0 : 5.0;
  const size_t wc = best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::WeatherControl) return kNeg;
        return storm_score(a.value) - base;
      },
      wc_keep);
  if (wc != npos) return wc;
  // Family Atomics: enemy forces on the Shield Wall against one's own.
  const double fa_keep = hard() ? 4.0 : 6.0;
  const size_t fa = best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::FamilyAtomics) return kNeg;
        const auto& wall = data::territory(data::shield_wall());
        double v = 0;
        for (int i = 0; i < wall.num_locations; ++i) {
          const int l = wall.first_location + i;
          for (int f = 0; f < kNumFactions; ++f) {
            if (!k_.fac[f].present) continue;
            const int n = k_.forces[f][l][0] + k_.forces[f][l][1];
            const auto fa = static_cast<Faction>(f);
            v += (fa == me() || k_.is_ally(fa)) ? -1.5 * n : n;
          }
        }
        return v;
      },
      fa_keep);
  return fa;
}

// ---- sandworms (the Fremen) and CHOAM Charity ------------------------------------

size_t Brain::claim_charity() { return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::ClaimCharity; })); }

size_t Brain::worm_ride() {
  const size_t i = best<action::WormRide>(
      [&](const action::WormRide& a) {
        const TerritoryId t = data::territory_of(a.to);
        if (is_stronghold(t)) {
          if (k_.occupies(me(), t)) return 1.0;
          return k_.enemies_in(t) == 0 ? 12.0 : (hard() ? 3.0 - k_.enemy_fighters_in(t) : 2.0);
        }
        return k_.spice_on_board[a.to] * 0.5 - (k_.enemies_in(t) ? 3.0 : 0.0);
      },
      2.0);
  return or_fallback(i);
}

// 2.04.15 the Fremen place an additional sandworm: where it devours the most
// enemy forces (none of theirs or their ally's); Pass (the worm appears where
// the spice deck puts it) when nowhere beats that.
size_t Brain::place_worm() {
  auto score_t = [&](TerritoryId t) {
    double v = 0;
    for (int f = 0; f < kNumFactions; ++f) {
      const auto fa = static_cast<Faction>(f);
      if (!k_.fac[f].present) continue;
      const int n = k_.forces_in_territory(fa, t);
      if (fa == me()) v -= 0.3 * n;  // Fremen forces ride it or survive; a little cost
      else if (k_.is_ally(fa)) v -= 1.5 * n;
      else v += n;
    }
    const auto& ter = data::territory(t);
    for (int i = 0; i < ter.num_locations; ++i) v += 0.1 * k_.spice_on_board[ter.first_location + i];
    return v;
  };
  // The default place, the Pass decision's (worm_appears).
  double base = 0;
  for (const auto& d : k_.decisions)
    if (d.topic == Topic::WormAppears && d.place >= 0 && d.place < data::kNumTerritories) base = score_t(static_cast<TerritoryId>(d.place));
  if (!hard() && p_ != Profile::Medium) return fallback();
  return or_fallback(best<action::WormRide>([&](const action::WormRide& a) { return score_t(data::territory_of(a.to)); }, base + 0.5));
}

// ---- Wormsign (2.01.07) -------------------------------------------------------------

TerritoryId Brain::wormsign_doomed() const {
  if (k_.wormsign >= data::kNumSpiceCards || !data::spice_card(k_.wormsign).shai_hulud) return kNone8;
  // The next spice blow turns this card up first, on pile A: the worm
  // devours the territory of the topmost territory card there (1.02.05).
  for (auto it = k_.spice_discard_a.rbegin(); it != k_.spice_discard_a.rend(); ++it) {
    const auto& c = data::spice_card(*it);
    if (!c.shai_hulud) return data::territory_of(c.location);
  }
  return kNone8;
}

LocationId Brain::wormsign_spice(int* amount) const {
  if (k_.wormsign >= data::kNumSpiceCards || data::spice_card(k_.wormsign).shai_hulud) return kNone8;
  const auto& c = data::spice_card(k_.wormsign);
  if (amount) *amount = c.amount;
  return c.location;
}

}  // namespace mentat::bots::detail
