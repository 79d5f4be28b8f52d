// The bots' policies (bots/brain.h) for the Shipment and Movement phase:
// the board model (Board, BoardEdit) and its one-ply evaluation (hard and
// brutal; brutal looks one turn ahead at the strongholds it holds), medium's
// fixed values per destination, shipments (1.06.03; Guild rates by Karama,
// 3.01.11.03; the ally's share, 1.10.02.06; No-Field tokens), movements
// (1.06.05; Hajr, 3.01.09; the Ornithopter; Take Up Arms, 2.02.16), the Bene
// Gesserit's advisor (2.02.05) and flips (2.02.15, 2.02.17) and the Guild's
// timing (2.06.12). docs/BOTS.md's table gives each policy per profile.
#include <algorithm>
#include <cstring>
#include <iterator>
#include <span>
#include <vector>

#include "bots/brain.h"

namespace mentat::bots::detail {

namespace {

// Territories adjacent to t (static table).
const std::vector<TerritoryId>& adjacent(TerritoryId t) {
  static const auto table = [] {
    std::vector<std::vector<TerritoryId>> out(data::kNumTerritories);
    for (int a = 0; a < data::kNumTerritories; ++a)
      for (int b = 0; b < data::kNumTerritories; ++b)
        if (a != b && data::territories_adjacent(static_cast<TerritoryId>(a), static_cast<TerritoryId>(b)))
          out[a].push_back(static_cast<TerritoryId>(b));
    return out;
  }();
  return table[t];
}

// A candidate's board as an edit of the board before it: what a shipment or
// movement may change (the seat's own forces, reserves and spice) is saved
// and put back when the edit ends, instead of copying the whole board per
// candidate.
class BoardEdit {
 public:
  BoardEdit(Board& b, int me) : b_(b), me_(me), spice_(b.my_spice), reserves_(b.my_reserves) {
    std::memcpy(row_, b.forces[me], sizeof row_);
  }
  ~BoardEdit() {
    std::memcpy(b_.forces[me_], row_, sizeof row_);
    b_.my_spice = spice_;
    b_.my_reserves = reserves_;
  }
  BoardEdit(const BoardEdit&) = delete;
  BoardEdit& operator=(const BoardEdit&) = delete;

 private:
  Board& b_;
  int me_;
  int spice_, reserves_;
  uint8_t row_[data::kNumLocations][2];
};

}  // namespace

// ---- shipment and movement ----------------------------------------------------------

int Brain::ship_cost(const action::Ship& a, bool half) const {
  if (me() == Faction::Fremen && a.from == kNone8 && !a.to_reserves) return 0;
  const int n = a.no_field != kNone8 ? 1 : a.forces + a.special;  // a No-Field is priced as one force
  if (a.to_reserves) return (n + 1) / 2;
  int cost = n * (a.to < data::kNumLocations && is_stronghold_loc(a.to) ? 1 : 2);
  if (half) cost = (cost + 1) / 2;
  return cost;
}

// Does this seat ship at half price now (2.06.06 the Guild, 2.06.09 its ally,
// 3.01.11.03 a Karama)? The shipment decision says so for the Guild and its
// ally (topic half_price_shipment; not when a Karama cancelled it).
bool Brain::ship_half() const {
  bool half = me() == Faction::Guild || k_.is_ally(Faction::Guild);
  if (const DecisionInfo* d = decision(ActionKind::Ship)) half = d->topic == Topic::HalfPriceShipment;
  return half || half_price_now();
}

// Medium's rules: the value of having n more forces at `to`.
double Brain::dest_value(LocationId to, int n) const {
  const TerritoryId t = data::territory_of(to);
  // 2.01.07 Wormsign (the Atreides): stay out of the territory the next worm
  // devours; go where the next spice appears.
  if (t == wormsign_doomed()) return -3;
  int shown = 0;
  if (const LocationId sl = wormsign_spice(&shown); sl < data::kNumLocations && data::territory_of(sl) == t && k_.enemies_in(t) == 0)
    return 2.0 + 0.2 * std::min(shown, 2 * n);
  const int enemies = k_.enemies_in(t);
  const int mine = k_.fighters_in_territory(me(), t);
  if (is_stronghold(t)) {
    if (mine > 0) return (enemies == 0 ? 0.1 : 0.5) * std::min(n, 4);
    if (enemies == 0) return 8 + std::min(n, 4) + stronghold_card_worth(t);  // an empty stronghold (and its card)
    if (enemies >= 2) return -5;
    return n > k_.enemy_fighters_in(t) + 1 ? 4 + stronghold_card_worth(t) : -3;
  }
  const int s = k_.spice_on_board[to];
  if (s > 0) return std::min(s, 2 * (n + (enemies ? 0 : mine))) * 0.6 - (enemies ? 4.0 : 0.0);
  if (to == data::polar_sink()) return 0.0;
  return -0.5;
}

// Medium's rules: what a movement gives up where it leaves.
double Brain::origin_loss(const action::Move& a) const {
  double loss = 0;
  for (const auto& p : a.from) {
    if (p.location >= data::kNumLocations) continue;
    const TerritoryId t = data::territory_of(p.location);
    const int moved = p.forces + p.special;
    if (is_stronghold(t) && moved >= k_.fighters_in_territory(me(), t)) loss += 9;  // abandons a stronghold
    const int s = k_.spice_on_board[p.location];
    if (s > 0) loss += std::min(s, 2 * moved) * 0.6;
  }
  return loss;
}

Board Brain::board() const {
  Board b;
  std::copy(&k_.forces[0][0][0], &k_.forces[0][0][0] + sizeof(b.forces), &b.forces[0][0][0]);
  std::copy(std::begin(k_.spice_on_board), std::end(k_.spice_on_board), std::begin(b.spice));
  b.my_spice = spice();
  b.my_reserves = k_.mine().reserves[0] + k_.mine().reserves[1];
  return b;
}

// One-ply evaluation of a board for this seat (hard and brutal): strongholds
// held (brutal: discounted by the enemies that could strike them next turn)
// or contested (the expected battle), an enemy close to three strongholds,
// spice within reach, forces on the planet and in reserve, spice.
double Brain::evaluate(const Board& b) const {
  const int me_i = static_cast<int>(me());
  const uint8_t ally = k_.ally();
  auto fighters = [&](int f, int l) {
    int n = b.forces[f][l][0];
    if (!(f == static_cast<int>(Faction::BeneGesserit) && k_.advanced)) n += b.forces[f][l][1];
    return n;
  };
  // Each faction's fighters per territory, counted once per board (the terms
  // below ask for the same territories many times); a row the board has as
  // the Knowledge has it is counted once per decision (known_strength_).
  int16_t strength[kNumFactions][data::kNumTerritories];
  bool known_row[kNumFactions];
  for (int f = 0; f < kNumFactions; ++f) {
    known_row[f] = k_.fac[f].present && std::memcmp(b.forces[f], k_.forces[f], sizeof b.forces[f]) == 0;
    if (!known_row[f]) std::fill(std::begin(strength[f]), std::end(strength[f]), int16_t{-1});
  }
  auto strength_t = [&](int f, TerritoryId t) -> int {
    int16_t& n = known_row[f] ? known_strength_[f][t] : strength[f][t];
    if (n < 0) {
      const auto& ter = data::territory(t);
      const auto* at = b.forces[f] + ter.first_location;
      int sum = 0;
      if (f == static_cast<int>(Faction::BeneGesserit) && k_.advanced) {  // advisors do not fight
        for (int i = 0; i < ter.num_locations; ++i) sum += at[i][0];
      } else {
        for (int i = 0; i < ter.num_locations; ++i) sum += at[i][0] + at[i][1];
      }
      n = static_cast<int16_t>(sum);
    }
    return n;
  };
  // The factions at the table, and the enemies among them, in id order.
  int present_f[kNumFactions], enemies_f[kNumFactions];
  int num_present = 0, num_enemies = 0;
  for (int f = 0; f < kNumFactions; ++f) {
    if (!k_.fac[f].present) continue;
    present_f[num_present++] = f;
    if (f != me_i && f != ally) enemies_f[num_enemies++] = f;
  }
  const std::span<const int> at_table(present_f, static_cast<size_t>(num_present));
  const std::span<const int> enemy_factions(enemies_f, static_cast<size_t>(num_enemies));
  double v = 0;
  int held = 0;
  double enemy_held[kNumFactions] = {};  // expected strongholds of each enemy at the end of the turn
  for (auto t : data::strongholds()) {
    {
      int total = 0, present = 0;
      for (const int f : at_table)
        if (strength_t(f, t) > 0) {
          total += strength_t(f, t);
          ++present;
        }
      for (const int f : enemy_factions) {
        const int e = strength_t(f, t);
        if (e > 0) enemy_held[f] += present == 1 ? 1.0 : static_cast<double>(e) / (total + 1);
      }
    }
    const int mine = strength_t(me_i, t) + (ally != kNoFaction ? strength_t(ally, t) : 0);
    int enemy = 0, enemies = 0;
    for (const int f : enemy_factions) {
      const int e = strength_t(f, t);
      if (e > 0) {
        enemy += e;
        ++enemies;
      }
    }
    if (mine > 0 && enemies == 0) {
      ++held;
      if (brutal()) {
        // Lookahead: the strongest enemy that could strike next turn, from
        // neighbouring territories or (half of) its reserves, against the
        // garrison (a stronger discount made brutal too passive).
        double threat = 0;
        for (const int f : enemy_factions) {
          double a = 0.5 * (k_.fac[f].reserves[0] + k_.fac[f].reserves[1]);
          for (auto u : adjacent(t)) a += strength_t(f, u);
          threat = std::max(threat, a);
        }
        v += 12 + stronghold_card_worth(t) + 0.4 * std::min(mine, 6) - 4.0 * threat / (threat + 2.0 * mine + 1.0);
      } else {
        v += 12 + stronghold_card_worth(t) + 0.4 * std::min(mine, 6);
      }
    } else if (mine > 0) {
      // A battle is coming: the winner keeps the stronghold, the loser loses
      // every force there. Leaders add about 3 to each side.
      const double a = mine + 3.0, e = enemy + 3.0;
      const double p = a * a / (a * a + e * e);
      v += (12 + stronghold_card_worth(t)) * p * 0.8 - 1.5 - (1 - p) * 0.8 * mine;
    } else if (enemies == 1) {
      v -= 2;  // an enemy holds it alone
    }
  }
  if (held >= (ally != kNoFaction ? 4 : 3)) v += 25;
  // An enemy about to hold three strongholds must be stopped.
  for (int f = 0; f < kNumFactions; ++f) {
    const double need = k_.fac[f].ally != kNoFaction ? 4.0 : 3.0;
    if (enemy_held[f] > need - 1.5) v -= 20 * (enemy_held[f] - (need - 1.5));
  }
  // 2.01.07 Wormsign (the Atreides): forces left in the territory the next
  // worm devours are lost at the next spice blow; forces where the next spice
  // appears are placed to collect it.
  const TerritoryId doomed = wormsign_doomed();
  int shown = 0;
  const LocationId shown_at = wormsign_spice(&shown);
  const TerritoryId shown_t = shown_at < data::kNumLocations ? data::territory_of(shown_at) : kNone8;
  for (int l = 0; l < data::kNumLocations; ++l) {
    const int mine = fighters(me_i, l);
    if (mine > 0) v += 0.45 * mine;
    if (mine > 0 && doomed != kNone8 && data::territory_of(static_cast<LocationId>(l)) == doomed) v -= 1.2 * mine;
    if (mine > 0 && shown_t != kNone8 && data::territory_of(static_cast<LocationId>(l)) == shown_t) {
      v += 0.35 * std::min(shown, 2 * mine);
    }
    if (!b.spice[l] || !mine) continue;
    const TerritoryId t = data::territory_of(static_cast<LocationId>(l));
    int enemy = 0;
    for (const int f : enemy_factions) enemy += strength_t(f, t);
    if (enemy == 0) {
      v += std::min<int>(b.spice[l], 2 * mine) * 0.75;
    } else {
      const double a = mine + 3.0, e = enemy + 3.0, p = a * a / (a * a + e * e);
      v += std::min<int>(b.spice[l], 2 * mine) * 0.75 * p - (1 - p) * 0.8 * mine;
    }
  }
  v += 0.3 * b.my_reserves;
  v += 1.0 * b.my_spice;
  return v;
}

size_t Brain::ship() {
  if (const size_t p = karama_prevent_shipping(); p != npos) return p;
  const int sp = spice();
  const int keep = reserve();
  const bool half_now = ship_half();
  const int mi = static_cast<int>(me());
  Board before{};
  double base = 0;
  if (hard()) {
    before = board();
    base = evaluate(before);
  }
  auto score = [&](const action::Ship& a, bool half) -> double {
    // 1.10.02.06: the ally pays a.ally_pays of it (the engine's legal shipment
    // sets the shortfall); that spice is the alliance's, worth a little less.
    const int cost = std::max(0, ship_cost(a, half) - a.ally_pays);
    if (cost > 0 && sp - cost < keep) return kNeg;
    if (a.to_reserves || a.to >= data::kNumLocations) return kNeg;  // the Guild's shipment back: never
    if (hard()) {
      Board& b = before;
      const BoardEdit edit(b, mi);
      if (a.no_field != kNone8) {  // own: a marker standing for its forces (reserves kept); ally's: real forces
        const int n = token_forces(a);
        if (me() != Faction::Richese) b.my_reserves -= n;
        b.forces[mi][a.to][0] = static_cast<uint8_t>(b.forces[mi][a.to][0] + n);
        b.my_spice -= cost;
        return evaluate(b) - base - 0.5 * a.ally_pays - (me() == Faction::Richese && a.no_field == 0 ? 1.0 : 0.0);
      }
      if (a.from != kNone8) {
        b.forces[mi][a.from][0] = static_cast<uint8_t>(b.forces[mi][a.from][0] - std::min<int>(a.forces, b.forces[mi][a.from][0]));
        b.forces[mi][a.from][1] = static_cast<uint8_t>(b.forces[mi][a.from][1] - std::min<int>(a.special, b.forces[mi][a.from][1]));
      } else {
        b.my_reserves -= a.forces + a.special;
      }
      b.forces[mi][a.to][0] = static_cast<uint8_t>(b.forces[mi][a.to][0] + a.forces);
      b.forces[mi][a.to][1] = static_cast<uint8_t>(b.forces[mi][a.to][1] + a.special);
      b.my_spice -= cost;
      return evaluate(b) - base - 0.5 * a.ally_pays;
    }
    const int n = a.no_field != kNone8 ? token_forces(a) : a.forces + a.special;
    double v = dest_value(a.to, n) - 0.8 * cost - 0.4 * a.ally_pays;
    if (a.from != kNone8) {
      v -= origin_loss(action::Move{.from = {Placement{a.from, a.forces, a.special}}});
    }
    return v;
  };
  // 3.01.11.03 a Karama buys this turn's shipment at Guild rates when the
  // best shipment at half price beats the best at full price by more than the
  // card is worth kept. Medium too (with its simpler scores).
  if (!half_now) {
    const size_t kp = best<action::PlayCard>([&](const action::PlayCard& a) {
      return karama_like(a.card) && (a.value & 128) ? -karama_keep(a.card) : kNeg;
    });
    if (kp != npos) {
      // The legal shipments are those affordable at full price; at half price
      // twice as many forces may go: score that larger shipment too.
      const int budget = std::max(0, sp - keep);
      const int res0 = k_.mine().reserves[0], res1 = k_.mine().reserves[1];
      double full = 0.5, half = 0.5;
      for (const auto& x : legal_)
        if (const auto* ship = x.get_if<action::Ship>()) {
          const auto& a = *ship;
          full = std::max(full, score(a, false));
          half = std::max(half, score(a, true));
          if (a.from != kNone8 || a.to_reserves || a.to >= data::kNumLocations || a.no_field != kNone8) continue;
          const int per = is_stronghold_loc(a.to) ? 1 : 2;
          const int n = std::min(res0 + res1, (2 * budget) / per);
          if (n <= a.forces + a.special) continue;
          action::Ship more = a;
          more.forces = static_cast<uint8_t>(std::min(res0, n));
          more.special = static_cast<uint8_t>(std::min(res1, n - more.forces));
          half = std::max(half, score(more, true));
        }
      if (half - full > karama_keep(legal_[kp].as<action::PlayCard>().card)) return kp;
    }
  }
  return or_fallback(best<action::Ship>([&](const action::Ship& a) { return score(a, half_now); }, 0.5));
}

size_t Brain::move() {
  const int mi = static_cast<int>(me());
  Board before{};
  double base = 0;
  if (hard()) {
    before = board();
    base = evaluate(before);
  }
  auto score = [&](const action::Move& a) -> double {
    if (hard()) {
      Board& b = before;
      const BoardEdit edit(b, mi);
      for (const auto& p : a.from) {
        b.forces[mi][p.location][0] = static_cast<uint8_t>(b.forces[mi][p.location][0] - std::min<int>(p.forces, b.forces[mi][p.location][0]));
        b.forces[mi][p.location][1] = static_cast<uint8_t>(b.forces[mi][p.location][1] - std::min<int>(p.special, b.forces[mi][p.location][1]));
        // 2.02.16 Take Up Arms (flip): the moving advisors arrive as fighters.
        b.forces[mi][a.to][0] = static_cast<uint8_t>(b.forces[mi][a.to][0] + p.forces + (a.flip ? p.special : 0));
        b.forces[mi][a.to][1] = static_cast<uint8_t>(b.forces[mi][a.to][1] + (a.flip ? 0 : p.special));
      }
      if (a.flip) {
        // Take Up Arms only for a fight it expects to win (the advisors were
        // on the planet already: their worth as forces is not a gain).
        int flipped = 0;
        for (const auto& p : a.from) flipped += p.special;
        const TerritoryId t = data::territory_of(a.to);
        const double mine = k_.fighters_in_territory(me(), t) + flipped + 3.0, enemy = k_.enemy_fighters_in(t) + 3.0;
        if (mine * mine / (mine * mine + enemy * enemy) < 0.5) return kNeg;
        return evaluate(b) - base - 0.45 * flipped;
      }
      return evaluate(b) - base;
    }
    if (a.flip) {
      // Medium takes up arms only into a stronghold one enemy holds, with
      // more than its fighters there plus one.
      const TerritoryId t = data::territory_of(a.to);
      int n = 0;
      for (const auto& p : a.from) n += p.forces + p.special;
      if (!is_stronghold(t) || k_.enemies_in(t) != 1 || n <= k_.enemy_fighters_in(t) + 1) return kNeg;
      return dest_value(a.to, n) + 1.0 - origin_loss(a);
    }
    int n = 0;
    bool same = false;
    for (const auto& p : a.from) {
      n += p.forces + p.special;
      same |= data::territory_of(p.location) == data::territory_of(a.to);
    }
    if (same) return kNeg;
    return dest_value(a.to, n) - origin_loss(a);
  };
  // 3.01.09 Hajr: play it before moving when two groups in different
  // territories each have a good move (the second move is then taken too).
  const size_t hajr = find_kind<action::PlayCard>(
      [](const action::PlayCard& a) { return a.card < data::kNumTreacheryCards && kind(a.card) == TreacheryKind::Hajr; });
  if (hajr != npos) {
    const double need = hard() ? 1.5 : 3.0;
    size_t first = npos;
    double top = need;
    for (size_t i = 0; i < legal_.size(); ++i)
      if (const auto* m = legal_[i].get_if<action::Move>()) {
        const double v = score(*m);
        if (v > top) {
          top = v;
          first = i;
        }
      }
    if (first != npos) {
      auto origins = [](const action::Move& a) {
        uint64_t m = 0;
        for (const auto& p : a.from)
          if (p.location < data::kNumLocations) m |= 1ULL << (data::territory_of(p.location) % 64);
        return m;
      };
      const auto& m1 = legal_[first].as<action::Move>();
      const uint64_t o1 = origins(m1);
      const TerritoryId d1 = data::territory_of(m1.to);
      for (const auto& x : legal_)
        if (const auto* a = x.get_if<action::Move>(); a && !(origins(*a) & o1) && data::territory_of(a->to) != d1 && score(*a) > need)
          return hajr;
    }
  }
  // The Ornithopter card (Move.ornithopter): mode 1 reaches three territories,
  // worth its cost only beyond the normal range (the engine offers it only
  // there); mode 2 is worth the best move of another territory's group after
  // it (taken next). The card's cost: its value in hand, more for medium.
  const double orn_cost = hard() ? 2.0 : 3.0;
  auto with_card = [&](const action::Move& a) -> double {
    const double v = score(a);
    if (a.ornithopter == 0 || v == kNeg) return v;
    if (a.ornithopter == 1) return v - orn_cost;
    uint64_t o1 = 0;
    for (const auto& p : a.from) o1 |= 1ULL << (data::territory_of(p.location) % 64);
    double second = kNeg;
    for (const auto& x : legal_)
      if (const auto* m = x.get_if<action::Move>(); m && m->ornithopter == 0) {
        uint64_t o2 = 0;
        for (const auto& p : m->from) o2 |= 1ULL << (data::territory_of(p.location) % 64);
        if (!(o1 & o2)) second = std::max(second, score(*m));
      }
    return second <= orn_cost ? kNeg : v + second - orn_cost;
  };
  return or_fallback(best<action::Move>(with_card, 0.5));
}

// ---- the Bene Gesserit's advisors and the Guild's timing --------------------------------

size_t Brain::advisor() {
  if (hard()) {
    const size_t i = find_kind<action::SendSpiritualAdvisor>(
        [](const action::SendSpiritualAdvisor& a) { return a.to != data::polar_sink() && is_stronghold_loc(a.to); });
    if (i != npos) return i;
  }
  return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::SendSpiritualAdvisor; }));
}

size_t Brain::flip() {
  if (!hard()) return fallback();
  const DecisionInfo* d = decision(ActionKind::Flip);
  const bool intrusion = d && d->topic == Topic::Intrusion;
  if (intrusion) {
    // Flip to advisors when the intruders are stronger than our fighters there.
    const size_t i = find([](const Action& a) { return a.kind() == ActionKind::Flip; });
    if (i == npos) return fallback();
    const TerritoryId t = data::territory_of(legal_[i].as<action::Flip>().location);
    return k_.enemy_fighters_in(t) > k_.fighters_in_territory(me(), t) ? i : fallback();
  }
  // Wartime: flip where it gives control of a stronghold.
  const size_t i = best<action::Flip>(
      [&](const action::Flip& a) {
        const TerritoryId t = data::territory_of(a.location);
        return is_stronghold(t) && k_.enemies_in(t) == 0 ? 1.0 : -1.0;
      },
      0.0);
  return or_fallback(i);
}

// 2.06.12: the Guild waits and moves last (it sees every other shipment first).
size_t Brain::guild_timing() {
  return or_fallback(find_kind<action::GuildTiming>([](const action::GuildTiming& a) { return !a.now; }));
}

}  // namespace mentat::bots::detail
