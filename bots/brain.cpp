// The Brain's shared measures (bots/brain.h), which policies of every phase
// use: the spice kept back for shipping and revival (reserve), what a card
// is worth in hand (card_value, unknown_pool, unknown_card_value), and a
// faction's public strength (held_alone, power, threat). Each reads only the
// seat's Knowledge and the profile; none changes anything.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- public strength: strongholds held alone, power, threats -----------------------

int Brain::held_alone(Faction f) const {
  int n = 0;
  for (auto t : data::strongholds()) {
    if (!k_.occupies(f, t)) continue;
    bool alone = true;
    for (int o = 0; o < kNumFactions && alone; ++o)
      if (k_.fac[o].present && o != static_cast<int>(f) && k_.occupies(static_cast<Faction>(o), t)) alone = false;
    n += alone ? 1 : 0;
  }
  return n;
}

// A rough public measure of a faction's strength: forces on the planet and in
// reserve, strongholds held alone, cards in hand.
double Brain::power(Faction f) const {
  const auto& fi = k_.fac[static_cast<int>(f)];
  return k_.forces_on_board(f) + 0.5 * (fi.reserves[0] + fi.reserves[1]) + 5.0 * held_alone(f) + 1.0 * fi.hand_count + 1.0;
}

// Close to winning by public information: two strongholds held alone, three
// with its ally's (1.09.02.02, 1.10.02.02).
bool Brain::threat(Faction f) const {
  if (f == me() || k_.is_ally(f) || !k_.has(f)) return false;
  const uint8_t ally = k_.fac[static_cast<int>(f)].ally;
  int sh = held_alone(f);
  if (ally < kNumFactions) sh += held_alone(static_cast<Faction>(ally));
  return sh >= (ally < kNumFactions ? 3 : 2);
}

// ---- cards and spice ---------------------------------------------------------------

// Spice kept back for shipping and revival.
int Brain::reserve() const {
  if (me() == Faction::Fremen) return 0;
  const auto& f = k_.mine();
  if (!hard()) return 3;
  int r = 2;
  if (f.reserves[0] + f.reserves[1] >= 4 && k_.strongholds_controlled(me()) < 2) r = 4;
  if (me() == Faction::Guild) r = std::max(0, r - 2);
  return r;
}

// What holding a card is worth, in spice.
double Brain::card_value(uint8_t card) const {
  // The Richese cards: Mirror Weapon as a weapon that needs the opponent's,
  // Portable Snooper as a poison defense, Distrans, the Nullentropy Box and
  // the Semuta Drug as helpers, the others by what they do in a battle or a
  // turn order (all ten are implemented; the default 1 is for none of them).
  if (card >= data::kNumAllTreacheryCards) return 0;
  bool weapon = false, defense = false;
  for (auto c : k_.hand) {
    if (c == card) continue;
    weapon |= is_real_weapon(c);
    defense |= is_real_defense(c);
  }
  if (card >= data::kNumTreacheryCards) switch (kind(card)) {
      case TreacheryKind::Karama: return 6;
      case TreacheryKind::MirrorWeapon: return weapon ? 3 : 5;
      case TreacheryKind::PortableSnooper: break;  // a poison defense, below
      case TreacheryKind::NullentropyBox: return 2.5;
      case TreacheryKind::Distrans: return 1.5;
      case TreacheryKind::ResidualPoison: return 3;
      case TreacheryKind::Ornithopter: return 2.5;
      case TreacheryKind::StoneBurner: return 3;
      case TreacheryKind::JuiceOfSapho: return 2;
      case TreacheryKind::SemutaDrug: return 2.5;  // a discarded weapon or Karama back
      default: return 1;
    }
  const auto cat = category(card);
  if (data::is_weapon(cat)) return weapon ? 4 : 7;
  if (data::is_defense(cat)) return defense ? 3 : 6;
  if (cat == TreacheryCategory::Worthless) return 0.5;
  switch (kind(card)) {
    case TreacheryKind::Karama: return 6;
    case TreacheryKind::CheapHero:
    case TreacheryKind::CheapHeroine: return 3;
    case TreacheryKind::TleilaxuGhola: return 4;
    default: return 2;
  }
}

// Cards whose place this seat does not know (the deck and other hands).
std::array<int, data::kNumTreacheryCards> Brain::unknown_pool() const {
  std::array<int, data::kNumTreacheryCards> pool{};
  pool.fill(1);
  for (auto c : k_.hand)
    if (c < pool.size()) pool[c] = 0;
  for (auto c : k_.discard)
    if (c < pool.size()) pool[c] = 0;
  return pool;
}

double Brain::unknown_card_value() const {
  if (!brutal()) {
    bool weapon = false, defense = false;
    for (auto c : k_.hand) {
      weapon |= is_real_weapon(c);
      defense |= is_real_defense(c);
    }
    double v = 3;
    if (hard()) v += (weapon ? 0 : 1.5) + (defense ? 0 : 1.5);
    return v;
  }
  const auto pool = unknown_pool();
  double sum = 0;
  int n = 0;
  for (size_t c = 0; c < pool.size(); ++c)
    if (pool[c]) {
      sum += card_value(static_cast<uint8_t>(c));
      ++n;
    }
  return n ? sum / n : 2.0;
}

}  // namespace mentat::bots::detail
