// The four bot profiles. Every choice is an index into the legal actions.
//
// Layout: Brain holds one decision's inputs (knowledge from the view, the
// legal actions, a seeded Rng, the profile) and one method per decision
// kind. Medium uses simple rules. Hard scores shipments and movements by a
// one-ply evaluation of a board model after the action (computed from the
// view), weighs battle plans against the opponent's forces and leaders and
// its own traitors, and dials the storm onto others' forces. Brutal adds
// lookahead: the threat to each stronghold it holds next turn, and battle
// plans scored by their expected outcome over the opponent's possible plans.
// Beyond those: alliances in a Nexus and the allies' spice (the Emperor's
// gift, the shipment allowance), Karama (bids, Guild rates, cancel windows,
// the Emperor's, Harkonnen's, Atreides', Fremen's and Guild's powers), the
// winner's cards, the storm cards, Hajr, Truthtrance, Take Up Arms, Wormsign
// and every response window have a policy per profile.
// docs/BOTS.md describes the profiles, the decision/policy table and their
// measured strength.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <span>

#include "bots/bot.h"
#include "bots/knowledge.h"
#include "events/view_generated.h"

namespace mentat::bots {

std::string_view profile_name(Profile p) {
  switch (p) {
    case Profile::Easy: return "easy";
    case Profile::Medium: return "medium";
    case Profile::Hard: return "hard";
    case Profile::Brutal: return "brutal";
  }
  return "?";
}

bool parse_profile(std::string_view text, Profile* out) {
  for (int i = 0; i < kNumProfiles; ++i)
    if (text == profile_name(static_cast<Profile>(i))) {
      *out = static_cast<Profile>(i);
      return true;
    }
  return false;
}

namespace {

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

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

TreacheryCategory category(uint8_t card) { return data::treachery_card(card).category; }
TreacheryKind kind(uint8_t card) { return data::treachery_card(card).kind; }
bool is_worthless(uint8_t card) { return card < data::kNumTreacheryCards && category(card) == TreacheryCategory::Worthless; }
bool is_real_weapon(uint8_t card) { return card < data::kNumAllTreacheryCards && data::is_weapon(category(card)); }
bool is_real_defense(uint8_t card) { return card < data::kNumAllTreacheryCards && data::is_defense(category(card)); }  // Portable Snooper too
bool is_mirror(uint8_t card) { return card < data::kNumAllTreacheryCards && kind(card) == TreacheryKind::MirrorWeapon; }

bool is_stronghold(TerritoryId t) { return data::territory(t).stronghold; }
bool is_stronghold_loc(LocationId l) { return is_stronghold(data::territory_of(l)); }
// The strongholds of the Advanced Stronghold Cards, looked up once.
struct CardStrongholds {
  TerritoryId arrakeen, carthag, habbanya, tabr, tueks;
};
const CardStrongholds& card_strongholds() {
  static const CardStrongholds t{*data::find_territory("Arrakeen"), *data::find_territory("Carthag"),
                                 *data::find_territory("Habbanya Sietch"), *data::find_territory("Sietch Tabr"),
                                 *data::find_territory("Tuek's Sietch")};
  return t;
}

int hand_limit_of(Faction f) { return data::faction_setup(f).hand_limit; }

// Weapon classes in battle: 0 none, 1 projectile, 2 poison, 3 lasgun.
int weapon_class(TreacheryCategory c) {
  switch (c) {
    case TreacheryCategory::WeaponProjectile: return 1;
    case TreacheryCategory::WeaponPoison: return 2;
    case TreacheryCategory::WeaponLasgun: return 3;
    default: return 0;
  }
}
// Defense classes: 0 none, 1 projectile (Shield), 2 poison (Snooper).
int defense_class(TreacheryCategory c) {
  switch (c) {
    case TreacheryCategory::DefenseProjectile: return 1;
    case TreacheryCategory::DefensePoison: return 2;
    default: return 0;
  }
}
bool kills(int weapon, int defense) { return weapon == 3 || (weapon != 0 && weapon != defense); }

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

// The amounts a bot may change in a legal GiveSpice (amount, 0) or
// AllyPermission (shipment, bids) (bot.h, is_valid_choice); other kinds: (0, 0).
std::pair<uint16_t, uint16_t> amounts(const Action& a) {
  if (const auto* gift = a.get_if<action::GiveSpice>()) return {gift->amount, 0};
  if (const auto* permission = a.get_if<action::AllyPermission>()) return {permission->shipment, permission->bids};
  if (const auto* support = a.get_if<action::ChoamSupport>()) return {support->battle, 0};
  return {0, 0};
}
void set_amounts(Action& a, uint16_t amount, uint16_t amount2) {
  if (auto* gift = a.get_if<action::GiveSpice>()) {
    gift->amount = amount;
  } else if (auto* permission = a.get_if<action::AllyPermission>()) {
    permission->shipment = amount;
    permission->bids = amount2;
  } else if (auto* support = a.get_if<action::ChoamSupport>()) {
    support->battle = amount;
  }
}

// A simple model of the board for one-ply evaluation (brutal).
struct Board {
  uint8_t forces[kNumFactions][data::kNumLocations][2];
  uint16_t spice[data::kNumLocations];
  int my_spice = 0;
  int my_reserves = 0;
};

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

// ---- dispatch ----------------------------------------------------------------------

// Each decision kind has its own policy (docs/BOTS.md, "Decisions and
// policies"). Cards playable at any time (Tleilaxu Ghola, Truthtrance) ride
// along with whatever the seat is asked; the policies that may play them look
// for them. A decision kind this build does not know (actions added later)
// falls back to a safe legal action: Pass where legal, else the first legal
// action that is not a card play.
size_t Brain::decide() {
  if (has_kind(ActionKind::SelectTraitor)) return select_traitor();
  if (has_kind(ActionKind::AssignSkill)) return assign_skill();
  if (has_kind(ActionKind::Predict)) return predict();
  if (has_kind(ActionKind::PlaceForces)) return place_forces();
  if (has_kind(ActionKind::ChoamInflation)) return choam_inflation();
  if (has_kind(ActionKind::RicheseCacheTiming)) return richese_timing();
  if (has_kind(ActionKind::RicheseLot) || has_topic(Topic::RicheseLot)) return richese_lot();
  if (k_.richese_lot != 0 && (has_kind(ActionKind::Bid) || decision(ActionKind::Pass)) && !has_kind(ActionKind::Respond)) return richese_bid();
  if (k_.richese_lot == 1 && has_topic(Topic::LotNobodyBid))  // a cache lot nobody bid on
    return or_fallback(find_kind<action::Respond>([](const action::Respond& a) { return a.accept; }));  // keep it free
  if (has_kind(ActionKind::RicheseBuy))
    if (size_t i = richese_buy(); i != npos) return i;
  if (has_kind(ActionKind::RicheseGift))
    if (size_t i = richese_gift(); i != npos) return i;
  if (has_kind(ActionKind::RicheseReveal))
    if (size_t i = richese_reveal(); i != npos) return i;
  if (k_.phase == Phase::Battle && k_.choam_audit_pending && has_kind(ActionKind::Respond)) return choam_audit();
  if (has_kind(ActionKind::ChoamSupport))
    if (size_t i = choam_support(); i != npos) return i;
  if (has_kind(ActionKind::ChoamKarama))
    if (size_t i = choam_karama(); i != npos) return i;
  if (has_kind(ActionKind::ChoamTrade))
    if (size_t i = choam_trade(); i != npos) return i;
  if (has_kind(ActionKind::ChoamCard))
    if (size_t i = choam_card(); i != npos) return i;
  if (has_kind(ActionKind::ChoamSell))
    if (size_t i = choam_sell(); i != npos) return i;
  if (has_kind(ActionKind::AllyPermission))
    if (size_t i = richese_permit(); i != npos) return i;
  // Alliance spice (any time the seat is asked): the Emperor's gift, the allowance.
  if (has_kind(ActionKind::GiveSpice) || has_kind(ActionKind::AllyPermission))
    if (size_t i = alliance_spice(); i != npos) return i;
  if (has_kind(ActionKind::PlayCard) && !has_kind(ActionKind::Respond))  // Distrans, the Nullentropy Box
    if (size_t i = richese_cards(); i != npos) return i;
  if (me() == Faction::Fremen && (k_.phase == Phase::SpiceBlow || k_.phase == Phase::Nexus) && has_kind(ActionKind::PlayCard))
    if (size_t i = fremen_karama_worm(); i != npos) return i;
  if (k_.phase == Phase::Storm && has_kind(ActionKind::PlayCard))
    if (size_t i = storm_card(); i != npos) return i;
  if (has_kind(ActionKind::DialStorm)) return dial_storm();
  if (in_window(WindowKind::DiscardSearch)) return discard_search();
  // The Semuta Drug's window: take the best card just discarded when it is worth more than the Drug itself.
  if (in_window(WindowKind::SemutaTake))
    return or_fallback(best<action::Respond>([&](const action::Respond& a) { return a.accept ? card_value(a.card) : 2.0; }));
  // The Stone Burner's choice: kill both leaders when the opponent's is the stronger (the plans are revealed).
  if (in_window(WindowKind::StoneBurner)) {
    const PlanInfo& mine = k_.plan[my_side()];
    const PlanInfo& o = k_.plan[1 - my_side()];
    const int my_str = mine.leader < data::kNumLeaders ? data::leader(mine.leader).strength : 0;
    const int o_str = o.leader < data::kNumLeaders ? data::leader(o.leader).strength : 0;
    const bool kill = o_str > my_str;
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept == kill; }));
  }
  if (k_.bureau_receiver < kNumFactions && in_window(WindowKind::Bureaucracy))  // Leader Skills: never against the ally
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept != k_.is_ally(static_cast<Faction>(k_.bureau_receiver)); }));
  if (me() == Faction::Choam && in_window(WindowKind::ChoamSale)) return choam_sale_window();
  if (has_kind(ActionKind::Respond)) return respond();
  if (has_kind(ActionKind::WormRide)) return k_.phase == Phase::SpiceBlow ? place_worm() : worm_ride();
  if (has_kind(ActionKind::ProposeAlliance) || has_kind(ActionKind::AcceptAlliance) || has_kind(ActionKind::BreakAlliance))
    return nexus();
  if (has_kind(ActionKind::ClaimCharity)) return claim_charity();
  if (has_kind(ActionKind::Bid) && offer_bribe()) return npos;
  if (has_kind(ActionKind::Bid) || (k_.phase == Phase::Bidding && has_kind(ActionKind::PlayCard))) return bid();
  if (has_kind(ActionKind::Revive) || (k_.phase == Phase::Revival && has_kind(ActionKind::PlayCard))) return revive();
  if (has_kind(ActionKind::Ship)) return ship();
  if (has_kind(ActionKind::SendSpiritualAdvisor)) return advisor();
  if (k_.phase == Phase::Battle && has_kind(ActionKind::Move)) return diplomat_retreat();  // Leader Skills
  if (has_kind(ActionKind::Move)) return move();
  if (has_kind(ActionKind::Flip)) return flip();
  if (has_kind(ActionKind::GuildTiming)) return guild_timing();
  if (has_kind(ActionKind::ChooseBattle)) return choose_battle();
  if (has_kind(ActionKind::BattlePlan)) return battle_plan();
  if (has_kind(ActionKind::CallTraitor)) return call_traitor();
  if (has_kind(ActionKind::KeepCards)) return keep_cards();
  if (has_topic(Topic::GuildKaramaCancel)) return guild_karama();
  if (has_kind(ActionKind::Prescience)) return prescience();
  if (has_kind(ActionKind::PrescienceAnswer)) return prescience_answer();
  if (has_kind(ActionKind::Voice)) return voice();
  if (has_kind(ActionKind::MentatQuestion)) return mentat_question();
  if (has_kind(ActionKind::MentatAnswer)) return mentat_answer();
  if (has_kind(ActionKind::DecipherTraitor)) return decipher_traitor();
  // Anything else (a kind added after this build, e.g. a Nexus with nothing
  // but Pass): Pass where legal, else the first legal non-card action.
  return fallback();
}

// ---- CHOAM (CHOAM & Richese; docs/BOTS.md, docs/factions/choam.md) -------------------------------

// The Inflation token (Mentat Pause): medium doubles the next charity (its
// income is 2 a player); hard and brutal double it too unless CHOAM is rich
// enough to deny everyone their charity (Cancel).
size_t Brain::choam_inflation() {
  const int side = hard() && spice() >= 12 ? 2 : 1;
  return or_fallback(find_kind<action::ChoamInflation>([side](const action::ChoamInflation& a) { return a.side == side; }));
}

// Selling: medium sells every card it may (worthless for 2, a copy for 3);
// hard and brutal keep one worthless card to discard in a battle plan while
// the hand is small, and keep the second copy of a defense while poor in cards.
double Brain::sell_value(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return -1.0;
  int worthless = 0;
  for (uint8_t c : k_.hand) worthless += data::treachery_card(c).category == data::TreacheryCategory::Worthless;
  const auto cat = data::treachery_card(card).category;
  const auto kind = data::treachery_card(card).kind;
  // Medium keeps Kulon and La La La for their powers, hard+ every power card while the hand is not full.
  const bool power = kind == data::TreacheryKind::Kulon || kind == data::TreacheryKind::LaLaLa;
  if (cat == data::TreacheryCategory::Worthless && (power || hard()) && static_cast<int>(k_.hand.size()) < 4) return -1.0;
  if (cat == data::TreacheryCategory::Worthless) return hard() && worthless == 1 && k_.hand.size() <= 2 ? -1.0 : 2.0;
  if (hard() && data::is_defense(cat) && k_.hand.size() <= 2) return -1.0;
  return 3.0;
}

size_t Brain::choam_sell() {
  return best<action::ChoamSell>([&](const action::ChoamSell& a) { return sell_value(a.card); }, 0.0);
}

// The end-of-phase sale window (ruling choam_sell_timing = end_of_phase):
// the same choice as choam_sell, one card a Respond; Respond{} ends it.
size_t Brain::choam_sale_window() {
  const size_t i = best<action::Respond>([&](const action::Respond& a) { return a.accept ? sell_value(a.card) : 0.5; });
  return i == npos ? 0 : i;
}

// The worthless-card powers. Medium: La La La on the faction with the largest
// free revival, Kulon whenever it is offered. Hard and brutal: La La La only on
// a faction with forces in the tanks; Kulon when CHOAM has forces on the
// board; Baliset on a stronghold CHOAM holds; Jubba Cloak on its largest
// group in a sand territory; Trip to Gamont on an enemy alone in a stronghold
// with a single force (it frees the stronghold), else on the largest enemy stack.
size_t Brain::choam_card() {
  return best<action::ChoamCard>([&](const action::ChoamCard& a) {
    if (a.card >= data::kNumAllTreacheryCards) return -1.0;
    const auto kind = data::treachery_card(a.card).kind;
    const Faction f = a.faction < kNumFactions ? static_cast<Faction>(a.faction) : me();
    switch (kind) {
      case data::TreacheryKind::LaLaLa: {
        if (a.faction >= kNumFactions || k_.is_ally(f)) return -1.0;
        const int free = data::faction_setup(f).free_revival;
        if (hard() && k_.fac[a.faction].tanks[0] + k_.fac[a.faction].tanks[1] == 0) return -1.0;
        return free > 0 ? 1.0 + free : -1.0;
      }
      case data::TreacheryKind::Kulon: return !hard() || k_.forces_on_board(me()) > 0 ? 1.0 : -1.0;
      case data::TreacheryKind::Baliset:
        if (!hard() || a.location >= data::kNumLocations) return -1.0;
        return data::territory(data::territory_of(a.location)).kind == data::TerritoryKind::Stronghold ? 1.0 : -1.0;
      case data::TreacheryKind::JubbaCloak: {
        if (!hard() || a.location >= data::kNumLocations) return -1.0;
        const TerritoryId t = data::territory_of(a.location);
        if (data::territory(t).storm_protected) return -1.0;
        return 0.5 + k_.forces_in_territory(me(), t);
      }
      case data::TreacheryKind::TripToGamont: {
        if (!hard() || a.location >= data::kNumLocations || f == me() || k_.is_ally(f)) return -1.0;
        const TerritoryId t = data::territory_of(a.location);
        const bool stronghold = data::territory(t).kind == data::TerritoryKind::Stronghold;
        if (stronghold && k_.forces_in_territory(f, t) == 1) return 10.0;
        return 0.5 + 0.1 * k_.forces_in_territory(f, t);
      }
      default: return -1.0;
    }
  }, 0.0);
}

// The card trade. CHOAM offers its least useful card once a turn (not again
// in a turn an offer was declined); hard and brutal only a card worth less
// than an unseen one. The ally answers with its least useful card (medium),
// hard and brutal decline when every card it holds is worth more than an
// unseen card. CHOAM never withdraws.
size_t Brain::choam_trade() {
  if (me() == Faction::Choam) {
    if (k_.choam_trade_open || k_.choam_traded_turn == k_.turn || k_.choam_declined_turn == k_.turn) return npos;
    return best<action::ChoamTrade>([&](const action::ChoamTrade& a) {
      if (a.card >= data::kNumAllTreacheryCards) return -1.0;
      const double v = card_value(a.card);
      if (hard() && v >= unknown_card_value()) return -1.0;
      return 100.0 - v;
    }, 0.0);
  }
  if (!k_.choam_trade_open) return npos;
  size_t i = best<action::ChoamTrade>([&](const action::ChoamTrade& a) {
    if (a.card >= data::kNumAllTreacheryCards) return -1.0;
    const double v = card_value(a.card);
    if (hard() && v > unknown_card_value() + 1) return -1.0;
    return 100.0 - v;
  }, 0.0);
  if (i == npos) i = find_kind<action::ChoamTrade>([](const action::ChoamTrade& a) { return a.card == kNone8; });
  return i;
}

// Ruling no_field_ally_permission = richese_allows: every profile's Richese
// lets its ally ship with a No-Field token (an AllyPermission with no_field,
// its allowances as they stand) as soon as it is asked while allied, and
// never withdraws it (a token shipment costs the Richese nothing).
size_t Brain::richese_permit() {
  if (me() != Faction::Richese || k_.ally() >= kNumFactions || k_.richese_ally_no_field) return npos;
  return find([](const Action& a) {
    const auto* p = a.get_if<action::AllyPermission>();
    return p && p->no_field;
  });
}

// Paying for the ally's forces in battle (ChoamSupport; only the advanced
// game dials spice): medium lets the ally use up to 3 of its spice above its
// reserve, hard half of it, brutal two thirds; in the basic game nothing.
// Changed when 3 short or 4 too high (or to withdraw it), as AllyPermission.
size_t Brain::choam_support() {
  if (k_.ally() >= kNumFactions) return npos;
  const size_t i = find([](const Action& a) { return a.kind() == ActionKind::ChoamSupport; });
  if (i == npos) return npos;
  const int free = std::max(0, spice() - reserve());
  const int want = !k_.advanced ? 0 : !hard() ? std::min(3, free) : brutal() ? (2 * free) / 3 : free / 2;
  const int cur = k_.choam_support;
  const bool withdraw = want == 0 && cur > 0;
  if (!withdraw && want < cur + 3 && want > cur - 4) return npos;
  amend_ = true;
  amend_amount_ = static_cast<uint16_t>(want);
  amend_amount2_ = 0;
  return i;
}

// The special Karama (once a game, 3 spice a card): medium in the last turn,
// with every other card; hard and brutal in the last turn too, or earlier
// with two or more worthless cards (3 each instead of the 2 a sale brings)
// when the hand is full.
size_t Brain::choam_karama() {
  const bool last = k_.turn >= k_.max_turns;
  const bool full = static_cast<int>(k_.hand.size()) >= hand_limit_of(me());
  return best<action::ChoamKarama>([&](const action::ChoamKarama& a) {
    int worthless = 0;
    for (uint8_t c : a.cards) worthless += c < data::kNumAllTreacheryCards && is_worthless(c);
    if (last) return 1.0 * a.cards.size();
    if (hard() && full && worthless >= 2 && worthless == static_cast<int>(a.cards.size())) return 1.0 * worthless;
    return -1.0;
  }, 0.0);
}

// ---- Richese (CHOAM & Richese; docs/BOTS.md, docs/factions/richese.md) ----------------

// The Black Market (a card of its hand up for bid): medium passes; hard and
// brutal sell their least useful card when it is worth less than an unseen
// card, by silent auction (the buyers do not see it). The cache lot: medium
// the first cache card once around to the right; hard and brutal the cache
// card the others would value most (a Karama, else any), silently with four
// or more players (each bids blind once) and else once around.
size_t Brain::richese_lot() {
  const DecisionInfo* d = decision(ActionKind::RicheseLot);
  const bool market = d && d->topic == Topic::BlackMarket;
  if (!d) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
  if (market) {
    if (!hard()) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
    const size_t i = best<action::RicheseLot>([&](const action::RicheseLot& a) {
      if (a.auction != 3) return kNeg;
      const double v = card_value(a.card);
      return v < unknown_card_value() - 0.5 ? 10.0 - v : kNeg;
    });
    return i != npos ? i : or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; }));
  }
  const int players = k_.num_seats;
  return or_fallback(best<action::RicheseLot>([&](const action::RicheseLot& a) {
    if (!hard()) return a.auction == 1 ? 100.0 - a.card : kNeg;
    const bool silent = players >= 4;
    if ((a.auction == 3) != silent || (!silent && a.auction != 1)) return kNeg;
    return a.card < data::kNumAllTreacheryCards && data::treachery_card(a.card).kind == data::TreacheryKind::Karama ? 2.0 : 1.0;
  }));
}

// First (the others still hold their spice): medium and brutal; hard last.
size_t Brain::richese_timing() {
  const bool first = p_ != Profile::Hard;
  return or_fallback(find_kind<action::RicheseCacheTiming>([first](const action::RicheseCacheTiming& a) { return a.first == first; }));
}

// A bid on a Richese lot: the Richese pass on their own lot (their spice would
// go to the Emperor or the bank). Once around and normal: the cheapest bid
// up to the card's worth (medium: 3); silent: one blind bid of about two
// thirds of its worth (hard and brutal), 2 (medium), within the budget.
size_t Brain::richese_bid() {
  auto pass = [&] { return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::Pass; })); };
  if (me() == Faction::Richese || !has_kind(ActionKind::Bid)) return pass();
  double value = k_.bid_card != kNone8 ? card_value(k_.bid_card) : unknown_card_value();
  if (!hard()) value = 3;
  if (static_cast<int>(k_.hand.size()) >= hand_limit_of(me()) - 1) value -= 1.5;
  const int budget = spice() - reserve();
  if (k_.richese_auction == 3) {
    const int want = std::min(budget, hard() ? static_cast<int>(value * 2 / 3) : 2);
    if (want <= 0) return pass();
    return or_fallback(best<action::Bid>([&](const action::Bid& a) { return a.karama || a.amount > want ? kNeg : 1.0 * a.amount; }));
  }
  const size_t i = best<action::Bid>([&](const action::Bid& a) {
    if (a.karama || a.amount > budget || a.amount > value) return kNeg;
    return value - a.amount;
  }, 0.0);
  return i != npos ? i : pass();
}

// The special Karama purchase: hard and brutal buy the cache's Karama (or,
// failing that, any card in the last two turns) when the spice above the
// reserve pays for it; medium in the last turn only.
size_t Brain::richese_buy() {
  const bool late = k_.turn >= k_.max_turns - (hard() ? 1 : 0);
  if (spice() - 3 < (hard() ? reserve() : 0)) return npos;
  return best<action::RicheseBuy>([&](const action::RicheseBuy& a) {
    const bool karama = a.card < data::kNumAllTreacheryCards && data::treachery_card(a.card).kind == data::TreacheryKind::Karama;
    if (hard() && karama) return 2.0;
    return late ? 1.0 : kNeg;
  }, 0.0);
}

// The gift: a Richese card to the ally when the Richese hand is full (medium),
// or one short of full (hard and brutal), the least useful first.
size_t Brain::richese_gift() {
  if (static_cast<int>(k_.hand.size()) < hand_limit_of(me()) - (hard() ? 1 : 0)) return npos;
  return best<action::RicheseGift>([&](const action::RicheseGift& a) { return 10.0 - card_value(a.card); }, 0.0);
}

// The voluntary No-Field reveal (own view: the marker's value): when the
// marker sits on spice and would collect more as forces (every profile), or,
// hard and brutal, when the ally has no shipment yet and the marker is worth
// little (the ally may then ship a token itself).
size_t Brain::richese_reveal() {
  const uint8_t loc = k_.no_field_location;
  if (loc >= data::kNumLocations || k_.no_field_value < 0) return npos;
  const int forces = std::min<int>(k_.no_field_value, k_.mine().reserves[0]);
  if (k_.phase == Phase::ShipmentMovement && k_.spice_on_board[loc] > 2 && forces > 1) return find_kind<action::RicheseReveal>([](const auto&) { return true; });
  return npos;
}

// A No-Field shipment in forces: the Richese's own counts as the forces it
// may become (at least the one it stands for); the ally's as the forces it
// becomes at once.
int Brain::token_forces(const action::Ship& a) const {
  const int res = k_.mine().reserves[0] + k_.mine().reserves[1];
  if (me() == Faction::Richese) return std::max(1, std::min<int>(a.no_field, k_.mine().reserves[0]));
  return std::min<int>(a.no_field, res);
}

// The Auditor's look: medium lets CHOAM look; hard pays to cancel it when
// its hand holds a real weapon or defense and the spice is above its
// reserve; brutal whenever it can spare the spice above its reserve.
size_t Brain::choam_audit() {
  bool secret = false;
  for (uint8_t c : k_.hand) secret |= c < data::kNumAllTreacheryCards && (is_real_weapon(c) || is_real_defense(c));
  const size_t pay = find_kind<action::Respond>([](const action::Respond& r) { return r.accept; });
  const size_t let = find([](const Action& a) { return a.kind() == ActionKind::Pass; });
  const bool spare = spice() - 2 >= reserve();
  if (pay != npos && hard() && spare && (secret || brutal())) return pay;
  return let != npos ? let : or_fallback(npos);
}

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

// ---- windows and small answers --------------------------------------------------

size_t Brain::respond() {
  const DecisionInfo* d = decision(ActionKind::Respond);
  const Topic topic = d ? d->topic : Topic::None;
  auto respond_flag = [&](bool flag) {
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept == flag && a.card == kNone8; }));
  };
  // Leader Skills: draw two skill cards for a leader revived without a skilled one: yes.
  if (topic == Topic::SkillDraw) return respond_flag(true);
  // 2.04.11 the Fremen grant their ally a free revival: yes.
  if (topic == Topic::GrantAllyRevival) return respond_flag(true);
  // 2.04.10 the Fremen protect their ally's forces from the sandworm: yes.
  if (topic == Topic::ProtectAllyFromWorm) return respond_flag(true);
  // 2.05.10 captured leader: hard captures (a leader for the pool), medium kills (2 spice).
  if (topic == Topic::HarkonnenCapture)
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept == hard(); }));
  // 3.01.11.01 a Karama cancel window: the view names the ability (not its text).
  if (k_.cancel_ability != kNone8) return karama_cancel();
  // 3.01.22 a free-form Truthtrance question: its text is not in the view, so
  // the bot cannot know the truthful answer; it answers "no".
  if (d && d->window == WindowKind::Truthtrance) return respond_flag(false);
  // 1.14.04 give cards back: the least useful card first.
  if (size_t i = best<action::Respond>([&](const action::Respond& a) { return a.card == kNone8 ? kNeg : -card_value(a.card); }); i != npos)
    return i;
  // Any other window: decline.
  return respond_flag(false);
}

// 3.01.11.01: cancel an ability as it is used (a KaramaCancel window; the
// view names the ability and its user: View.cancel_ability, cancel_faction). Medium never cancels. Hard and
// brutal weigh the cancellation (cancel_value) against the Karama kept, and
// cancel with a nearly worthless card (a Bene Gesserit worthless card)
// whenever the cancellation is worth anything; never their own or their
// ally's ability.
size_t Brain::karama_cancel() {
  auto decline = [&]() {
    return or_fallback(find_kind<action::Respond>([](const action::Respond& a) { return !a.accept; }));
  };
  if (!hard() || k_.cancel_ability == kNone8 || k_.cancel_faction >= kNumFactions) return decline();
  const auto user = static_cast<Faction>(k_.cancel_faction);
  if (user == me() || k_.is_ally(user)) return decline();
  const size_t card = best<action::Respond>(
      [&](const action::Respond& a) { return a.accept && a.card != kNone8 ? -karama_keep(a.card) : kNeg; });
  if (card == npos) return decline();
  const double keep = karama_keep(legal_[card].as<action::Respond>().card);
  const double v = cancel_value(k_.cancel_ability, user);
  if (v > 0 && (keep <= 1.0 || v > keep)) return card;
  return decline();
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

// What cancelling `ability` as `user` uses it is worth to this seat, in
// spice: 6 when the user (or its ally) is close to winning; the battle
// abilities 5 more when this seat is the user's opponent in the battle under
// way (the Voice, Prescience, the Kwisatz Haderach; the capture of its
// leader).
double Brain::cancel_value(uint8_t ability, Faction user) const {
  double v = threat(user) ? 6.0 : 0.0;
  if (const uint8_t ally = k_.fac[static_cast<int>(user)].ally; ally < kNumFactions && threat(static_cast<Faction>(ally))) v = 6.0;
  const bool battle_ability = ability == ab::kBgVoice || ability == ab::kAtreidesPrescience || ability == ab::kKwisatzHaderach ||
                              ability == ab::kHarkonnenCapture;
  if (battle_ability && k_.battle && (k_.seat == k_.aggressor || k_.seat == k_.defender) && opponent() == user) v += 5.0;
  return v;
}

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

size_t Brain::advisor() {
  if (hard()) {
    const size_t i = find_kind<action::SendSpiritualAdvisor>(
        [](const action::SendSpiritualAdvisor& a) { return a.to != data::polar_sink() && is_stronghold_loc(a.to); });
    if (i != npos) return i;
  }
  return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::SendSpiritualAdvisor; }));
}

size_t Brain::choose_battle() {
  if (!hard()) return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::ChooseBattle; }));
  const size_t i = best<action::ChooseBattle>([&](const action::ChooseBattle& a) {
    const auto opp = static_cast<Faction>(a.opponent);
    return static_cast<double>(k_.strength_in(me(), a.territory, opp) - k_.strength_in(opp, a.territory, me()));
  });
  if (i == npos) return fallback();
  // 3.01.11.02: first prevent the opponent's battle ability when that is worth the Karama.
  const auto& battle = legal_[i].as<action::ChooseBattle>();
  if (const size_t p = karama_prevent_battle(static_cast<Faction>(battle.opponent), battle.territory); p != npos) return p;
  return i;
}

// ---- Karama prevention (3.01.11.02) ----------------------------------------------------

// Hard and brutal, as the aggressor choosing its next battle (the battle has
// not begun, so a prevention is for this one): prevent the opponent's
// ability that weighs most in it, when it is worth more than the card kept
// (a Karama 4, a Bene Gesserit worthless card 0.5). Worth, in spice: the
// Voice and Prescience 3, the Kwisatz Haderach and the capture 2, the
// Fremen's battle-hardened dial 1.5 (advanced), each Sardaukar or Fedaykin
// in the territory 1 (they count one instead of two); half as much again
// in a stronghold. A prevented ability is no longer offered, so the
// decision is asked again and the battle chosen.
size_t Brain::karama_prevent_battle(Faction opp, TerritoryId t) {
  if (!hard() || t >= data::kNumTerritories) return npos;
  int elites = 0;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) elites += k_.forces[static_cast<int>(opp)][ter.first_location + i][1];
  const double stakes = is_stronghold(t) ? 1.5 : 1.0;
  auto worth = [&](uint8_t ability) -> double {
    switch (ability) {
      case ab::kBgVoice:
      case ab::kAtreidesPrescience: return 3.0;
      case ab::kKwisatzHaderach:
      case ab::kHarkonnenCapture: return k_.advanced ? 2.0 : 0.0;
      case ab::kFremenBattleHardened: return k_.advanced ? 1.5 : 0.0;
      case ab::kEmperorSardaukar:
      case ab::kFremenFedaykin: return k_.advanced ? 1.0 * elites : 0.0;
      default: return 0.0;
    }
  };
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || !(a.value & kKaramaPreventBit) || (a.value & kKaramaGuildRatesBit) || a.target != static_cast<uint8_t>(opp))
          return kNeg;
        return stakes * worth(static_cast<uint8_t>(a.value & 0x3F)) - karama_keep(a.card);
      },
      0.0);
}

// Brutal, at its own shipment: prevent the next half-price shipment of the
// Guild or the Fremen's next two-territory movement when that faction is
// close to winning (threat) and has not shipped yet this phase (worth 5).
size_t Brain::karama_prevent_shipping() {
  if (!brutal()) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || !(a.value & kKaramaPreventBit) || (a.value & kKaramaGuildRatesBit) || a.target >= kNumFactions)
          return kNeg;
        const auto f = static_cast<Faction>(a.target);
        const uint8_t ability = a.value & 0x3F;
        if (ability != ab::kGuildHalfPrice && ability != ab::kFremenMovement) return kNeg;
        if (!threat(f) || k_.fac[a.target].shipped) return kNeg;
        return 5.0 - karama_keep(a.card);
      },
      0.0);
}

// ---- bribes (1.12) ---------------------------------------------------------------------

// Hard and brutal, asked to bid: when an enemy is close to winning (threat)
// and this seat is not, pay the strongest other faction that can contest it
// (not the threat's ally, with forces on the planet) a few spice above the
// reserve (hard 3, brutal 4; at least 2, keeping 2 more than the reserve),
// so that it ships and fights next turn; the note says so. Once per
// recipient and collection: not while spice already waits in front of its
// shield (bribe_timing=mentat_pause; under immediate no bribe, for want of
// that public mark). Built from the Bribe decision (its options, its range).
bool Brain::offer_bribe() {
  if (!hard()) return false;
  const DecisionInfo* d = decision(ActionKind::Bribe);
  if (!d || k_.ruling("bribe_timing") == "immediate") return false;
  if (held_alone(me()) >= 2) return false;
  Faction t = me();
  for (int f = 0; f < kNumFactions; ++f)
    if (threat(static_cast<Faction>(f)) && (t == me() || held_alone(static_cast<Faction>(f)) > held_alone(t))) t = static_cast<Faction>(f);
  if (t == me()) return false;
  const uint8_t t_ally = k_.fac[static_cast<int>(t)].ally;
  Faction helper = me();
  double top = 0;
  for (uint16_t o : d->options) {
    if (o >= kNumFactions) continue;
    const auto f = static_cast<Faction>(o);
    if (f == t || o == t_ally || k_.is_ally(f) || k_.forces_on_board(f) < 3) continue;
    if (power(f) > top) {
      top = power(f);
      helper = f;
    }
  }
  if (helper == me() || k_.fac[static_cast<int>(helper)].bribes > 0) return false;
  const int amount = std::min({brutal() ? 4 : 3, spice() - reserve() - 2, d->max});
  if (amount < std::max(2, d->min)) return false;
  bribe_ = action::Bribe{.to = static_cast<uint8_t>(helper), .amount = static_cast<uint16_t>(amount),
                         .note = "to stop " + std::string(faction_name(t))};
  return true;
}

// ---- alliances (1.10.01) ------------------------------------------------------------

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

// How much this seat wants `f` as its ally (kNeg: not at all). An alliance
// needs four strongholds to win instead of three (1.10.02.02), so a faction
// holding two strongholds alone stays free. Otherwise: the partner's strength
// relative to ours, the strongholds both hold, and what the partner's
// faction gives its ally (the Guild's half-price shipping and cross-shipping,
// the Fremen's free revival and sandworm protection, the Atreides'
// Prescience, ...). Brutal also wants an ally when a third faction is close
// to winning.
double Brain::alliance_value(Faction f) const {
  if (f == me() || !k_.has(f) || k_.fac[static_cast<int>(f)].ally != kNoFaction) return kNeg;
  const int mine = held_alone(me()), theirs = held_alone(f);
  if (mine >= 2) return kNeg;
  double v = std::min(2.0, power(f) / power(me()));
  v += 0.4 * (mine + theirs);
  switch (f) {
    case Faction::Guild: v += 0.5; break;
    case Faction::Fremen: v += 0.4; break;
    case Faction::Atreides:
    case Faction::Emperor: v += 0.2; break;
    default: v += 0.1; break;
  }
  if (brutal()) {
    // Brutal stays free while it is the strongest faction on the board and
    // nobody else is close to winning: a win alone is not shared.
    bool threat = false;
    double strongest = 0;
    for (int o = 0; o < kNumFactions; ++o) {
      if (!k_.fac[o].present || o == static_cast<int>(me())) continue;
      strongest = std::max(strongest, power(static_cast<Faction>(o)));
      if (o != static_cast<int>(f) && held_alone(static_cast<Faction>(o)) >= 2) threat = true;
    }
    if (threat) v += 0.3;
    else if (power(me()) >= strongest) return kNeg;
  }
  return v;
}

// 1.02.06 / 1.10.01 the Nexus. Medium allies with the strongest faction while
// it holds fewer than two strongholds alone, accepts any proposal then, and
// never breaks. Hard and brutal weigh each partner (alliance_value): accept
// the best proposal worth 0.8, propose to the best partner worth 1.0 (once:
// the engine allows one proposal per partner per Nexus), and break the
// alliance when this seat holds three strongholds alone and the alliance
// does not hold four (unallied, three win: 1.09.02.02).
size_t Brain::nexus() {
  const size_t pass_i = pass();
  auto stay = [&]() { return or_fallback(pass_i); };
  if (k_.ally() != kNoFaction) {
    if (!hard() || !has_kind(ActionKind::BreakAlliance)) return stay();
    const auto ally = static_cast<Faction>(k_.ally());
    int joint = 0;
    for (auto t : data::strongholds()) joint += k_.controls(me(), t) || k_.controls(ally, t) ? 1 : 0;
    if (held_alone(me()) >= 3 && joint < 4)
      return or_fallback(find([](const Action& a) { return a.kind() == ActionKind::BreakAlliance; }));
    return stay();
  }
  if (!hard()) {
    if (held_alone(me()) >= 2) return stay();
    if (size_t i = find([](const Action& a) { return a.kind() == ActionKind::AcceptAlliance; }); i != npos) return i;
    return stay();
  }
  if (size_t i = best<action::AcceptAlliance>([&](const action::AcceptAlliance& a) { return alliance_value(static_cast<Faction>(a.with)); }, 0.8);
      i != npos)
    return i;
  if (!brutal()) return stay();
  Faction top = me();
  double tv = 1.0;
  for (int f = 0; f < kNumFactions; ++f) {
    const double v = alliance_value(static_cast<Faction>(f));
    if (v > tv) {
      tv = v;
      top = static_cast<Faction>(f);
    }
  }
  if (top == me()) return stay();
  return or_fallback(find_kind<action::ProposeAlliance>([&](const action::ProposeAlliance& a) { return a.with == static_cast<uint8_t>(top); }));
}

// ---- sandworms and the Guild -----------------------------------------------------------

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

// 2.06.12: the Guild waits and moves last (it sees every other shipment first).
size_t Brain::guild_timing() {
  return or_fallback(find_kind<action::GuildTiming>([](const action::GuildTiming& a) { return !a.now; }));
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

// ---- the Richese cards (core/cards/): Distrans, the Nullentropy Box -------------------

// From this seat's view only (its hand, its spice, the public discard pile and
// hand sizes). The Box: when the public discard pile holds a card worth more
// than the Box and its fee (medium 6, hard and brutal 5), the hand has room
// and 2 spice stay spare. Distrans: with a full hand, the worst card (worth at
// most 1) to the enemy with the most cards whose hand is not full (it fills a
// slot it could buy with, and frees two of this seat's).
size_t Brain::richese_cards() {
  // Portable Snooper after the reveal (offered only then): when the
  // opponent's revealed weapon is poison, or a Mirror Weapon copying this
  // plan's poison weapon.
  if (k_.phase == Phase::Battle && (my_side() == 0 || my_side() == 1)) {
    const PlanInfo& o = k_.plan[1 - my_side()];
    const PlanInfo& mine = k_.plan[my_side()];
    const bool poison = (o.has_weapon && o.weapon_card != kNone8 && weapon_class(category(o.weapon_card)) == 2) ||
                        (o.weapon_card != kNone8 && is_mirror(o.weapon_card) && mine.weapon_card != kNone8 &&
                         weapon_class(category(mine.weapon_card)) == 2);
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return poison && kind(a.card) == TreacheryKind::PortableSnooper ? 1.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  // Residual Poison (offered only in this seat's battle, before the reveal): at once.
  if (k_.phase == Phase::Battle) {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::ResidualPoison ? 1.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  // The Juice of Sapho (PlayCard.value 1 aggressor, 3 go_last; core/cards/juice_of_sapho.cpp), offered
  // only when it would act: the defender of the battle being fought becomes its aggressor (it wins a
  // tie); at its own shipment turn, before acting, a seat goes last (it sees every other shipment).
  {
    const bool defending = k_.phase == Phase::Battle && k_.defender >= 0 && k_.seat == k_.defender;
    const bool my_ship_turn = k_.phase == Phase::ShipmentMovement && has_kind(ActionKind::Ship);
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          if (kind(a.card) != TreacheryKind::JuiceOfSapho) return kNeg;
          if (a.value == 1 && defending) return 1.0;
          if (a.value == 3 && my_ship_turn) return 1.0;
          return kNeg;
        },
        0.0);
    if (i != npos) return i;
  }
  // The Semuta Drug (ruling semuta_timing = next_action: offered until the next action): a card worth more than 2.
  {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::SemutaDrug ? card_value(a.target) - 2.0 : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  const int limit = hand_limit_of(me());
  const double want = hard() ? 5.0 : 6.0;
  double best_in_pile = 0;
  for (uint8_t c : k_.discard)
    if (c < data::kNumAllTreacheryCards && kind(c) != TreacheryKind::NullentropyBox) best_in_pile = std::max(best_in_pile, card_value(c));
  const bool room = static_cast<int>(k_.hand.size()) < limit;
  if (room && best_in_pile >= want && spice() >= 2 + std::min(2, reserve())) {
    const size_t i = best<action::PlayCard>(
        [&](const action::PlayCard& a) { return kind(a.card) == TreacheryKind::NullentropyBox ? best_in_pile : kNeg; }, 0.0);
    if (i != npos) return i;
  }
  if (static_cast<int>(k_.hand.size()) < limit) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (kind(a.card) != TreacheryKind::Distrans || a.target >= kNumFactions || a.value == a.card) return kNeg;
        const auto f = static_cast<Faction>(a.target);
        if (k_.is_ally(f) || card_value(a.value) > 1) return kNeg;
        return 10.0 + k_.fac[a.target].hand_count - card_value(a.value);
      },
      0.0);
}

// The Nullentropy Box's search: the most valuable eligible card.
size_t Brain::discard_search() {
  return or_fallback(best<action::Respond>([&](const action::Respond& a) { return a.card == kNone8 ? kNeg : card_value(a.card); }));
}

// ---- Truthtrance (3.01.22) ------------------------------------------------------------

// The engine offers two questions to each other faction: "do you hold a
// Karama?" and a free-form one (which bots never ask: they could not read the
// answer's meaning). Medium and up ask the Karama question in the Bidding
// phase when the hand is nearly full (the card frees a slot for a purchase),
// of the enemy with the most cards; hard and brutal also when the card up for
// bid is one they know they want. The answer is public (the view's
// truthtrance); no policy reads it yet (a bot keeps no memory between
// decisions, and the engine offers no question about traitors or weapons).
size_t Brain::truthtrance() {
  const int limit = hand_limit_of(me());
  const bool nearly_full = static_cast<int>(k_.hand.size()) >= limit - 1;
  const bool wanted = hard() && k_.bid_card != kNone8 && card_value(k_.bid_card) >= 6;
  if (!nearly_full && !wanted) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::Truthtrance) return kNeg;
        if ((a.value >> 4) != 1) return kNeg;  // the Karama question only
        const auto f = static_cast<Faction>(a.value & 15);
        if (k_.is_ally(f)) return kNeg;
        return static_cast<double>(k_.fac[static_cast<int>(f)].hand_count);
      },
      0.5);
}

// ---- Karama (3.01.11) -------------------------------------------------------------------

bool Brain::karama_like(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return false;
  if (kind(card) == TreacheryKind::Karama) return true;
  return is_worthless(card) && k_.worthless_is_karama();
}

double Brain::karama_keep(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return 0;
  if (kind(card) != TreacheryKind::Karama) return 0.5;  // a Bene Gesserit worthless card
  return hard() ? 4.0 : 4.5;
}

uint8_t Brain::cheapest_karama() const {
  uint8_t out = kNone8;
  for (auto c : k_.hand)
    if (karama_like(c) && (out == kNone8 || karama_keep(c) < karama_keep(out))) out = c;
  return out;
}

// 3.01.11.03: is this seat's shipment already at Guild rates by Karama? The
// view does not say; a Karama (or Bene Gesserit worthless card) on top of the
// discard pile at this seat's shipment step, while it may not buy Guild rates
// with a card it still holds, means it just did.
bool Brain::half_price_now() const {
  if (k_.phase != Phase::ShipmentMovement || k_.discard.empty() || !karama_like(k_.discard.back())) return false;
  if (cheapest_karama() != kNone8 &&
      find_kind<action::PlayCard>([&](const action::PlayCard& a) { return karama_like(a.card) && (a.value & 128); }) != npos)
    return false;
  return true;
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

size_t Brain::bid() {
  // 1.14.04 the Harkonnen Karama power (hard, brutal): take the hand of the
  // enemy holding the most cards (at least four) and give back as many of
  // the worst cards.
  if (hard() && me() == Faction::Harkonnen) {
    const size_t h = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          // value 0: the power (128 buys Guild rates, 64 + ability prevents one).
          if (!karama_like(a.card) || a.value != 0 || a.target >= kNumFactions) return kNeg;
          const auto f = static_cast<Faction>(a.target);
          if (f == me() || k_.is_ally(f)) return kNeg;
          const int n = k_.fac[a.target].hand_count;
          return 1.5 * n - karama_keep(a.card);
        },
        1.5);
    if (h != npos) return h;
  }
  if (size_t t = truthtrance(); t != npos) return t;
  if (!has_kind(ActionKind::Bid)) return fallback();
  double value = k_.bid_card != kNone8 ? card_value(k_.bid_card) : unknown_card_value();
  if (!hard()) value = k_.hand.empty() ? 5 : 3;
  if (me() == Faction::Harkonnen) value += 1.5;  // 2.05.06 a bonus card with each one bought
  if (static_cast<int>(k_.hand.size()) >= hand_limit_of(me()) - 1) value -= 1.5;
  if (hard() && k_.turn >= k_.max_turns - 1) value -= 1;
  const int budget = spice() - reserve();
  // The cheapest winning bid in spice if the card is worth it.
  const size_t i = best<action::Bid>(
      [&](const action::Bid& a) {
        if (a.karama) return kNeg;
        if (a.amount > budget || a.amount > value) return kNeg;
        return value - a.amount;
      },
      0.0);
  // 3.01.11.04 a Karama bid (the card is bought without paying, the Karama
  // discarded): when the card is worth more than the Karama kept and more
  // than the best spice bid gives. The highest Karama bid offered (beyond
  // one's spice where possible), so that it is hard to outbid, but never
  // above kKaramaBidCap: two Karama holders would otherwise outbid each
  // other for free up to the largest bid.
  constexpr int kKaramaBidCap = 12;
  const uint8_t kc = cheapest_karama();
  if (kc != kNone8) {
    const double spice_net = i == npos ? 0.0 : value - legal_[i].as<action::Bid>().amount;
    const double karama_net = value - karama_keep(kc);
    if (karama_net > 0 && karama_net > spice_net + 0.5) {
      const size_t kb = best<action::Bid>([&](const action::Bid& a) {
        return a.karama && a.amount <= kKaramaBidCap ? static_cast<double>(a.amount) : kNeg;
      });
      if (kb != npos) return kb;
    }
  }
  return or_fallback(i);
}

size_t Brain::revive() {
  const DecisionInfo* d = decision(ActionKind::Revive);
  int free = data::faction_setup(me()).free_revival;
  if (d && d->amount >= 0) free = d->amount;
  int pool_leaders = 0;
  for (int l = 0; l < data::kNumLeaders; ++l)
    if (data::leader(static_cast<LeaderId>(l)).faction == me() && k_.leaders[l].known && k_.leaders[l].zone == LeaderZone::Pool &&
        k_.leaders[l].holder == static_cast<uint8_t>(me()))
      ++pool_leaders;
  const int sp = spice();
  const int keep = reserve();
  auto score = [&](const action::Revive& a) -> double {
    const int n = a.forces + a.special;
    double cost = 2.0 * std::max(0, n - free);
    double v = std::min(n, free) * 2.5 + std::max(0, n - free) * (hard() && sp > 12 ? 2.4 : 1.0) + a.special * 1.0;
    if (a.leader < data::kNumLeaders) {
      const int str = data::leader(a.leader).strength;
      cost += str;
      v += str * (pool_leaders <= 1 ? 1.8 : pool_leaders <= 2 ? 1.1 : 0.5);
    }
    if (cost > 0 && sp - cost < keep) return kNeg;
    return v - cost;
  };
  size_t i = best<action::Revive>(score, 0.0);
  const int tanks = k_.mine().tanks[0] + k_.mine().tanks[1];
  // 1.14.02 the Emperor's Karama power (hard, brutal; once per game): a
  // leader or up to three forces free, when worth more than the card kept.
  if (hard() && me() == Faction::Emperor) {
    const size_t e = best<action::PlayCard>(
        [&](const action::PlayCard& a) {
          // Not Guild rates (128) nor a prevention (64 + ability, 3.01.11.02).
          if (!karama_like(a.card) || (a.value & (kKaramaGuildRatesBit | kKaramaPreventBit))) return kNeg;
          double v;
          if (a.target < data::kNumLeaders) {
            v = data::leader(a.target).strength * (pool_leaders <= 1 ? 1.8 : 0.8) + (pool_leaders <= 1 ? 3.0 : 0.0);
          } else {
            const int n = (a.value & 15) + (a.value >> 4);
            v = 2.0 * n + (a.value >> 4) * 1.5;  // 2 spice a force saved; Sardaukar are worth more
          }
          return v - karama_keep(a.card);
        },
        2.0);
    if (e != npos) return e;
  }
  // A Tleilaxu Ghola (3.01.20) when many forces or a needed leader are in the
  // tanks (medium: only a leader when none is left in its pool).
  const size_t g = best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (a.card >= data::kNumTreacheryCards || kind(a.card) != TreacheryKind::TleilaxuGhola) return kNeg;
        if (!hard()) return a.target < data::kNumLeaders && pool_leaders == 0 ? 5.0 + data::leader(a.target).strength : kNeg;
        if (a.target < data::kNumLeaders) return pool_leaders <= 1 ? 6.0 + data::leader(a.target).strength : kNeg;
        const int n = (a.value & 15) + (a.value >> 4);
        return tanks >= 6 ? n * 1.5 : kNeg;
      },
      4.0);
  if (g != npos) return g;
  return or_fallback(i);
}

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

// ---- battle ----------------------------------------------------------------------------

std::vector<uint8_t> Brain::opponent_leaders(Faction opp) const {
  std::vector<uint8_t> out;
  for (int l = 0; l < data::kNumLeaders; ++l) {
    const auto& L = k_.leaders[l];
    if (!L.known || L.holder != static_cast<uint8_t>(opp)) continue;
    if (L.zone == LeaderZone::Pool || L.zone == LeaderZone::Battlefield) out.push_back(static_cast<uint8_t>(l));
  }
  return out;
}

double Brain::territory_value(TerritoryId t) const {
  double v = is_stronghold(t) ? 10 + stronghold_card_worth(t) : 2;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) v += 0.5 * k_.spice_on_board[ter.first_location + i];
  return v;
}

// Hard: a point estimate of the opponent (all its forces dialed, its
// strongest leader, a weapon when it holds cards).
double Brain::plan_value_simple(const action::BattlePlan& a) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  double opp_units = k_.strength_in(opp, t, me());
  if (k_.advanced && opp != Faction::Fremen) opp_units *= 0.75;
  const auto leaders = opponent_leaders(opp);
  double opp_leader = 0;
  int traitors = 0;
  for (auto l : leaders) {
    opp_leader = std::max<double>(opp_leader, data::leader(l).strength + opponent_skill_bonus(opp, l));
    if (std::find(k_.traitors.begin(), k_.traitors.end(), l) != k_.traitors.end()) ++traitors;
  }
  const double p_traitor = leaders.empty() ? 0.0 : static_cast<double>(traitors) / leaders.size();
  const int opp_hand = k_.fac[static_cast<int>(opp)].hand_count;
  const double p_weapon = std::min(0.85, 0.3 * opp_hand);

  double mine = (k_.advanced && me() != Faction::Fremen && a.spice == 0) ? a.dial * 0.5 : a.dial;
  double leader = leader_strength(a);
  if (a.kwisatz_haderach) leader += 2;  // the Kwisatz Haderach
  const bool weapon = a.weapon != kNone8 && is_real_weapon(a.weapon);
  const bool defense = a.defense != kNone8 && is_real_defense(a.defense);
  // Carthag's card: a defense that also stops poison stops most weapons.
  const double p_my_leader_dies = (a.leader < data::kNumLeaders) ? p_weapon * (defense ? (defense_stops_poison(a) ? 0.15 : 0.45) : 1.0) : 0.0;
  // A Mirror Weapon kills only when the opponent plays a weapon.
  const double p_opp_leader_dies = weapon ? 0.6 : is_mirror(a.weapon) ? 0.6 * p_weapon : 0.0;
  const double my_total = mine + leader * (1 - p_my_leader_dies) - bureaucrat_penalty(opp);
  const double opp_total = opp_units + opp_leader * (1 - p_opp_leader_dies);
  // A tie goes to the aggressor, or to the holder of Habbanya Sietch's card there.
  const int habbanya = battle_card(card_strongholds().habbanya);
  const double margin = my_total - opp_total + (habbanya ? 0.25 * habbanya : my_side() == 0 ? 0.25 : -0.25);
  double p_win = 1.0 / (1.0 + std::exp(-margin * 0.9));
  p_win = p_traitor + (1 - p_traitor) * p_win;
  int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  // Sietch Tabr's card: the winner collects the opponent's dial (about its strength there, less when it saves forces).
  const double tabr = battle_card(card_strongholds().tabr) == 1 ? 0.5 * opp_units : 0.0;
  const double win = territory_value(t) + 0.5 * opp_forces - 0.6 * a.dial + tabr;
  const double lose = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless;
  const double base = a.leader < data::kNumLeaders ? data::leader(a.leader).strength : 0;  // what its death costs
  return p_win * win + (1 - p_win) * lose - p_my_leader_dies * (base + 1) - own_battle_spice(a);
}

// Brutal: the expected outcome over the opponent's possible plans: each of
// its available leaders, its weapon and defense classes (from the cards this
// seat has not seen), and a full or empty dial.
double Brain::plan_value_expected(const action::BattlePlan& a) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  const int opp_max = k_.strength_in(opp, t, me());
  const bool opp_spiced = k_.advanced && opp != Faction::Fremen;
  // Unknown cards by class.
  const auto pool = unknown_pool();
  double wc[4] = {0, 0, 0, 0}, dc[3] = {0, 0, 0};
  int unknown = 0;
  for (size_t c = 0; c < pool.size(); ++c) {
    if (!pool[c]) continue;
    ++unknown;
    wc[weapon_class(category(static_cast<uint8_t>(c)))] += 1;
    dc[defense_class(category(static_cast<uint8_t>(c)))] += 1;
  }
  const int h = k_.fac[static_cast<int>(opp)].hand_count;
  auto p_any = [&](double count) { return unknown ? 1.0 - std::pow(1.0 - count / unknown, h) : 0.0; };
  const double pw_any = p_any(wc[1] + wc[2] + wc[3]);
  const double pd_any = p_any(dc[1] + dc[2]);
  double pw[4], pd[3];
  const double wsum = std::max(1.0, wc[1] + wc[2] + wc[3]), dsum = std::max(1.0, dc[1] + dc[2]);
  pw[0] = 1 - pw_any;
  for (int i = 1; i < 4; ++i) pw[i] = pw_any * wc[i] / wsum;
  pd[0] = 1 - pd_any;
  for (int i = 1; i < 3; ++i) pd[i] = pd_any * dc[i] / dsum;

  // A card known to be in the opponent's hand raises its class's weight to 0.6.
  auto held = [](double* p, int n, int c) {
    if (c <= 0 || p[c] >= 0.6) return;
    const double rest = 1.0 - p[c];
    for (int i = 0; i < n; ++i) p[i] = i == c ? 0.6 : (rest > 0 ? p[i] * 0.4 / rest : 0.0);
  };
  // The Mentat's question: the opponent showed the weapon asked about, so it holds one.
  if (k_.mentat_answered && k_.mentat_asker == me() && k_.mentat_shown < data::kNumAllTreacheryCards &&
      k_.mentat_weapon < data::kNumAllTreacheryCards && kind(k_.mentat_shown) == kind(k_.mentat_weapon))
    held(pw, 4, weapon_class(category(k_.mentat_shown)));
  // CHOAM's Auditor saw these cards in this opponent's hand: still there unless discarded since.
  if (me() == Faction::Choam && k_.choam_audit_of == static_cast<uint8_t>(opp))
    for (const uint8_t c : k_.choam_audit_cards)
      if (c < data::kNumAllTreacheryCards && std::find(k_.discard.begin(), k_.discard.end(), c) == k_.discard.end()) {
        held(pw, 4, weapon_class(category(c)));
        held(pd, 3, defense_class(category(c)));
      }
  auto leaders = opponent_leaders(opp);
  if (leaders.empty()) leaders.push_back(kNone8);
  // 2.01.08 Prescience: the opponent's committed answer, when this seat asked for it.
  int known_dial = -1;
  const bool asked = me() == Faction::Atreides || k_.is_ally(Faction::Atreides);
  if (asked && k_.prescience_element >= 0 && k_.prescience_value >= 0) {
    const int v = k_.prescience_value;
    switch (k_.prescience_element) {
      case 0: leaders.assign(1, v < data::kNumLeaders ? static_cast<uint8_t>(v) : kNone8); break;
      case 1: {
        const int c = v < data::kNumAllTreacheryCards ? weapon_class(category(static_cast<uint8_t>(v))) : 0;
        for (int i = 0; i < 4; ++i) pw[i] = i == c ? 1.0 : 0.0;
        break;
      }
      case 2: {
        const int c = v < data::kNumAllTreacheryCards ? defense_class(category(static_cast<uint8_t>(v))) : 0;
        for (int i = 0; i < 3; ++i) pd[i] = i == c ? 1.0 : 0.0;
        break;
      }
      case 3: known_dial = v; break;
    }
  }

  const int my_w_card = a.weapon != kNone8 ? weapon_class(category(a.weapon)) : 0;
  const int my_d = a.defense != kNone8 ? defense_class(category(a.defense)) : 0;
  const bool my_leader = a.leader < data::kNumLeaders;
  const double my_str = my_leader ? leader_strength(a) : 0;
  const int my_base = my_leader ? data::leader(a.leader).strength : 0;  // what its death costs
  const int kh = a.kwisatz_haderach ? 2 : 0;
  const double my_units2 = (k_.advanced && me() != Faction::Fremen && a.spice == 0) ? a.dial : 2.0 * a.dial;
  const int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  const int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  const double tv = territory_value(t);
  const bool aggressor = my_side() == 0;
  const bool lasgun_shield_me = my_w_card == 3 || my_d == 1;
  const int habbanya = battle_card(card_strongholds().habbanya);   // a tie goes to its holder there
  const bool tie_mine = habbanya ? habbanya == 1 : aggressor;
  const bool tabr = battle_card(card_strongholds().tabr) == 1;     // the winner collects the opponent's dial
  const bool carthag = defense_stops_poison(a);          // the defense also stops poison

  double ev = 0;
  for (auto ol : leaders) {
    const double pl = 1.0 / leaders.size();
    const bool traitor = ol != kNone8 && std::find(k_.traitors.begin(), k_.traitors.end(), ol) != k_.traitors.end();
    if (traitor) {
      ev += pl * (tv + 0.6 * opp_forces + (ol != kNone8 ? data::leader(ol).strength : 0));
      continue;
    }
    const int o_str = ol != kNone8 ? data::leader(ol).strength : 0;
    const double o_skill = ol != kNone8 ? opponent_skill_bonus(opp, ol) : 0.0;  // Leader Skills (its view)
    const double bureau2 = ol != kNone8 ? 2.0 * bureaucrat_penalty(opp, ol) : 0.0;
    for (int w = 0; w < 4; ++w)
      for (int d = 0; d < 3; ++d)
        for (int full = 0; full < 2; ++full) {
          const double p_dial = known_dial >= 0 ? (full ? 1.0 : 0.0) : (full ? 0.7 : 0.3);
          const double p = pl * pw[w] * pd[d] * p_dial;
          if (p < 1e-6) continue;
          double v;
          const int my_w = is_mirror(a.weapon) ? w : my_w_card;  // a Mirror Weapon copies the opponent's
          // 3.01.14 Lasgun and Shield: everything in the territory is lost.
          if ((w == 3 && my_d == 1) || (my_w == 3 && d == 1) || (w == 3 && lasgun_shield_me && my_w == 3)) {
            v = -0.6 * my_forces + 0.5 * opp_forces - (my_leader ? my_str + 1 : 0) - 2.0 * (cards - worthless);
            ev += p * v;
            continue;
          }
          const bool my_dead = my_leader && kills(w, my_d) && !(carthag && w == 2);
          const bool opp_dead = ol != kNone8 && kills(my_w, d);
          const int dial = known_dial >= 0 ? known_dial : opp_max;
          double opp_units2 = full ? (opp_spiced ? 1.5 * dial : 2.0 * dial) : 0.0;
          const double mine = my_units2 + (my_leader && !my_dead ? 2.0 * (my_str + kh) : 0.0) - bureau2;
          const double theirs = opp_units2 + (ol != kNone8 && !opp_dead ? 2.0 * (o_str + o_skill) : 0.0);
          const bool win = tie_mine ? mine >= theirs : mine > theirs;
          if (win) {
            v = tv + 0.5 * opp_forces - 0.6 * a.dial + (opp_dead ? o_str : 0) + (my_dead ? my_base : 0) + (tabr && full ? dial : 0);
          } else {
            v = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless;
          }
          if (my_dead) v -= my_base + 1;
          ev += p * v;
        }
  }
  return ev - own_battle_spice(a);
}

size_t Brain::battle_plan() {
  if (!hard()) {
    // Medium: commit (best leader, full dial, weapon and defense) when it looks
    // winnable on forces alone, else spend as little as possible.
    const Faction opp = opponent();
    const TerritoryId t = k_.battle_territory;
    const DecisionInfo* d = decision(ActionKind::BattlePlan);
    const int my_max = d ? d->max : 0;
    const int opp_est = t < data::kNumTerritories ? k_.strength_in(opp, t, me()) : 0;
    int best_leader = 0;
    for (const auto& x : legal_)
      if (const auto* a = x.get_if<action::BattlePlan>(); a && a->leader < data::kNumLeaders)
        best_leader = std::max<int>(best_leader, data::leader(a->leader).strength);
    const bool commit = my_max + best_leader >= opp_est + 2;
    return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) {
      const double leader = leader_strength(a);
      const int cards = (a.weapon != kNone8) + (a.defense != kNone8);
      if (commit) return a.dial * 10.0 + leader * 3 + cards * 2 + (a.spice > 0 ? 1 : 0) - (a.kwisatz_haderach ? 0 : 0.5);
      return -a.dial * 10.0 - leader * 3 - cards * 2 - own_battle_spice(a);
    }));
  }
  // 1.14.01: look at the opponent's plan first when it is worth a Karama.
  if (size_t i = atreides_karama(); i != npos) return i;
  // A plan seen before committing one's own (only by 1.14.01): answer it.
  if (const PlanInfo& o = k_.plan[1 - my_side()]; o.known)
    return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_known(a, o); }));
  if (brutal()) return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_expected(a); }));
  return or_fallback(best<action::BattlePlan>([&](const action::BattlePlan& a) { return plan_value_simple(a); }));
}

// ---- alliance spice (2.03.06 GiveSpice, 1.10.02.05/06 AllyPermission) ------------

// Offered (any time) to an allied seat the game waits for. The legal actions
// carry a few amounts (1 or all; none or all); the bot amends the amount of
// one of them within the decision's range (bot.h). Both policies reach a
// fixed point (nothing more to do once applied), so a seat never loops.
//  * GiveSpice, the Emperor: medium gives one spice at a time while the ally
//    holds fewer than 2 and he holds 8 or more; hard and brutal top a poor
//    ally (under half the target: 6, brutal 8) up to the target, keeping
//    their reserve plus 4 for bids, and never more than half the difference.
//  * AllyPermission: medium lets the ally use up to 3 of its spice above its
//    reserve; hard and brutal grant part of the spice above their reserve
//    (half; brutal two thirds) when the ally is behind (weaker by the public
//    measure, or poorer), else nothing. Bids too where the ruling
//    ally_bid_support=permission asks for it (the legal "all" action says so).
//    Changed only when the standing amount is 3 short of the wanted one or
//    4 above it (or to withdraw it).
size_t Brain::alliance_spice() {
  if (k_.ally() >= kNumFactions) return npos;
  const auto& ally = k_.fac[k_.ally()];
  const auto ally_f = static_cast<Faction>(k_.ally());
  const int mine = spice();
  const int theirs = std::max(0, ally.spice);
  if (me() == Faction::Emperor) {
    const size_t gi = find([](const Action& a) { return a.kind() == ActionKind::GiveSpice; });
    const DecisionInfo* d = decision(ActionKind::GiveSpice);
    if (gi != npos && d) {
      int give = 0;
      if (!hard()) {
        if (theirs < 2 && mine >= 8) give = 1;
      } else {
        const int target = brutal() ? 8 : 6;
        const int keep = reserve() + 4;
        if (2 * theirs < target && mine > keep) give = std::min({target - theirs, (mine - theirs) / 2, mine - keep});
      }
      give = std::min(give, d->max);
      if (give >= std::max(1, d->min)) {
        amend_ = true;
        amend_amount_ = static_cast<uint16_t>(give);
        amend_amount2_ = 0;
        return gi;
      }
    }
  }
  size_t pi = npos;
  bool bids = false;
  for (size_t i = 0; i < legal_.size(); ++i)
    if (const auto* permission = legal_[i].get_if<action::AllyPermission>()) {
      if (pi == npos) pi = i;
      bids |= permission->bids > 0;
    }
  if (pi == npos) return npos;
  const int free = std::max(0, mine - reserve());
  int want = 0;
  if (!hard()) {
    want = std::min(3, free);
  } else {
    const bool behind = power(ally_f) < power(me()) || theirs < mine;
    if (behind) want = brutal() ? (2 * free) / 3 : free / 2;
  }
  const int cur = std::max(0, k_.mine().permit_ship);
  const bool withdraw = want == 0 && cur > 0;
  // Hysteresis: raised when 3 short, lowered when 4 too high (spice moves
  // all the time; an allowance reset at each change would only add events).
  if (!withdraw && want < cur + 3 && want > cur - 4) return npos;
  const DecisionInfo* d = decision(ActionKind::AllyPermission);
  const int hi = d ? d->max : 65535;
  want = std::clamp(want, 0, hi);
  amend_ = true;
  amend_amount_ = static_cast<uint16_t>(want);
  amend_amount2_ = static_cast<uint16_t>(bids ? want : 0);
  return pi;
}

// ---- battle: the winner's cards (1.07.06.06) ---------------------------------------

// Medium keeps every card but worthless ones (a Bene Gesserit worthless card
// that serves as a Karama is kept). Hard and brutal weigh each card against
// the hand (card_value) and discard a card worth less than 3 when keeping it
// would fill the hand (a free slot buys a card in the next bidding).
size_t Brain::keep_cards() {
  const int limit = hand_limit_of(me());
  auto keep_value = [&](uint8_t c) -> double {
    if (c >= data::kNumAllTreacheryCards) return 0;
    if (karama_like(c)) return karama_keep(c);
    if (is_worthless(c)) return -0.5;
    return hard() ? card_value(c) : 1.0;
  };
  return or_fallback(best<action::KeepCards>([&](const action::KeepCards& a) {
    double v = 0;
    double lowest = 1e9;
    for (int i = 0; i < a.keep.size(); ++i) {
      const double kv = keep_value(a.keep[i]);
      v += kv;
      lowest = std::min(lowest, kv);
    }
    if (hard() && a.keep.size() > 0 && static_cast<int>(k_.hand.size()) + a.keep.size() >= limit && lowest < 3) v -= 3;
    return v;
  }));
}

// ---- Karama powers: Atreides (1.14.01), Fremen (1.14.03), Guild (1.14.05) ---------

// Hard and brutal Atreides, in a battle they fight, once the opponent's plan
// is committed and theirs is not: look at that plan when the stakes are high
// (a stronghold, or many forces: territory value plus the forces at stake of
// 14, brutal 12). battle_plan() then answers the plan it saw.
size_t Brain::atreides_karama() {
  if (!hard() || me() != Faction::Atreides || k_.battle_territory >= data::kNumTerritories) return npos;
  const int opp_side = 1 - my_side();
  if (!k_.plan_in[opp_side] || k_.plan[opp_side].known) return npos;
  const Faction opp = opponent();
  if (opp == me()) return npos;
  const size_t kp = best<action::PlayCard>([&](const action::PlayCard& a) {
    return karama_like(a.card) && a.value == 0 && a.target == static_cast<uint8_t>(opp) ? -karama_keep(a.card) : kNeg;
  });
  if (kp == npos) return npos;
  const TerritoryId t = k_.battle_territory;
  const double stakes =
      territory_value(t) + 0.6 * k_.forces_in_territory(me(), t) + 0.5 * k_.forces_in_territory(opp, t);
  return stakes >= (brutal() ? 12.0 : 14.0) ? kp : npos;
}

// The Fremen sandworm (1.14.03), when offered (the end of a spice blow, a
// Nexus): the sand territory where it devours the most, enemy forces counted
// 1.5 each (an ally's protected, a little against; their own against), the spice
// there a little (denied to the others, or lost to them). Medium places it
// when that beats the Karama kept by 5, hard and brutal by 2.
size_t Brain::fremen_karama_worm() {
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || a.value != kKaramaProtectAllyValue || a.target >= data::kNumLocations) return kNeg;
        const TerritoryId t = data::territory_of(a.target);
        double v = 0;
        int mine = 0;
        for (int f = 0; f < kNumFactions; ++f) {
          const auto fa = static_cast<Faction>(f);
          if (!k_.fac[f].present) continue;
          const int n = k_.forces_in_territory(fa, t);
          if (fa == me()) {
            v -= 0.5 * n;
            mine += n;
          } else if (k_.is_ally(fa)) {
            v -= 0.2 * n;  // protected (value 1, 2.04.10)
          } else {
            v += 1.5 * n;  // about what reviving them would cost (2 spice a force, less the free ones)
          }
        }
        const auto& ter = data::territory(t);
        int sp = 0;
        for (int i = 0; i < ter.num_locations; ++i) sp += k_.spice_on_board[ter.first_location + i];
        v += (mine > 0 ? -0.2 : 0.2) * sp;
        return v - karama_keep(a.card);
      },
      hard() ? 2.0 : 5.0);
}

// 1.14.05 the Guild, asked right after another faction's shipment from its
// reserves: hard and brutal cancel it when the shipper (with its ally) now
// controls enough strongholds to win (three, four allied); medium lets every
// shipment stand. The view does not say what was shipped: the board after it
// is what counts.
size_t Brain::guild_karama() {
  const size_t stand = pass();
  if (!hard()) return or_fallback(stand);
  const size_t kp = best<action::PlayCard>([&](const action::PlayCard& a) {
    return karama_like(a.card) && a.value == 0 && a.target < kNumFactions ? -karama_keep(a.card) : kNeg;
  });
  if (kp == npos) return or_fallback(stand);
  const auto shipper = static_cast<Faction>(legal_[kp].as<action::PlayCard>().target);
  if (shipper == me() || k_.is_ally(shipper)) return or_fallback(stand);
  const uint8_t sa = k_.fac[static_cast<int>(shipper)].ally;
  int held = 0;
  for (auto t : data::strongholds())
    held += k_.controls(shipper, t) || (sa < kNumFactions && k_.controls(static_cast<Faction>(sa), t)) ? 1 : 0;
  const int need = sa < kNumFactions ? 4 : 3;
  return held >= need ? kp : or_fallback(stand);
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

// ---- battle: a plan seen by the Atreides' Karama (1.14.01) ----------------------------

// The outcome of this plan against the opponent's committed plan (hard,
// brutal): the battle resolved as the rules do (weapons, defenses, Lasgun and
// Shield, dialed spice, the aggressor winning ties, a traitor this seat holds).
double Brain::plan_value_known(const action::BattlePlan& a, const PlanInfo& o) const {
  const Faction opp = opponent();
  const TerritoryId t = k_.battle_territory;
  if (t >= data::kNumTerritories) return 0;
  const int my_forces = k_.forces_in_territory(me(), t);
  const int opp_forces = k_.forces_in_territory(opp, t);
  const double tv = territory_value(t);
  const int cards = (a.weapon != kNone8) + (a.defense != kNone8) + (a.cheap_hero != kNone8);
  const int worthless = (a.weapon != kNone8 && is_worthless(a.weapon)) + (a.defense != kNone8 && is_worthless(a.defense));
  const bool my_leader = a.leader < data::kNumLeaders;
  const double my_str = my_leader ? leader_strength(a) : 0;
  // A traitor in the opponent's plan wins outright: spend nothing.
  if (o.leader < data::kNumLeaders && std::find(k_.traitors.begin(), k_.traitors.end(), o.leader) != k_.traitors.end())
    return tv + 0.5 * opp_forces - 0.6 * a.dial - 1.0 * cards - own_battle_spice(a) - 0.1 * my_str;
  const int o_w = o.weapon_card != kNone8 ? weapon_class(category(o.weapon_card)) : 0;
  const int my_w = is_mirror(a.weapon) ? o_w : a.weapon != kNone8 ? weapon_class(category(a.weapon)) : 0;  // a Mirror copies it
  const int my_d = a.defense != kNone8 ? defense_class(category(a.defense)) : 0;
  const int o_d = o.defense_card != kNone8 ? defense_class(category(o.defense_card)) : 0;
  if ((o_w == 3 && my_d == 1) || (my_w == 3 && o_d == 1))  // 3.01.14: everything in the territory is lost
    return -0.6 * my_forces + 0.5 * opp_forces - (my_leader ? my_str + 1 : 0) - 2.0 * (cards - worthless) - own_battle_spice(a);
  const bool o_leader = o.leader < data::kNumLeaders;
  const int o_str = o_leader ? data::leader(o.leader).strength : 0;
  const bool my_dead = my_leader && kills(o_w, my_d);
  const bool opp_dead = o_leader && kills(my_w, o_d);
  auto units = [&](Faction f, int dial, int paid) {
    if (!k_.advanced || f == Faction::Fremen) return static_cast<double>(dial);
    const int full = std::min(dial, paid);
    return full + 0.5 * (dial - full);
  };
  const double mine = units(me(), a.dial, a.spice) + (my_leader && !my_dead ? my_str + (a.kwisatz_haderach ? 2 : 0) : 0);
  // A dial not shown (ruling no_field_prescience): assume the most it may be.
  const int o_dial = o.dial_hidden ? opp_forces : o.dial;
  const double theirs = units(opp, o_dial, o.spice) + (o_leader && !opp_dead ? o_str : 0);
  const bool win = my_side() == 0 ? mine >= theirs : mine > theirs;
  double v;
  if (win)
    v = tv + 0.5 * opp_forces - 0.6 * a.dial + (opp_dead ? o_str : 0) + (my_dead ? my_str : 0);
  else
    v = -0.6 * my_forces - 2.0 * (cards - worthless) + 0.5 * worthless - 0.01 * a.dial;
  if (my_dead) v -= my_str + 1;
  return v - own_battle_spice(a);
}

// ---- the bots ---------------------------------------------------------------------------

class ProfileBot final : public Bot {
 public:
  ProfileBot(Profile p, uint64_t seed) : p_(p), seed_(seed) {}
  Profile profile() const override { return p_; }

  Action choose(const ViewInput& in) const override {
    if (in.legal.empty()) {
      action::Pass pass;
      return pass;
    }
    const fb::View* v = in.view();
    const uint64_t version = v ? v->version() : 0;
    Rng rng = Rng::from_seed(mix(mix(seed_, version), static_cast<uint64_t>(in.seat) + 1));
    if (p_ == Profile::Easy || !v) return in.legal[rng.below(static_cast<uint32_t>(in.legal.size()))];
    Brain b(in, p_, rng);
    const size_t i = b.decide();
    if (b.bribe()) return *b.bribe();
    Action a = in.legal[i < in.legal.size() ? i : 0];
    if (b.amended() && i < in.legal.size()) set_amounts(a, b.amend_amount(), b.amend_amount2());
    return a;
  }

 private:
  Profile p_;
  uint64_t seed_;
};

}  // namespace

std::unique_ptr<Bot> make_bot(Profile p, uint64_t seed) { return std::make_unique<ProfileBot>(p, seed); }

bool is_valid_choice(const ViewInput& in, const Action& a) {
  if (std::find(in.legal.begin(), in.legal.end(), a) != in.legal.end()) return true;
  if (const auto* bribe = a.get_if<action::Bribe>()) {  // within the seat's Bribe decision
    const Knowledge k = read_knowledge(in);
    for (const auto& d : k.decisions)
      if (d.kind == ActionKind::Bribe && bribe->amount >= d.min && bribe->amount <= d.max && bribe->note.size() <= 200 &&
          std::find(d.options.begin(), d.options.end(), bribe->to) != d.options.end())
        return true;
    return false;
  }
  if (a.kind() != ActionKind::GiveSpice && a.kind() != ActionKind::AllyPermission && a.kind() != ActionKind::ChoamSupport) return false;
  const Knowledge k = read_knowledge(in);
  const DecisionInfo* d = nullptr;
  for (const auto& x : k.decisions)
    if (x.kind == a.kind()) d = &x;
  const auto [amount, amount2] = amounts(a);
  if (!d || amount < d->min || amount > d->max || amount2 > d->max) return false;
  bool bids = false, same = false;
  for (const auto& b : in.legal) {
    if (b.kind() != a.kind()) continue;
    bids |= amounts(b).second > 0;
    Action c = b;
    set_amounts(c, amount, amount2);
    same |= c == a;
  }
  return same && (amount2 == 0 || (a.kind() == ActionKind::AllyPermission && bids));
}

}  // namespace mentat::bots
