// The bots' policies (bots/brain.h) for what abilities add to a battle: the
// Advanced Stronghold Cards (the spice a plan costs net, what a card is
// worth, who holds the battle's), the leader skills (a plan's own bonuses,
// the opponent's, the Bureaucrat; the Mentat's question and answer, the
// Diplomat's retreat, the Rihani Decipherer's swap), traitors (1.07.06.07),
// Prescience (2.01.08) and the Voice (2.02.06). docs/BOTS.md's table gives
// each policy per profile.
#include <algorithm>
#include <vector>

#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- stronghold cards and leader skills in a plan -------------------------------------

int Brain::own_battle_spice(const action::BattlePlan& a) const {
  const TerritoryId kArrakeen = card_strongholds().arrakeen, kTueks = card_strongholds().tueks;
  const bool holds = k_.stronghold_card_holder(k_.battle_territory) == static_cast<uint8_t>(me());
  const int bank = a.spice > 0 && holds && k_.battle_territory == kArrakeen ? 2 : 0;
  int income = 0;  // Tuek's Sietch: 2 from the bank for each worthless card played there, win or lose
  if (holds && k_.battle_territory == kTueks)
    for (uint8_t c : {a.weapon, a.defense}) income += c != kNone8 && is_worthless(c) ? 2 : 0;
  return std::max(0, a.spice - a.ally_pays - bank) + a.skill_spice - income;
}

double Brain::stronghold_card_worth(TerritoryId t) const {
  if (k_.stronghold_cards.empty() || !is_stronghold(t)) return 0;
  const auto& cs = card_strongholds();
  const TerritoryId kArrakeen = cs.arrakeen, kCarthag = cs.carthag, kTabr = cs.tabr, kTueks = cs.tueks;
  int worthless = 0, defenses = 0;
  for (uint8_t c : k_.hand) {
    worthless += is_worthless(c);
    defenses += is_real_defense(c);
  }
  if (t == kArrakeen) return k_.advanced && me() != Faction::Fremen ? 2.0 : 0.5;
  if (t == kTueks) return 0.5 + 1.0 * std::min(worthless, 2);
  if (t == kCarthag) return defenses > 0 ? 1.5 : 0.5;
  if (t == kTabr) return 1.5;
  return 1.0;  // Habbanya Sietch: ties
}

int Brain::battle_card(TerritoryId t) const {
  if (k_.battle_territory != t) return 0;
  const uint8_t h = k_.stronghold_card_holder(t);
  if (h == static_cast<uint8_t>(me())) return 1;
  return h == static_cast<uint8_t>(opponent()) ? -1 : 0;
}

bool Brain::defense_stops_poison(const action::BattlePlan& a) const {
  if (a.defense == kNone8 || !is_real_defense(a.defense) || battle_card(card_strongholds().carthag) != 1) return false;
  return !(a.weapon < data::kNumAllTreacheryCards && category(a.weapon) == TreacheryCategory::WeaponPoison);
}

double Brain::leader_strength(const action::BattlePlan& a) const {
  if (a.leader >= data::kNumLeaders) return 0;
  double v = data::leader(a.leader).strength;
  using data::LeaderSkill;
  const int own = k_.skill_of(a.leader);
  auto cat = [](uint8_t card) { return card < data::kNumAllTreacheryCards ? data::treachery_card(card).category : data::TreacheryCategory::Special; };
  const bool has_w = a.weapon != kNone8, has_d = a.defense != kNone8;
  auto bonus = [&](LeaderSkill k, bool met) {
    if (!met) return 0.0;
    if (own == static_cast<int>(k)) return 3.0;
    return k_.skill_in_front(me(), k) ? 1.0 : 0.0;
  };
  v += bonus(LeaderSkill::Warmaster, (has_w && cat(a.weapon) == data::TreacheryCategory::Worthless) ||
                                         (has_d && cat(a.defense) == data::TreacheryCategory::Worthless));
  v += bonus(LeaderSkill::PranaBinduAdept, has_d && cat(a.defense) == data::TreacheryCategory::DefenseProjectile);
  v += bonus(LeaderSkill::SwordmasterOfGinaz, has_w && cat(a.weapon) == data::TreacheryCategory::WeaponProjectile);
  v += bonus(LeaderSkill::KillerMedic, has_d && cat(a.defense) == data::TreacheryCategory::DefensePoison);
  v += bonus(LeaderSkill::MasterOfAssassins, has_w && cat(a.weapon) == data::TreacheryCategory::WeaponPoison);
  if (own == static_cast<int>(LeaderSkill::Mentat)) v += 2;
  if (own == static_cast<int>(LeaderSkill::SpiceBanker)) v += a.skill_spice;
  if (own == static_cast<int>(LeaderSkill::Planetologist) && has_w && cat(a.weapon) == data::TreacheryCategory::Special) v += 2;
  return v;
}

double Brain::opponent_skill_bonus(Faction opp, uint8_t l) const {
  if (l >= data::kNumLeaders) return 0;
  using data::LeaderSkill;
  const int hand = k_.fac[static_cast<int>(opp)].hand_count;
  const double p_card = std::min(0.6, 0.15 * hand);  // a card of the class the bonus needs
  double v = 0;
  switch (k_.skill_of(l)) {
    case static_cast<int>(LeaderSkill::Mentat): v = 2; break;
    case static_cast<int>(LeaderSkill::SpiceBanker): {  // spice behind its shield: its own secret (-1) unless allied
      const int sp = k_.fac[static_cast<int>(opp)].spice;
      v = sp >= 0 ? std::min(3, sp) * 0.5 : 1.0;
      break;
    }
    case static_cast<int>(LeaderSkill::Planetologist): v = 2 * p_card; break;
    case static_cast<int>(LeaderSkill::SwordmasterOfGinaz):
    case static_cast<int>(LeaderSkill::MasterOfAssassins):
    case static_cast<int>(LeaderSkill::PranaBinduAdept):
    case static_cast<int>(LeaderSkill::KillerMedic):
    case static_cast<int>(LeaderSkill::Warmaster): v = 3 * p_card; break;
    default: break;
  }
  for (LeaderSkill k : {LeaderSkill::SwordmasterOfGinaz, LeaderSkill::MasterOfAssassins, LeaderSkill::PranaBinduAdept, LeaderSkill::KillerMedic,
                        LeaderSkill::Warmaster})
    if (k_.skill_of(l) != static_cast<int>(k) && k_.skill_in_front(opp, k)) v += p_card;  // +1 to its other leaders
  return v;
}

double Brain::bureaucrat_penalty(Faction opp, uint8_t l) const {
  constexpr int kBureaucrat = static_cast<int>(data::LeaderSkill::Bureaucrat);
  bool bureaucrat = l != kNone8 && k_.skill_of(l) == kBureaucrat;
  if (l == kNone8)
    for (auto o : opponent_leaders(opp)) bureaucrat |= k_.skill_of(o) == kBureaucrat;
  if (!bureaucrat) return 0;
  int held = 0;
  for (const TerritoryId t : data::strongholds()) held += k_.forces_in_territory(me(), t) > 0 ? 1 : 0;
  return l != kNone8 ? held : 0.5 * held;  // any leader: the opponent plays its Bureaucrat about half the time
}

// ---- traitors, Prescience, the Voice --------------------------------------------------

// 1.07.06.07 call the traitor whenever one holds it (easy aside, every profile).
size_t Brain::call_traitor() {
  if (size_t i = find_kind<action::CallTraitor>([](const action::CallTraitor& a) { return a.call; }); i != npos) return i;
  return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::CallTraitor; }));
}

// 2.01.08 Prescience: medium and hard ask for the weapon (what kills a
// leader). Brutal asks for the weapon unless its defenses already cover every
// weapon class still unseen (then the dial, the element that decides most
// battles), and for the leader when one of the opponent's possible leaders is
// its traitor (a committed traitor leader wins the battle outright).
size_t Brain::prescience() {
  auto ask = [&](int e) { return or_fallback(find_kind<action::Prescience>([e](const action::Prescience& a) { return a.element == e; })); };
  if (!brutal()) return ask(1);
  const Faction opp = opponent();
  for (auto l : opponent_leaders(opp))
    if (std::find(k_.traitors.begin(), k_.traitors.end(), l) != k_.traitors.end()) return ask(0);
  bool shield = false, snooper = false;
  for (auto c : k_.hand) {
    shield |= defense_class(category(c)) == 1;
    snooper |= defense_class(category(c)) == 2;
  }
  return ask(shield && snooper ? 3 : 1);
}

// Answering Prescience binds the plan: every profile above easy reveals its
// strongest choice (the largest dial, its best leader, a real card if held).
size_t Brain::prescience_answer() {
  const DecisionInfo* d = decision(ActionKind::PrescienceAnswer);
  const bool leader = d && d->topic == Topic::PrescienceLeader;
  const bool dial = d && d->topic == Topic::PrescienceDial;
  return or_fallback(best<action::PrescienceAnswer>([&](const action::PrescienceAnswer& a) {
    if (dial) return static_cast<double>(a.value);
    if (leader) return a.value < data::kNumLeaders ? data::leader(a.value).strength + 1.0 : (a.value == 255 ? 0.0 : 0.5);
    return a.value == 255 ? 0.0 : card_value(a.value);  // a weapon or defense: commit one if held
  }));
}

// 2.02.06 the Voice. Medium forbids a projectile weapon (the commonest
// kind). Hard forbids the weapon class its defenses do not cover. Brutal
// weighs each class by the cards of it this seat has not seen, discounted
// where one of its defenses covers it, and forbids the most dangerous.
size_t Brain::voice() {
  bool shield = false, snooper = false;
  for (auto c : k_.hand) {
    shield |= defense_class(category(c)) == 1;
    snooper |= defense_class(category(c)) == 2;
  }
  uint8_t forbid = 1;  // 0 poison weapon, 1 projectile weapon (events/mentat.fbs)
  if (hard()) forbid = shield && !snooper ? 0 : 1;
  if (brutal()) {
    const auto pool = unknown_pool();
    double proj = 0, poison = 0;
    for (size_t c = 0; c < pool.size(); ++c) {
      if (!pool[c]) continue;
      const int w = weapon_class(category(static_cast<uint8_t>(c)));
      if (w == 1) proj += 1;
      if (w == 2) poison += 1;
    }
    if (shield) proj *= 0.2;
    if (snooper) poison *= 0.2;
    forbid = poison > proj ? 0 : 1;
  }
  return or_fallback(find_kind<action::Voice>([&](const action::Voice& a) { return !a.must && a.kind == forbid; }));
}

// ---- leader skills: the Mentat, the Diplomat, the Rihani Decipherer --------------------

// Leader Skills, the Mentat's question (docs/BOTS.md; easy plays at random
// like everywhere): a weapon whose class the hand's defenses do not cover,
// among those not seen (not in the hand or the discard pile); brutal asks
// about the Lasgun first.
size_t Brain::mentat_question() {
  bool shield = false, snooper = false;
  for (auto c : k_.hand) {
    shield |= defense_class(category(c)) == 1;
    snooper |= defense_class(category(c)) == 2;
  }
  const auto pool = unknown_pool();
  return or_fallback(best<action::MentatQuestion>([&](const action::MentatQuestion& a) {
    const int w = weapon_class(category(a.weapon));
    double v = a.weapon < pool.size() && pool[a.weapon] ? 2.0 : 0.0;  // not seen yet
    if ((w == 1 && !shield) || (w == 2 && !snooper)) v += 3.0;        // what would kill its leader
    if (brutal() && w == 3) v += shield ? 4.0 : 2.5;                  // the lasgun: never covered
    return v;
  }));
}

// Answering: the card of the kind asked when held (the only choice); else
// the least valuable card.
size_t Brain::mentat_answer() {
  return or_fallback(best<action::MentatAnswer>([&](const action::MentatAnswer& a) { return -card_value(a.card); }));
}

// Leader Skills, the Diplomat's retreat (the only Move asked in the Battle
// phase): save as many forces as may go (what stays is lost), to the
// destination with the most spice on it, then the lowest location; never Pass.
size_t Brain::diplomat_retreat() {
  return or_fallback(best<action::Move>([&](const action::Move& a) {
    int n = 0;
    for (const auto& p : a.from) n += p.forces + p.special;
    return n * 100.0 + (a.to < data::kNumLocations ? k_.spice_on_board[a.to] : 0) - a.to * 0.001;
  }));
}

// The Rihani Decipherer's swap: a traitor card is worth its leader's strength
// when that leader belongs to an opponent in the game (nothing for its own
// faction's or an absent faction's leaders); swap when the card drawn is
// worth more than the one given back.
size_t Brain::decipher_traitor() {
  auto worth = [&](uint8_t l) {
    if (l >= data::kNumLeaders) return 0.0;
    const Faction f = data::leader(l).faction;
    if (static_cast<int>(f) >= kNumFactions || f == me() || k_.is_ally(f)) return 0.0;
    bool seated = false;
    for (Seat x = 0; x < kMaxSeats; ++x) seated |= k_.seat_faction[x] == f && x < k_.num_seats;
    return seated ? static_cast<double>(data::leader(l).strength) + 1.0 : 0.0;
  };
  return or_fallback(best<action::DecipherTraitor>([&](const action::DecipherTraitor& a) { return worth(a.take) - worth(a.give); }, 0.0));
}

}  // namespace mentat::bots::detail
