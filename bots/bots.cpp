// The four bot profiles (bot.h): easy plays a uniformly random legal
// action; medium, hard and brutal ask a Brain (brain.h), whose policies live
// in brain.cpp and the policy_*.cpp files, one per phase or owner (brain.h
// lists them). This file holds the profile names, the dispatch from a
// decision to its policy (Brain::decide), ProfileBot, which seeds each
// decision's Rng and applies a Brain's amended amounts or bribe, and
// is_valid_choice.
//
// Beyond the phases' decisions: alliances in a Nexus and the allies' spice
// (the Emperor's gift, the shipment allowance), Karama (bids, Guild rates,
// cancel windows, the Emperor's, Harkonnen's, Atreides', Fremen's and
// Guild's powers), the winner's cards, the storm cards, Hajr, Truthtrance,
// Take Up Arms, Wormsign and every response window have a policy per
// profile. docs/BOTS.md describes the profiles, the decision/policy table and
// their measured strength.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include "bots/bot.h"
#include "bots/brain.h"
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

namespace detail {

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

}  // namespace detail

namespace {

using detail::Brain;

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
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
