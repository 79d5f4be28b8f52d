// Internal to bots/ (included only by bots/*.cpp): the Brain, which answers
// one decision of one seat for the medium, hard and brutal profiles, and the
// helpers and constants its policies share.
//
// Contract: a Brain is built for one decision from the seat's ViewInput, the
// profile and an Rng seeded for that decision (bots.cpp, ProfileBot), and
// used once: decide() returns an index into in.legal, or npos when it built a
// bribe instead (bribe()); amended() says the chosen GiveSpice,
// AllyPermission or ChoamSupport carries other amounts (bot.h,
// is_valid_choice). It reads nothing but its input and its Rng (a pure
// function of them, as bot.h promises) and keeps nothing after the call. It
// holds a reference to `in`, which must outlive it; one Brain is used by one
// thread (its Rng advances as it breaks ties).
//
// Layout: Brain holds one decision's inputs (knowledge from the view, the
// legal actions, a seeded Rng, the profile) and one method per decision
// kind. Medium uses simple rules. Hard scores shipments and movements by a
// one-ply evaluation of a board model after the action (computed from the
// view), weighs battle plans against the opponent's forces and leaders and
// its own traitors, and dials the storm onto others' forces. Brutal adds
// lookahead: the threat to each stronghold it holds next turn, and battle
// plans scored by their expected outcome over the opponent's possible plans.
// The methods are defined by phase and by owner:
//   bots.cpp                      decide(), the dispatch to the policies; the profiles and ProfileBot
//   brain.cpp                     shared measures: the spice reserve, card values, public strength
//   policy_setup.cpp              setup (traitors, skills, prediction, placement), the Storm (dials,
//                                 Weather Control, Family Atomics), the Spice Blow (sandworms,
//                                 Wormsign), CHOAM Charity
//   policy_alliances.cpp          the Nexus (alliances), the allies' spice, bribes
//   policy_bidding.cpp            Bidding (bids, Karama bids, Truthtrance, the Richese auctions) and
//                                 Revival
//   policy_shipment_movement.cpp  Shipment and Movement: the board model and its evaluation,
//                                 shipments, movements, Hajr, the Ornithopter, the Bene Gesserit's
//                                 advisors and flips, the Guild's timing
//   policy_battle.cpp             Battle: the battle chosen, the plans (medium's rule, hard's
//                                 estimate, brutal's expectation, a plan seen by Karama), the
//                                 winner's cards
//   policy_battle_abilities.cpp   what abilities add to a battle: stronghold cards, leader skills,
//                                 traitors, Prescience, the Voice, the Mentat, the Diplomat, the
//                                 Rihani Decipherer
//   policy_windows.cpp            response windows and Karama: the Karama cards' worth, cancels,
//                                 preventions, the Atreides', Fremen's and Guild's powers
//   policy_choam_richese.cpp      CHOAM & Richese: CHOAM's Inflation, sales, cards, trade, support,
//                                 special Karama and audit; the Richese's permit, gift, reveal and
//                                 No-Field; the Richese cards (Distrans, the Nullentropy Box, ...)
// docs/BOTS.md describes the profiles, the decision/policy table and their
// measured strength.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "bots/bot.h"
#include "bots/knowledge.h"

namespace mentat::bots::detail {

using data::TreacheryCategory;
using data::TreacheryKind;

constexpr double kNeg = -1e18;
// PlayCard values of a Karama (core/rules/rules.h: kKaramaGuildRates,
// kKaramaPrevent, kKaramaProtectAlly; repeated here: rules.h is internal).
constexpr uint8_t kKaramaGuildRatesBit = 0x80;
constexpr uint8_t kKaramaPreventBit = 0x40;
constexpr uint8_t kKaramaProtectAllyValue = 0x01;
// The faction abilities (core/rules/rules.h rules::Ability ids, repeated
// here) the bots' prevention (3.01.11.02) and cancel (3.01.11.01) policies
// weigh.
namespace ab {
constexpr uint8_t kGuildHalfPrice = 1, kFremenMovement = 4, kBgVoice = 6, kAtreidesPrescience = 7, kHarkonnenCapture = 12,
                  kKwisatzHaderach = 13, kEmperorSardaukar = 25, kFremenFedaykin = 26, kFremenBattleHardened = 27;
}

inline TreacheryCategory category(uint8_t card) { return data::treachery_card(card).category; }
inline TreacheryKind kind(uint8_t card) { return data::treachery_card(card).kind; }
inline bool is_worthless(uint8_t card) { return card < data::kNumTreacheryCards && category(card) == TreacheryCategory::Worthless; }
inline bool is_real_weapon(uint8_t card) { return card < data::kNumAllTreacheryCards && data::is_weapon(category(card)); }
inline bool is_real_defense(uint8_t card) { return card < data::kNumAllTreacheryCards && data::is_defense(category(card)); }  // Portable Snooper too
inline bool is_mirror(uint8_t card) { return card < data::kNumAllTreacheryCards && kind(card) == TreacheryKind::MirrorWeapon; }

inline bool is_stronghold(TerritoryId t) { return data::territory(t).stronghold; }
inline bool is_stronghold_loc(LocationId l) { return is_stronghold(data::territory_of(l)); }
// The strongholds of the Advanced Stronghold Cards, looked up once.
struct CardStrongholds {
  TerritoryId arrakeen, carthag, habbanya, tabr, tueks;
};
inline const CardStrongholds& card_strongholds() {
  static const CardStrongholds t{*data::find_territory("Arrakeen"), *data::find_territory("Carthag"),
                                 *data::find_territory("Habbanya Sietch"), *data::find_territory("Sietch Tabr"),
                                 *data::find_territory("Tuek's Sietch")};
  return t;
}

inline int hand_limit_of(Faction f) { return data::faction_setup(f).hand_limit; }

// Weapon classes in battle: 0 none, 1 projectile, 2 poison, 3 lasgun.
inline int weapon_class(TreacheryCategory c) {
  switch (c) {
    case TreacheryCategory::WeaponProjectile: return 1;
    case TreacheryCategory::WeaponPoison: return 2;
    case TreacheryCategory::WeaponLasgun: return 3;
    default: return 0;
  }
}
// Defense classes: 0 none, 1 projectile (Shield), 2 poison (Snooper).
inline int defense_class(TreacheryCategory c) {
  switch (c) {
    case TreacheryCategory::DefenseProjectile: return 1;
    case TreacheryCategory::DefensePoison: return 2;
    default: return 0;
  }
}
inline bool kills(int weapon, int defense) { return weapon == 3 || (weapon != 0 && weapon != defense); }

// A simple model of the board for one-ply evaluation (brutal).
struct Board {
  uint8_t forces[kNumFactions][data::kNumLocations][2];
  uint16_t spice[data::kNumLocations];
  int my_spice = 0;
  int my_reserves = 0;
};

class Brain {
 public:
  Brain(const ViewInput& in, Profile p, Rng rng) : in_(in), legal_(in.legal), k_(read_knowledge(in)), p_(p), rng_(rng) {}

  size_t decide();
  // GiveSpice / AllyPermission: the chosen legal action with its amounts
  // changed, within the decision's range (bot.h, is_valid_choice).
  bool amended() const { return amend_; }
  uint16_t amend_amount() const { return amend_amount_; }
  uint16_t amend_amount2() const { return amend_amount2_; }
  // A bribe (1.12) built from the seat's Bribe decision instead of a legal
  // action (bot.h, is_valid_choice); decide() returned npos then.
  const std::optional<action::Bribe>& bribe() const { return bribe_; }

 private:
  std::optional<action::Bribe> bribe_;
  bool amend_ = false;
  uint16_t amend_amount_ = 0, amend_amount2_ = 0;
  const ViewInput& in_;
  const std::vector<Action>& legal_;
  Knowledge k_;
  Profile p_;
  Rng rng_;
  // evaluate(): each faction's fighters per territory as the Knowledge shows
  // them, counted when first asked (-1: not yet); a candidate's board differs
  // from the Knowledge only in the seat's own row.
  mutable std::array<std::array<int16_t, data::kNumTerritories>, kNumFactions> known_strength_ = [] {
    std::array<std::array<int16_t, data::kNumTerritories>, kNumFactions> t;
    for (auto& row : t) row.fill(-1);
    return t;
  }();

  bool hard() const { return p_ >= Profile::Hard; }
  bool brutal() const { return p_ == Profile::Brutal; }
  Faction me() const { return k_.me; }
  int spice() const { return std::max(0, k_.mine().spice); }

  bool has_kind(ActionKind kind) const {
    for (const auto& a : legal_)
      if (a.kind() == kind) return true;
    return false;
  }
  const DecisionInfo* decision(ActionKind kind) const {
    for (const auto& d : k_.decisions)
      if (d.kind == kind) return &d;
    return nullptr;
  }
  // Is the seat asked a decision about `t` (Topic, core/engine.h)?
  bool has_topic(Topic t) const {
    for (const auto& d : k_.decisions)
      if (d.topic == t) return true;
    return false;
  }
  // Is the seat asked to answer a response window of kind `w` (its Respond decision)?
  bool in_window(WindowKind w) const {
    const DecisionInfo* d = decision(ActionKind::Respond);
    return d && d->window == w && has_kind(ActionKind::Respond);
  }
  // Index of the first legal action matching pred, or npos.
  template <class P>
  size_t find(P pred) const {
    for (size_t i = 0; i < legal_.size(); ++i)
      if (pred(legal_[i])) return i;
    return npos;
  }
  // Index of the first legal action of kind T matching pred (given the typed action), or npos.
  template <ActionType T, class P>
  size_t find_kind(P pred) const {
    for (size_t i = 0; i < legal_.size(); ++i)
      if (const T* a = legal_[i].get_if<T>(); a && pred(*a)) return i;
    return npos;
  }
  static constexpr size_t npos = static_cast<size_t>(-1);
  size_t pass() const { return find([](const Action& a) { return a.kind() == ActionKind::Pass; }); }
  // Pass where legal, else the first action that is not a card play, else the first.
  size_t fallback() const {
    if (size_t i = pass(); i != npos) return i;
    if (size_t i = find([](const Action& a) { return a.kind() != ActionKind::PlayCard; }); i != npos) return i;
    return 0;
  }
  // The best-scoring legal action of `kind` (ties: the Rng); `floor` is the
  // score of the fallback (pass), returned as npos when nothing beats it.
  // `score` takes the typed action (T).
  template <ActionType T, class Score>
  size_t best(Score score, double floor = kNeg) {
    size_t pick = npos;
    double top = floor;
    int ties = 0;
    for (size_t i = 0; i < legal_.size(); ++i) {
      const T* a = legal_[i].get_if<T>();
      if (!a) continue;
      const double v = score(*a);
      if (v > top + 1e-9) {
        top = v;
        pick = i;
        ties = 1;
      } else if (pick != npos && std::abs(v - top) <= 1e-9) {
        if (rng_.below(static_cast<uint32_t>(++ties)) == 0) pick = i;
      }
    }
    return pick;
  }
  size_t or_fallback(size_t i) const { return i == npos ? fallback() : i; }
  size_t random_of(ActionKind kind) {
    std::vector<size_t> ix;
    for (size_t i = 0; i < legal_.size(); ++i)
      if (legal_[i].kind() == kind) ix.push_back(i);
    if (ix.empty()) return fallback();
    return ix[rng_.below(static_cast<uint32_t>(ix.size()))];
  }

  // ---- decision kinds ----
  size_t select_traitor();
  size_t predict();
  size_t place_forces();
  size_t dial_storm();
  size_t respond();
  size_t worm_ride();
  size_t claim_charity();
  size_t bid();
  size_t revive();
  size_t ship();
  size_t advisor();
  size_t move();
  size_t flip();
  size_t choose_battle();
  size_t battle_plan();
  size_t call_traitor();
  size_t prescience();
  size_t prescience_answer();
  size_t voice();
  size_t nexus();
  size_t place_worm();
  size_t guild_timing();
  size_t storm_card();  // npos: no card worth playing now
  size_t karama_cancel();
  size_t truthtrance();  // npos: none worth playing now
  size_t richese_cards();  // Distrans, the Nullentropy Box (npos: none worth playing now)
  size_t discard_search();  // the Nullentropy Box's choice
  size_t alliance_spice();  // npos: no gift or allowance change now
  size_t keep_cards();
  size_t atreides_karama();  // npos: not now
  size_t fremen_karama_worm();  // npos: not now
  size_t guild_karama();
  bool offer_bribe();         // sets bribe_ (1.12); false: none now
  size_t karama_prevent_battle(Faction opp, TerritoryId t);  // npos: not now (3.01.11.02)
  size_t karama_prevent_shipping();                          // npos: not now (3.01.11.02)
  double cancel_value(uint8_t ability, Faction user) const;  // 3.01.11.01, in spice
  bool threat(Faction f) const;  // close to winning: two strongholds alone, three with its ally's
  // CHOAM (CHOAM & Richese): the Inflation token, selling cards (npos: keep them).
  size_t choam_inflation();
  size_t choam_sell();
  double sell_value(uint8_t card) const;
  size_t choam_sale_window();
  size_t choam_card();  // a worthless card's power (npos: none worth it now)
  size_t choam_trade();  // the alliance's card trade (npos: not now)
  size_t choam_support();  // the allowance for the ally's battle spice (npos: unchanged)
  size_t richese_permit();  // the Richese's consent to the ally's No-Field shipment (npos: unchanged)
  size_t choam_karama();   // the special Karama (npos: not now)
  size_t choam_audit();    // the audited faction: pay to cancel the Auditor's look, or let it
  // Richese (CHOAM & Richese; docs/BOTS.md, docs/factions/richese.md).
  size_t richese_lot();     // the Black Market or the cache lot: the card and the auction
  size_t richese_timing();  // the cache lot first or last
  size_t richese_bid();     // a bid on a Richese lot (no Karama bids)
  size_t richese_buy();     // the special Karama purchase (npos: not now)
  size_t richese_gift();    // a Richese card to the ally (npos: not now)
  size_t richese_reveal();  // the concealed No-Field turned face up (npos: not now)
  int token_forces(const action::Ship& a) const;  // what a No-Field shipment is worth in forces
  // 2.01.07 Wormsign: the territory the next spice blow's first worm will
  // devour, and where its first spice will appear (kNone8: not known).
  TerritoryId wormsign_doomed() const;
  LocationId wormsign_spice(int* amount) const;

  // ---- cards ----
  bool karama_like(uint8_t card) const;
  // What keeping this Karama (or Bene Gesserit worthless card) is worth, in spice.
  double karama_keep(uint8_t card) const;
  // The cheapest Karama-like card this seat holds (kNone8: none).
  uint8_t cheapest_karama() const;
  size_t karama_guild_rates(double best_ship_gain_full, double best_ship_gain_half);
  bool half_price_now() const;
  // ---- alliances ----
  int held_alone(Faction f) const;  // strongholds where f is the only faction with fighters
  double power(Faction f) const;
  double alliance_value(Faction f) const;

  // ---- helpers ----
  int reserve() const;
  double card_value(uint8_t card) const;
  double unknown_card_value() const;
  std::array<int, data::kNumTreacheryCards> unknown_pool() const;
  int ship_cost(const action::Ship& a, bool half) const;
  bool ship_half() const;
  double dest_value(LocationId to, int n) const;
  double origin_loss(const action::Move& a) const;
  Board board() const;
  double evaluate(const Board& b) const;
  double storm_score(int moved) const;
  // Battle.
  int my_side() const { return k_.seat == k_.aggressor ? 0 : 1; }
  Faction opponent() const {
    const Seat o = my_side() == 0 ? k_.defender : k_.aggressor;
    return o >= 0 && o < kMaxSeats ? k_.seat_faction[o] : me();
  }
  std::vector<uint8_t> opponent_leaders(Faction opp) const;
  double territory_value(TerritoryId t) const;
  // The strength a's leader adds when it survives: its own plus the leader
  // skill bonuses this seat's view shows (core/cards/leader_skills.cpp).
  double leader_strength(const action::BattlePlan& a) const;
  // The spice this plan costs this seat, net: its dialled spice less its
  // ally's part (CHOAM) and less the 2 the bank pays with the Arrakeen
  // stronghold card in a battle there, plus a Spice Banker's spice, less the
  // 2 per worthless card the Tuek's Sietch card brings there (module
  // stronghold_cards; the holders from its view).
  int own_battle_spice(const action::BattlePlan& a) const;
  // What the Advanced Stronghold Card of stronghold t is worth to this seat
  // (module stronghold_cards; 0 without it), a rough figure per card:
  // Arrakeen's bank spice 2 in advanced battles (0.5 otherwise, and for the
  // Fremen), Tuek's Sietch 0.5 + 1 per worthless card in hand (two at most),
  // Carthag's Snooper 1.5 with a defense in hand (0.5 without), Sietch
  // Tabr's dial 1.5, Habbanya Sietch's ties 1.
  double stronghold_card_worth(TerritoryId t) const;
  // The battle's stronghold card for this plan (holders from the view): 1 when
  // this seat holds it, -1 when the opponent does, 0 otherwise; t: the card's
  // stronghold (card_strongholds()).
  int battle_card(TerritoryId t) const;
  // Carthag's card: the plan's defense also stops poison (no poison weapon of its own).
  bool defense_stops_poison(const action::BattlePlan& a) const;
  // What the opponent's leader `l` may add with its skill (its face-up card,
  // the +1 of a skill in front), by the odds of its holding the card that
  // bonus needs; and the Bureaucrat's penalty to this seat's total.
  double opponent_skill_bonus(Faction opp, uint8_t l) const;
  double bureaucrat_penalty(Faction opp, uint8_t l = kNone8) const;  // l: that leader fights (kNone8: any)
  size_t assign_skill();
  size_t mentat_question();
  size_t mentat_answer();
  size_t decipher_traitor();
  size_t diplomat_retreat();
  double plan_value_simple(const action::BattlePlan& a) const;
  double plan_value_expected(const action::BattlePlan& a) const;
  double plan_value_known(const action::BattlePlan& a, const PlanInfo& o) const;
};

}  // namespace mentat::bots::detail
