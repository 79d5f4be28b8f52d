// Property: every numeric range a decision offers (Decision::min..max) is the
// range validate accepts (issue 17 item 3). Over random positions of bot
// games, for each decision with a range, an action of its kind with the
// range's lowest and highest number is accepted and one with one less than
// the lowest or one more than the highest is refused.
//
// "An action with number n" is built from the seat's legal actions of that
// kind (the templates: they fix the destination, the leader, the card, ...)
// by setting the number the range is about (`Numeric` below names it per
// kind). Ranges that describe no number of the action are not checked:
// ClaimCharity (min = max = the spice the claim brings) and
// SendSpiritualAdvisor (1..1: the one force it sends; the action names only
// its destination).
#include <catch2/catch.hpp>
#include <rapidcheck/catch.h>

#include <algorithm>
#include <functional>
#include <optional>
#include <string>

#include "bots/bot.h"
#include "bots/selfplay.h"
#include "core/engine.h"
#include "support/random_play.h"

using namespace mentat;

namespace {

// One variant of `t` carrying the number n, or several (the ways to split n
// into regular and special forces, an ally's share of a shipment); empty
// when n cannot be expressed in the action.
std::vector<Action> with_number(const GameState& s, Seat seat, const Action& t, int n) {
  std::vector<Action> out;
  if (n < 0) return out;
  const Faction me = s.faction_at(seat);
  Action a = t;
  const auto byte = [&](auto& field) {
    if (n > 255) return;
    field = static_cast<uint8_t>(n);
    out.push_back(a);
  };
  const auto flag = [&](bool& field) {
    if (n > 1) return;
    field = n == 1;
    out.push_back(a);
  };
  // Every split of n into regular and special forces.
  const auto forces = [&](uint8_t& reg, uint8_t& spec, const std::function<void()>& emit) {
    for (int sp = 0; sp <= std::min(n, 255); ++sp) {
      if (n - sp > 255) continue;
      reg = static_cast<uint8_t>(n - sp);
      spec = static_cast<uint8_t>(sp);
      emit();
    }
  };
  switch (t.kind()) {
    case ActionKind::DialStorm: byte(a.as<action::DialStorm>().value); return out;
    case ActionKind::Predict: byte(a.as<action::Predict>().turn); return out;
    case ActionKind::Prescience: byte(a.as<action::Prescience>().element); return out;
    case ActionKind::PrescienceAnswer: byte(a.as<action::PrescienceAnswer>().value); return out;
    case ActionKind::PlayCard: byte(a.as<action::PlayCard>().value); return out;
    case ActionKind::Bid: byte(a.as<action::Bid>().amount); return out;
    case ActionKind::GiveSpice:
      if (n > 65535) return out;
      a.as<action::GiveSpice>().amount = static_cast<uint16_t>(n);
      out.push_back(a);
      return out;
    case ActionKind::Bribe:
      if (n > 65535) return out;
      a.as<action::Bribe>().amount = static_cast<uint16_t>(n);
      out.push_back(a);
      return out;
    case ActionKind::ChoamSupport:
      if (n > 65535) return out;
      a.as<action::ChoamSupport>().battle = static_cast<uint16_t>(n);
      out.push_back(a);
      return out;
    case ActionKind::AllyPermission:
      if (n > 65535) return out;
      a.as<action::AllyPermission>().shipment = static_cast<uint16_t>(n);
      out.push_back(a);
      return out;
    case ActionKind::Respond: flag(a.as<action::Respond>().accept); return out;
    case ActionKind::CallTraitor: flag(a.as<action::CallTraitor>().call); return out;
    case ActionKind::GuildTiming: flag(a.as<action::GuildTiming>().now); return out;
    case ActionKind::BattlePlan: {
      if (n > 255) return out;
      auto& p = a.as<action::BattlePlan>();
      p.dial = static_cast<uint8_t>(n);
      p.spice = static_cast<uint8_t>(std::min<int>(p.spice, n));  // 1.13.04: spice 0..dial
      p.ally_pays = static_cast<uint8_t>(std::min(p.ally_pays, p.spice));
      out.push_back(a);
      return out;
    }
    case ActionKind::Revive: {
      auto& r = a.as<action::Revive>();
      forces(r.forces, r.special, [&] { out.push_back(a); });
      return out;
    }
    case ActionKind::WormRide: {
      auto& r = a.as<action::WormRide>();
      forces(r.forces, r.special, [&] { out.push_back(a); });
      return out;
    }
    case ActionKind::Ship: {
      auto& sh = a.as<action::Ship>();
      if (sh.from != kNone8 || sh.to_reserves) return out;  // the range is about reserves
      const int allowance = s.of(me).ally < kNumFactions ? std::min<int>(s.f[s.of(me).ally].spice, s.f[s.of(me).ally].permit_ship) : 0;
      forces(sh.forces, sh.special, [&] {
        for (int share = 0; share <= allowance; ++share) {
          sh.ally_pays = static_cast<uint16_t>(share);
          out.push_back(a);
        }
      });
      return out;
    }
    case ActionKind::Move: {
      // n forces of the template's group (its pieces, in order), regular
      // forces first: the group the template moves, or part of it.
      auto& m = a.as<action::Move>();
      if (m.from.empty()) return out;
      const Placements group = m.from;
      m.from.clear();
      int left = n;
      for (const auto& p : group) {
        if (left == 0) break;
        const int r = std::min<int>(left, s.forces_at(me, p.location, 0));
        const int sp = std::min<int>(left - r, s.forces_at(me, p.location, 1));
        if (r + sp == 0) continue;
        m.from.push_back(Placement{p.location, static_cast<uint8_t>(r), static_cast<uint8_t>(sp)});
        left -= r + sp;
      }
      if (left > 0) {  // more than the group's pieces hold: ask for that many anyway
        if (m.from.empty()) m.from.push_back(Placement{group[0].location, 0, 0});
        m.from[0].forces = static_cast<uint8_t>(std::min(255, m.from[0].forces + left));
      }
      out.push_back(a);
      return out;
    }
    case ActionKind::PlaceForces: {
      auto& pf = a.as<action::PlaceForces>();
      int total = 0;
      for (const auto& p : pf.placements) total += p.forces + p.special;
      if (pf.placements.empty()) return out;
      const int first = pf.placements[0].forces + (n - total);
      if (first < 0 || first > 255) return out;
      pf.placements[0].forces = static_cast<uint8_t>(first);
      out.push_back(a);
      return out;
    }
    default: return out;
  }
}

bool checked_kind(ActionKind k) {
  return k != ActionKind::ClaimCharity && k != ActionKind::SendSpiritualAdvisor;
}

// The legal actions that stand for decision d (its kind; its card; a Karama
// bid or not).
std::vector<Action> templates(const std::vector<Action>& legal, const Decision& d) {
  std::vector<Action> out;
  for (const auto& a : legal) {
    if (a.kind() != d.kind) continue;
    if (const auto* play = a.get_if<action::PlayCard>(); play && !d.options.empty() && play->card != d.options[0]) continue;
    if (const auto* bid = a.get_if<action::Bid>(); bid && bid->karama != (d.prompt.find("Karama") != std::string::npos)) continue;
    out.push_back(a);
  }
  if (out.empty()) {  // legal_actions leaves out a no-op (AllyPermission as it stands) and every Bribe: the bare action
    Action a = Action::of_kind(d.kind);
    if (auto* gift = a.get_if<action::GiveSpice>(); gift && !d.options.empty()) gift->to = static_cast<uint8_t>(d.options[0]);
    if (auto* bribe = a.get_if<action::Bribe>(); bribe && !d.options.empty()) bribe->to = static_cast<uint8_t>(d.options[0]);
    if (auto* play = a.get_if<action::PlayCard>(); play && !d.options.empty()) play->card = static_cast<uint8_t>(d.options[0]);
    out.push_back(a);
  }
  return out;
}

bool accepted(const GameState& s, Seat seat, const std::vector<Action>& ts, int n) {
  for (const auto& t : ts)
    for (const auto& a : with_number(s, seat, t, n))
      if (!validate(s, seat, a)) return true;
  return false;
}

// "" or what is wrong with the ranges offered to `seat` in `s`.
std::string check_ranges(const GameState& s, Seat seat) {
  const auto ds = decisions(s, seat);
  bool any = false;
  for (const auto& d : ds) any |= checked_kind(d.kind) && d.min <= d.max && !(d.min == 0 && d.max == 0);
  if (!any) return {};
  const auto legal = legal_actions(s, seat);
  for (const auto& d : ds) {
    if (!checked_kind(d.kind) || d.min > d.max || (d.min == 0 && d.max == 0)) continue;
    const std::string what = std::string(action_kind_name(d.kind)) + " [" + std::to_string(d.min) + ".." +
                             std::to_string(d.max) + "] (" + d.prompt + ") at version " + std::to_string(s.version) +
                             ", seat " + std::to_string(seat) + " " + std::string(faction_name(s.faction_at(seat)));
    if (d.kind == ActionKind::KeepCards) {
      // Keeping k of the offered cards for every k in range; never more.
      for (int k : {d.min, d.max}) {
        action::KeepCards a;
        for (int i = 0; i < k; ++i) a.keep.push_back(static_cast<uint8_t>(d.options[static_cast<size_t>(i)]));
        if (auto r = validate(s, seat, a)) return what + ": keeping " + std::to_string(k) + " refused: " + r->reason;
      }
      continue;
    }
    const auto ts = templates(legal, d);
    if (!accepted(s, seat, ts, d.min)) return what + ": the lowest, " + std::to_string(d.min) + ", is refused";
    if (!accepted(s, seat, ts, d.max)) return what + ": the highest, " + std::to_string(d.max) + ", is refused";
    if (accepted(s, seat, ts, d.min - 1)) return what + ": " + std::to_string(d.min - 1) + " is accepted";
    if (accepted(s, seat, ts, d.max + 1)) return what + ": " + std::to_string(d.max + 1) + " is accepted";
  }
  return {};
}

}  // namespace

TEST_CASE("decision ranges are the ranges validate accepts, over random bot-game positions", "[property][decisions]") {
  rc::prop("the extremes of each range are accepted and one past them refused", [](uint32_t seed, uint8_t players, bool advanced,
                                                                                   uint8_t stride) {
    const int n = 2 + players % 5;
    const int every = 3 + stride % 8;  // the positions checked: every `every`-th of the game
    const bots::Profile all[] = {bots::Profile::Easy, bots::Profile::Medium, bots::Profile::Hard, bots::Profile::Brutal};
    bots::GameSpec spec;
    spec.setup = testplay::setup_for(seed, n, advanced, 5);
    for (int i = 0; i < n; ++i) spec.profiles.push_back(all[(seed + static_cast<uint32_t>(i)) % 4]);
    spec.bot_seed = seed;
    spec.verify = false;
    std::string wrong;
    int64_t k = 0;
    const auto r = bots::play_in_memory(spec, [&](const GameState& s, const bots::Step&) {
      if (!wrong.empty() || ++k % every != 0) return;
      for (Seat seat = 0; seat < s.num_seats && wrong.empty(); ++seat) wrong = check_ranges(s, seat);
    });
    RC_LOG() << wrong << r.error;
    RC_ASSERT(r.ok);
    RC_ASSERT(wrong.empty());
  });
}
