// 1.12 Deals and Bribes, valid in every phase after setup (0.00, 1.12) and
// never during the Mentat Pause. A bribe moves spice from behind the giver's
// shield to in front of the receiver's (collected at 1.09.01), or straight
// behind it under the `bribe_timing=immediate` ruling. Allies may not bribe
// each other (1.12, 1.10.02.04). A deal is recorded text the engine does not
// enforce.
//
// 1.00.05: all of them wait while a response window is open (cards.cpp) and
// while the game waits on a faction ability used as a step of its own
// (PhaseRules::ability_in_use: Prescience, the Voice, the Harkonnen capture,
// the Guild's timing, the Bene Gesserit's and the Fremen's ability steps).
//
// Alliance spice (same "any time" path: out of turn, in any phase after
// setup):
//  * 2.03.06 GiveSpice: the Emperor gives spice to his ally, straight behind
//    the ally's shield. Only the Emperor (1.10.02.04 forbids the others).
//  * 1.10.02.05/06 AllyPermission: a faction's standing consent, how much of
//    its spice its ally may still use for its shipments (Ship.ally_pays,
//    core/rules/shipment_movement.cpp) and, under ruling
//    ally_bid_support=permission, for its bids (core/rules/bidding.cpp).
//    Each payment uses the allowance up; it ends with the alliance
//    (core/rules/nexus.cpp).
// decisions/legal_actions offer them (legal: a few amounts) only to a seat
// the game waits for, and AllyPermission only in the phases that use it, so
// random and bot play stays short; validate accepts them from any seat at
// any time. A Bribe is offered as a decision (1..spice, the factions it may
// go to) but never listed by legal_actions: random play would only throw
// spice away; bots build theirs from the decision (bots/bot.h).
#include "core/factions/faction_rules.h"
#include "core/rules/rules.h"

#include <array>

namespace mentat::rules {

namespace {
uint8_t live_ally(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  return a < kNumFactions && s.f[a].in_game ? a : kNoFaction;
}
constexpr uint8_t kBidPermission = 2;  // RulingId::AllyBidSupport
// AllyPermission is offered where it is used: Shipment and Movement, and
// Bidding under ally_bid_support=permission (validate accepts it any time).
bool permission_offered(const GameState& s) {
  return s.phase == Phase::ShipmentMovement || (s.phase == Phase::Bidding && s.rulings.is(RulingId::AllyBidSupport, kBidPermission));
}
}  // namespace

const char* ability_step(const GameState& s) {
  if (s.rulings.is(RulingId::AbilityStepDeals, 1)) return nullptr;  // the legacy reading: nothing waits
  const auto h = phase_rules(s.phase).ability_in_use;
  return h ? h(s) : nullptr;
}

// The faction whose own any-time action kind k is (hook anytime), or null.
const FactionRules::AnyTime* faction_anytime(ActionKind k) {
  // Indexed once by action kind from the factions' `anytime.owns` (every
  // apply asks is_anytime: a loop over the table's hooks cost ≈ 5 % of a fold).
  static const std::array<const FactionRules::AnyTime*, 256> kOwner = [] {
    std::array<const FactionRules::AnyTime*, 256> t{};
    for (int kind = 0; kind < 256; ++kind)
      for (const FactionRules* r : kFactionTable)
        if (r->anytime.owns && r->anytime.owns(static_cast<ActionKind>(kind))) {
          t[static_cast<size_t>(kind)] = &r->anytime;
          break;
        }
    return t;
  }();
  return kOwner[static_cast<uint8_t>(k)];
}

namespace {
// Why no bribe may be made now (null: 1.12 applies): CHOAM's Inflation token, Double side up (hook forbids_bribes).
const char* bribes_forbidden(const GameState& s) {
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).forbids_bribes; h && s.has(static_cast<Faction>(fi)))
      if (const char* why = h(s)) return why;
  return nullptr;
}
}  // namespace

bool is_anytime(ActionKind k) {
  return k == ActionKind::Bribe || k == ActionKind::Deal || k == ActionKind::GiveSpice || k == ActionKind::AllyPermission ||
         faction_anytime(k) != nullptr;
}

std::optional<Rejection> validate_anytime(const GameState& s, Seat seat, const Action& a) {
  if (s.phase == Phase::Setup) return reject(RejectCode::WrongPhase, "no deals, bribes or gifts before the first storm (0.00)");
  if (const char* what = ability_step(s))
    return reject(RejectCode::WrongPhase, std::string(what) + " is being used: deals, bribes and gifts wait until it is complete (1.00.05)");
  // Ruling deal_timing = after_first_storm: the turn-1 Storm phase is the first storm's placement (0.16).
  if ((a.kind() == ActionKind::Bribe || a.kind() == ActionKind::Deal) && s.turn == 1 && s.phase == Phase::Storm &&
      s.rulings.is(RulingId::DealTiming, 1))
    return reject(RejectCode::WrongPhase, "no deals or bribes until the first storm has been placed (1.12.04)");
  const Faction me = s.faction_at(seat);
  if (const auto* own = faction_anytime(a.kind())) return own->validate(s, seat, a);  // a faction's own (CHOAM)
  if (a.kind() == ActionKind::GiveSpice) {
    const auto& gift = a.as<action::GiveSpice>();
    if (!faction_rules(me).gives_ally_spice)  // hook gives_ally_spice (2.03.06)
      return reject(RejectCode::IllegalChoice, "only the Emperor may give spice to an ally (2.03.06); allies may not give each other spice (1.10.02.04)");
    const std::string giver = "the " + std::string(faction_name(me));
    const uint8_t ally = live_ally(s, me);
    if (ally == kNoFaction) return reject(RejectCode::IllegalChoice, giver + " gives spice only to his ally (2.03.06), and he has none");
    if (gift.to != ally)
      return reject(RejectCode::IllegalChoice, giver + " gives spice only to his ally, " + std::string(faction_name(static_cast<Faction>(ally))) +
                                                   " (2.03.06); others may be bribed (1.12)");
    if (gift.amount == 0) return reject(RejectCode::Malformed, "a gift needs an amount of at least 1");
    if (gift.amount > s.of(me).spice) return reject(RejectCode::NotEnoughSpice, "you hold only " + std::to_string(s.of(me).spice) + " spice");
    return std::nullopt;
  }
  if (a.kind() == ActionKind::AllyPermission) {
    if (live_ally(s, me) == kNoFaction) return reject(RejectCode::IllegalChoice, "you have no ally to pay for (1.10.02.05/06)");
    if (a.as<action::AllyPermission>().no_field) {  // the consent to ship with a force token (hook force_token.check_permit)
      const auto check = faction_rules(me).force_token.check_permit;
      if (!check) return reject(RejectCode::IllegalChoice, "no_field is the Richese's consent that their ally ships with a No-Field token");
      if (auto why = check(s, a.as<action::AllyPermission>())) return why;
    }
    if (a.as<action::AllyPermission>().bids > 0 && !s.rulings.is(RulingId::AllyBidSupport, kBidPermission))
      return reject(RejectCode::IllegalChoice, "in this game an ally's spice backs bids " +
                                                   std::string(s.rulings.is(RulingId::AllyBidSupport, 0) ? "automatically" : "not at all") +
                                                   " (ruling ally_bid_support): leave bids at 0");
    return std::nullopt;
  }
  if (s.phase == Phase::MentatPause) return reject(RejectCode::WrongPhase, "no bribes during the Mentat Pause (1.12)");
  if (a.kind() == ActionKind::Bribe) {
    const auto& bribe = a.as<action::Bribe>();
    if (bribe.to >= kNumFactions || !s.has(static_cast<Faction>(bribe.to)))
      return reject(RejectCode::Malformed, "the bribe's recipient is not in this game");
    if (static_cast<Faction>(bribe.to) == me) return reject(RejectCode::IllegalChoice, "a faction cannot bribe itself");
    if (s.of(me).ally == bribe.to) return reject(RejectCode::IllegalChoice, "allies may not give each other spice (1.10.02.04)");
    if (bribe.amount == 0) return reject(RejectCode::Malformed, "a bribe needs an amount of at least 1");
    if (bribe.amount > s.of(me).spice) return reject(RejectCode::NotEnoughSpice, "you hold only " + std::to_string(s.of(me).spice) + " spice");
    if (const char* why = bribes_forbidden(s)) return reject(RejectCode::IllegalChoice, why);
    return std::nullopt;
  }
  const auto& deal = a.as<action::Deal>();
  if (deal.text.empty()) return reject(RejectCode::Malformed, "a deal needs its text");
  if (deal.text.size() > 1000) return reject(RejectCode::Malformed, "a deal's text is limited to 1000 bytes");
  for (uint8_t party : deal.with)
    if (party >= kNumFactions || !s.has(static_cast<Faction>(party)))
      return reject(RejectCode::Malformed, "a party to the deal is not in this game");
  return std::nullopt;
}

void apply_anytime(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  const Faction me = s.faction_at(seat);
  if (const auto* own = faction_anytime(a.kind())) {
    own->apply(c, seat, a);
    return;
  }
  if (const auto* gift = a.get_if<action::GiveSpice>()) {  // 2.03.06: behind the ally's shield at once
    transfer_spice(s, shield(me), shield(static_cast<Faction>(gift->to)), gift->amount);
    return;
  }
  if (const auto* permission = a.get_if<action::AllyPermission>()) {
    s.of(me).permit_ship = permission->shipment;
    s.of(me).permit_bids = permission->bids;
    if (const auto permit = faction_rules(me).force_token.permit) permit(s, *permission);  // every AllyPermission states the whole consent
    return;
  }
  const auto* bribe = a.get_if<action::Bribe>();
  if (!bribe) return;  // a deal changes nothing but the record
  const auto to = static_cast<Faction>(bribe->to);
  if (s.rulings.is(RulingId::BribeTiming, 1))
    transfer_spice(s, shield(me), shield(to), bribe->amount);
  else
    transfer_spice(s, shield(me), bribe_pool(to), bribe->amount);
}

void anytime_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (s.phase == Phase::Setup || window_open(s) || !has_bit(s.waiting, seat) || ability_step(s)) return;
  for (int fi = 0; fi < kNumFactions; ++fi)  // the factions' own (CHOAM)
    if (const auto& own = faction_rules(static_cast<Faction>(fi)).anytime; own.decisions && s.has(static_cast<Faction>(fi)))
      own.decisions(s, seat, out);
  if (s.phase == Phase::MentatPause) return;
  const Faction me = s.faction_at(seat);
  const auto& fs = s.of(me);
  // 1.12 a bribe to any other faction but the ally (validate_anytime's rules; legal_actions lists none).
  if (fs.spice > 0 && !(s.turn == 1 && s.phase == Phase::Storm && s.rulings.is(RulingId::DealTiming, 1)) && !bribes_forbidden(s)) {
    Decision d{ActionKind::Bribe,
               std::string("Bribe another faction: give spice from behind your shield ") +
                   (s.rulings.is(RulingId::BribeTiming, 1) ? "to behind theirs" : "to in front of theirs, theirs at the Mentat Pause") +
                   ", and say what for (1.12)",
               1, fs.spice, {}};
    for (int f = 0; f < kNumFactions; ++f)
      if (s.has(static_cast<Faction>(f)) && static_cast<Faction>(f) != me && fs.ally != f) d.options.push_back(static_cast<uint16_t>(f));
    if (!d.options.empty()) out.push_back(std::move(d));
  }
  const uint8_t ally = live_ally(s, me);
  if (ally == kNoFaction) return;
  if (faction_rules(me).gives_ally_spice && fs.spice > 0)
    out.push_back(Decision{ActionKind::GiveSpice, "Give spice to your ally, behind their shield, at any time (2.03.06)", 1, fs.spice, {ally}});
  const bool bids = s.rulings.is(RulingId::AllyBidSupport, kBidPermission);
  if (!permission_offered(s)) return;
  const auto& token = faction_rules(me).force_token;  // the Richese's consent to their ally's No-Field shipment
  const bool consent = token.check_permit && !token.check_permit(s, action::AllyPermission{.no_field = true});
  out.push_back(Decision{ActionKind::AllyPermission,
                         "Let your ally use up to this much of your spice for its shipments (1.10.02.06)" +
                             std::string(bids ? " and bids (1.10.02.05)" : "") + "; now " + std::to_string(fs.permit_ship) + " spice" +
                             (bids ? " for shipments and " + std::to_string(fs.permit_bids) + " for bids" : std::string()) +
                             (consent ? std::string("; and whether your ally may ship with a No-Field token (now ") +
                                            (token.permits(s) ? "it may" : "it may not") + ")"
                                      : std::string()),
                         0, 65535, {}});
}

void anytime_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (s.phase == Phase::Setup || window_open(s) || !has_bit(s.waiting, seat) || ability_step(s)) return;
  for (int fi = 0; fi < kNumFactions; ++fi)  // the factions' own (CHOAM)
    if (const auto& own = faction_rules(static_cast<Faction>(fi)).anytime; own.legal && s.has(static_cast<Faction>(fi)))
      own.legal(s, seat, out);
  if (s.phase == Phase::MentatPause) return;
  const Faction me = s.faction_at(seat);
  const uint8_t ally = live_ally(s, me);
  if (ally == kNoFaction) return;
  const auto& fs = s.of(me);
  if (faction_rules(me).gives_ally_spice && fs.spice > 0) {
    action::GiveSpice g;
    g.to = ally;
    g.amount = 1;
    out.push_back(g);
    if (fs.spice > 1) {
      g.amount = fs.spice;
      out.push_back(g);
    }
  }
  // Permission: none, or all of my spice now (the bids too under the permission ruling).
  const bool bids = s.rulings.is(RulingId::AllyBidSupport, kBidPermission);
  if (!permission_offered(s)) return;
  const auto& token = faction_rules(me).force_token;  // the Richese's consent to their ally's No-Field shipment
  const bool consent_offered = token.check_permit && !token.check_permit(s, action::AllyPermission{.no_field = true});
  const bool consent = consent_offered && token.permits(s);
  action::AllyPermission p;
  p.no_field = consent;  // an allowance changed keeps the consent
  if (fs.permit_ship != 0 || fs.permit_bids != 0) out.push_back(p);
  p.shipment = fs.spice;
  p.bids = bids ? fs.spice : 0;
  if (fs.spice > 0 && (fs.permit_ship != p.shipment || fs.permit_bids != p.bids)) out.push_back(p);
  if (consent_offered)  // the consent given or withdrawn, the allowances as they stand
    out.push_back(action::AllyPermission{.shipment = fs.permit_ship, .bids = fs.permit_bids, .no_field = !consent});
}

}  // namespace mentat::rules
