// The bots' policies (bots/brain.h) for alliances and deals: the Nexus
// (1.10.01: propose, accept, break, by alliance_value), the allies' spice
// (2.03.06 the Emperor's gift, 1.10.02.05/06 the shipment and bid
// allowance; any time an allied seat is asked) and bribes (1.12, offered
// when asked to bid). docs/BOTS.md's table gives each policy per profile.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- alliances (1.10.01) ------------------------------------------------------------

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

}  // namespace mentat::bots::detail
