// 1.05 Revival. No storm order (1.05.00): every seat that can revive
// something is asked at once and answers Revive or Pass, once.
//
//  * 1.05.01 up to 3 forces a turn; 1.05.01.02 free revival from the player
//    sheet (data::faction_setup); 1.05.01.03 2 spice for each further force;
//    1.05.01.04 paid to the bank; 1.05.02 revived forces go to reserves.
//  * 2.03.10 / 2.04.19 Sardaukar and Fedaykin count as one force;
//    2.03.11 / 2.04.20 (advanced) only one of them a turn.
//  Modifiers (core/rules/owners.h): FreeRevivalQuery (2.04.11 fremen.cpp,
//  La La La choam.cpp), RevivalLimitQuery / RevivalCostQuery (CHOAM's own
//  revival, choam.cpp).
//  Faction hooks (core/factions/faction_rules.h): one_special_revival,
//  revival_begins / revival_grant / revival_grant_answer /
//  revival_ends (2.04.11, the Fremen's file), pays_ally_revival (2.03.07, the
//  Emperor's file). The rules they carry:
//  * 2.04.11 the Fremen's ally has a free revival of 3. Ruling
//    fremen_ally_revival: `always` granted, or `fremen_decides`: at the start
//    of the phase, when their ally has forces in the tanks, the Fremen answer
//    Respond{accept} (sub-step kFremenGrant, before anyone revives); the
//    answer holds for this turn (GameState::revival_fremen_grant).
//  * 3.01.11.02 (cards.cpp): a prevented 2.04.11 is used up by the ally's
//    next Revival phase with forces in the tanks (revival_fremen_grant = 2:
//    its own free revival, the Fremen are not asked); a prevented 2.03.07 by
//    the ally's next answer when it could revive more than 3 forces.
//  * 2.03.07 the Emperor's ally may revive up to 3 forces beyond its limit,
//    the Emperor paying 2 spice each (simplified: the ally's Revive asks for
//    them and the Emperor's spice is charged, without a separate consent).
//  * 1.05.03 leader revival (no active leader, or all died once; one a turn;
//    pay the leader's strength to the bank) and 1.05.04 face-down leaders
//    (ruling face_down_leader_revival: revivable when every other leader is
//    face down or unavailable, or when no other leader is face up in the tanks).
//  * 2.01.14 the advanced Atreides revive the Kwisatz Haderach token as their
//    leader revival: Revive.leader = 254 (core/rules/battle_abilities.cpp).
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"
#include "core/rules/battle_abilities.h"

namespace mentat::rules {
namespace {

constexpr int kRevivalLimit = 3;       // 1.05.01
constexpr int kCostPerForce = 2;       // 1.05.01.03

enum RevivalStep : uint8_t {
  kRevive = 0,        // every seat that can revive: Revive or Pass
  kFremenGrant = 1,   // a faction answers its ally grant first (hook revival_begins: 2.04.11 fremen_decides)
};

Faction ally_of(const GameState& s, Faction f) { return static_cast<Faction>(s.of(f).ally); }
bool has_ally(const GameState& s, Faction f) {
  const uint8_t a = s.of(f).ally;
  return a < kNumFactions && s.f[a].in_game;
}

// 1.05.01.02: the player sheet's free revival; the owners' answers to
// FreeRevivalQuery change it (core/rules/owners.h: 2.04.11 the Fremen's
// grant to their ally, CHOAM's La La La).
int free_revival(const GameState& s, Faction f) {
  return modify(s, FreeRevivalQuery{f}, data::faction_setup(f).free_revival);
}

// 2.03.07: the ally paying for forces beyond the limit (the Emperor), or null.
const FactionRules* patron_rules(const GameState& s, Faction f) {
  if (!has_ally(s, f)) return nullptr;
  const auto& r = faction_rules(ally_of(s, f));
  return r.pays_ally_revival != Ability::None ? &r : nullptr;
}
bool emperor_pays_extra(const GameState& s, Faction f) { return patron_rules(s, f) != nullptr; }
Faction patron(const GameState& s, Faction f) { return ally_of(s, f); }  // when emperor_pays_extra
int emperor_extra_limit(const GameState& s, Faction f) {
  const auto* r = patron_rules(s, f);
  if (!r) return 0;
  if (ability_cancelled(s, patron(s, f), r->pays_ally_revival)) return 0;  // 3.01.11.02
  if (ability_cancelled(s, f, r->pays_ally_revival)) return 0;  // 3.01.11.01: cancelled in the ally's window
  return r->ally_extra_revival;
}

// Special forces (Sardaukar/Fedaykin) that may still be revived this turn.
int special_limit(const GameState& s, Faction f) {
  if (s.advanced && faction_rules(f).one_special_revival)
    return s.of(f).special_revived_turn == s.turn ? 0 : 1;  // 2.03.11 / 2.04.20
  return 255;
}

// The grant question asked at kFremenGrant: the one seat waited for answers it.
const FactionRules::RevivalGrant& grant_asked(const GameState& s) {
  if (!s.waiting) return kNoFactionRules.revival_grant;
  return faction_rules(s.faction_at(static_cast<Seat>(__builtin_ctz(s.waiting)))).revival_grant;
}

// 1.05.01 at most 3 forces a turn, 1.05.01.03 2 spice each beyond the free
// ones; the owners' answers to RevivalLimitQuery / RevivalCostQuery change
// them (core/rules/owners.h: a faction's own revival rule).
int revival_limit(const GameState& s, Faction f) { return modify(s, RevivalLimitQuery{f}, kRevivalLimit); }
int cost_per_force(const GameState& s, Faction f) { return modify(s, RevivalCostQuery{f}, kCostPerForce); }

// Spice cost of `n` forces split into what the faction and the Emperor pay.
struct Cost {
  int own = 0;
  int emperor = 0;
};
Cost force_cost(const GameState& s, Faction f, int n) {
  Cost c;
  const int limit = revival_limit(s, f);
  const int normal = std::min(n, limit);
  c.own = cost_per_force(s, f) * std::max(0, normal - free_revival(s, f));
  c.emperor = kCostPerForce * std::max(0, n - limit);
  return c;
}

bool own_leader(Faction f, int id) { return data::leader(static_cast<LeaderId>(id)).faction == f; }

// 1.05.03: no active leader, or all of them have died at least once.
bool leader_revival_open(const GameState& s, Faction f) {
  bool active = false, all_died = true;
  for (int id = 0; id < data::kNumLeaders; ++id) {
    const auto& l = s.leaders[id];
    if (l.zone == LeaderZone::Pool && l.holder == static_cast<uint8_t>(f)) active = true;
    if (own_leader(f, id) && s.leader_in_game(static_cast<LeaderId>(id)) && !l.died_once) all_died = false;
  }
  return !active || all_died;
}

// Why leader `id` cannot be revived by `f` now (nullopt: it can, spice aside).
std::optional<std::string> leader_unrevivable(const GameState& s, Faction f, int id) {
  if (id == ability::kKwisatzHaderachToken) return ability::kh_unrevivable(s, f);  // 2.01.14
  if (id >= data::kNumLeaders || !own_leader(f, id)) return "that leader is not one of yours";
  const auto& l = s.leaders[id];
  if (l.zone != LeaderZone::Tanks && l.zone != LeaderZone::TanksFaceDown) return "that leader is not in the Tleilaxu Tanks";
  if (s.of(f).leader_revived_turn == s.turn) return "only one leader may be revived per turn (1.05.03)";
  if (data::revives_as_if_all_dead(static_cast<LeaderId>(id))) return std::nullopt;  // the CHOAM Auditor
  if (!leader_revival_open(s, f))
    return "leaders may only be revived when you have no active leader or all your leaders have died at least once (1.05.03)";
  if (l.zone == LeaderZone::TanksFaceDown) {
    // 1.05.04: every other leader must be face down in the tanks again or unavailable.
    for (int o = 0; o < data::kNumLeaders; ++o) {
      if (o == id || !own_leader(f, o) || !s.leader_in_game(static_cast<LeaderId>(o))) continue;
      const auto& ol = s.leaders[o];
      if (s.rulings.is(RulingId::FaceDownLeaderRevival, 1)) {  // no_face_up_in_tanks
        if (ol.zone == LeaderZone::Tanks)
          return "a leader killed again stays face down while another of your leaders waits face up in the tanks (1.05.04)";
        continue;
      }
      const bool captured = ol.zone == LeaderZone::Pool && ol.holder != static_cast<uint8_t>(f);
      if (ol.zone != LeaderZone::TanksFaceDown && !captured)
        return "a leader killed again stays face down until all your other leaders are face down in the tanks or unavailable (1.05.04)";
    }
  }
  return std::nullopt;
}

int max_forces(const GameState& s, Faction f) {
  const auto& fs = s.of(f);
  const int in_tanks = fs.tanks[0] + std::min<int>(fs.tanks[1], special_limit(s, f));
  return std::min(in_tanks, revival_limit(s, f) + emperor_extra_limit(s, f));
}

// The most forces validate accepts now: within the limits and what the
// faction (and the Emperor for 2.03.07's extra forces) can pay.
int affordable_forces(const GameState& s, Faction f) {
  int n = max_forces(s, f);
  while (n > 0) {
    const Cost c = force_cost(s, f, n);
    if (c.own <= s.of(f).spice && (c.emperor == 0 || c.emperor <= s.of(patron(s, f)).spice)) break;
    --n;
  }
  return n;
}

std::vector<int> revivable_leaders(const GameState& s, Faction f) {
  std::vector<int> out;
  for (const LeaderId id : data::faction_leaders(f))  // ascending ids; another's leader is never revivable
    if (!leader_unrevivable(s, f, id)) out.push_back(id);
  if (!leader_unrevivable(s, f, ability::kKwisatzHaderachToken)) out.push_back(ability::kKwisatzHaderachToken);  // 2.01.14
  return out;
}

// Can the faction revive anything it can afford?
bool has_choice(const GameState& s, Faction f) {
  if (s.of(f).revived) return false;
  if (max_forces(s, f) > 0 && (free_revival(s, f) > 0 || s.of(f).spice >= cost_per_force(s, f))) return true;
  for (int id : revivable_leaders(s, f))
    if (s.of(f).spice >= ability::revival_strength(static_cast<uint8_t>(id))) return true;
  return false;
}

void finish_if_done(Ctx& c) {
  if (c.s.waiting) return;
  for (int fi = 0; fi < kNumFactions; ++fi) {
    const auto h = faction_rules(static_cast<Faction>(fi)).revival_ends;
    if (h && c.s.has(static_cast<Faction>(fi))) h(c.s);
  }
  enter_phase(c, Phase::ShipmentMovement);
}

void ask_revivals(Ctx& c) {
  auto& s = c.s;
  s.step = kRevive;
  s.waiting = 0;
  for (Seat seat = 0; seat < s.num_seats; ++seat)
    if (has_choice(s, s.faction_at(seat))) s.waiting |= bit(seat);
  finish_if_done(c);
}

void enter(Ctx& c) {
  auto& s = c.s;
  for (auto& fs : s.f) fs.revived = 0;
  s.waiting = 0;
  raise(s, PhaseBegins{Phase::Revival});  // the owners' phase start (core/rules/owners.h)
  for (int fi = 0; fi < kNumFactions; ++fi) {  // 2.04.11, ruling fremen_ally_revival=fremen_decides
    const auto f = static_cast<Faction>(fi);
    const auto h = faction_rules(f).revival_begins;
    if (h && s.has(f) && h(s)) {
      s.step = kFremenGrant;
      s.waiting = bit(s.seat_of(f));
      return;
    }
  }
  ask_revivals(c);
}

std::optional<Rejection> validate(const GameState& s, Seat seat, const Action& a) {
  if (s.step == kFremenGrant) {
    const auto& g = grant_asked(s);
    if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, g.wait);
    if (a.kind() != ActionKind::Respond) return reject(RejectCode::WrongPhase, g.answer);
    return std::nullopt;
  }
  if (const LeaderId l = skills_revival_leader(s, s.faction_at(seat)); l != kNone8 && has_bit(s.waiting, seat)) {  // Leader Skills
    if (!skills_revival_drawn(s, s.faction_at(seat))) {
      if (a.kind() != ActionKind::Respond && a.kind() != ActionKind::Pass)
        return reject(RejectCode::WrongPhase, "you revived " + std::string(data::leader(l).name) +
                                                  " with no skilled leader: draw two leader skill cards for it (Respond accept) or not (Pass)");
      return std::nullopt;
    }
    const auto* as = a.get_if<action::AssignSkill>();
    if (!as) return reject(RejectCode::WrongPhase, "assign one of the two leader skill cards dealt to " + std::string(data::leader(l).name) + ", the leader you revived (AssignSkill)");
    if (as->leader != l) return reject(RejectCode::IllegalChoice, "the skill goes to the leader you revived, " + std::string(data::leader(l).name));
    return skills_assign_validate(s, s.faction_at(seat), *as);
  }
  if (a.kind() != ActionKind::Revive && a.kind() != ActionKind::Pass)
    return reject(RejectCode::WrongPhase, "the Revival phase takes Revive or Pass");
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "this seat has no revival decision to make (nothing to revive, or already answered)");
  if (a.kind() == ActionKind::Pass) return std::nullopt;
  const Faction me = s.faction_at(seat);
  const auto& fs = s.of(me);
  const auto& rv = a.as<action::Revive>();
  const bool leader = rv.leader != kNone8;
  const int n = rv.forces + rv.special;
  if (n == 0 && !leader) return reject(RejectCode::Malformed, "revive at least one force or a leader (or pass)");
  if (rv.forces > fs.tanks[0]) return reject(RejectCode::IllegalChoice, "you have only " + std::to_string(fs.tanks[0]) + " regular forces in the Tleilaxu Tanks");
  if (rv.special > fs.tanks[1]) return reject(RejectCode::IllegalChoice, "you have only " + std::to_string(fs.tanks[1]) + " special forces in the Tleilaxu Tanks");
  if (rv.special > special_limit(s, me))
    return reject(RejectCode::IllegalChoice, "only one " + std::string(data::faction_setup(me).special_force_name) + " may be revived per turn (2.03.11 / 2.04.20)");
  const int limit = revival_limit(s, me) + emperor_extra_limit(s, me);
  if (n > limit && emperor_pays_extra(s, me)) {
    if (auto why = ability_blocked(s, patron(s, me), patron_rules(s, me)->pays_ally_revival))
      return reject(RejectCode::IllegalChoice, "at most 3 forces may be revived per turn (1.05.01): " + *why);
    if (auto why = ability_blocked(s, me, patron_rules(s, me)->pays_ally_revival))  // 3.01.11.01: cancelled in this seat's window
      return reject(RejectCode::IllegalChoice, "at most 3 forces may be revived per turn (1.05.01): " + *why);
  }
  if (n > limit) {
    std::string why = "at most " + std::to_string(limit) + " forces may be revived per turn (1.05.01";
    why += emperor_extra_limit(s, me) ? ", plus " + std::to_string(emperor_extra_limit(s, me)) + " paid by the " +
                                            std::string(faction_name(patron(s, me))) + " ally, 2.03.07)"
                                      : ")";
    return reject(RejectCode::IllegalChoice, why);
  }
  Cost cost = force_cost(s, me, n);
  if (leader) {
    if (auto why = leader_unrevivable(s, me, rv.leader)) return reject(RejectCode::IllegalChoice, *why);
    cost.own += ability::revival_strength(rv.leader);  // 1.05.03.02 (2.01.14: the Kwisatz Haderach 2)
  }
  if (cost.own > fs.spice)
    return reject(RejectCode::NotEnoughSpice, "this revival costs " + std::to_string(cost.own) + " spice and you have " + std::to_string(fs.spice));
  if (cost.emperor > 0 && cost.emperor > s.of(patron(s, me)).spice)
    return reject(RejectCode::NotEnoughSpice, "the " + std::string(faction_name(patron(s, me))) + " must pay " +
                                                  std::to_string(cost.emperor) + " spice for the extra forces and has only " +
                                                  std::to_string(s.of(patron(s, me)).spice) + " (2.03.07)");
  return std::nullopt;
}

void apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (s.step == kFremenGrant) {
    faction_rules(s.faction_at(seat)).revival_grant_answer(s, a.as<action::Respond>().accept);
    ask_revivals(c);
    return;
  }
  const Faction me = s.faction_at(seat);
  auto& fs = s.of(me);
  if (const auto* as = a.get_if<action::AssignSkill>()) {  // Leader Skills: the revived leader's card
    skills_revival_assigned(c, me, *as);
    s.waiting &= static_cast<uint8_t>(~bit(seat));
    finish_if_done(c);
    return;
  }
  if (skills_revival_leader(s, me) != kNone8 && !skills_revival_drawn(s, me)) {  // Leader Skills: draw, or no skill
    const auto* answer = a.get_if<action::Respond>();
    if (skills_revival_draw(c, me, answer && answer->accept)) return;  // it assigns one next
    s.waiting &= static_cast<uint8_t>(~bit(seat));
    finish_if_done(c);
    return;
  }
  // 3.01.11.01: a Karama may cancel the Emperor's payment for the forces beyond 3 as the ally
  // revives them (cards.cpp; ruling karama_windows); cancelled, the ally revives again, at most 3.
  if (const auto* rv = a.get_if<action::Revive>();
      rv && rv->forces + rv->special > kRevivalLimit && emperor_pays_extra(s, me) &&
      karama_window(c, seat, patron_rules(s, me)->pays_ally_revival, a))
    return;
  // 3.01.11.02: a prevented 2.03.07 is used up by the ally's answer when it
  // could have revived more than 3 forces.
  if (emperor_pays_extra(s, me) && ability_cancelled(s, patron(s, me), patron_rules(s, me)->pays_ally_revival) &&
      (fs.tanks[0] + std::min<int>(fs.tanks[1], special_limit(s, me)) > kRevivalLimit || prevention_at_next_occasion(s)))
    consume_prevention(s, patron(s, me), patron_rules(s, me)->pays_ally_revival);
  if (emperor_pays_extra(s, me)) consume_prevention(s, me, patron_rules(s, me)->pays_ally_revival);  // 3.01.11.01: the redo is done
  // 3.01.11.02: a prevented revival rule of its own (CHOAM) is used up by this answer.
  const Ability own = faction_rules(me).revival_ability;
  const bool own_prevented = own != Ability::None && ability_cancelled(s, me, own);
  if (a.kind() == ActionKind::Revive) {
    const auto& rv = a.as<action::Revive>();
    const int n = rv.forces + rv.special;
    const Cost cost = force_cost(s, me, n);
    if (cost.own) transfer_spice(s, shield(me), bank(), cost.own);                  // 1.05.01.04
    if (cost.emperor) transfer_spice(s, shield(patron(s, me)), bank(), cost.emperor);  // 2.03.07
    move_forces(s, me, tanks_zone(), reserves_zone(), rv.forces, rv.special, ForceCause::Revival);  // 1.05.02
    if (rv.special) fs.special_revived_turn = s.turn;
    if (rv.leader == ability::kKwisatzHaderachToken) {  // 2.01.14
      transfer_spice(s, shield(me), bank(), ability::revival_strength(rv.leader));
      ability::revive_kh(s, me);
      fs.leader_revived_turn = s.turn;
    } else if (rv.leader != kNone8) {
      transfer_spice(s, shield(me), bank(), data::leader(rv.leader).strength);  // 1.05.03.03
      leader_revived(s, rv.leader, me);  // 1.05.03.04
      fs.leader_revived_turn = s.turn;
    }
    fs.revived = 1;
    if (rv.leader < data::kNumLeaders && skills_leader_revived(c, me, rv.leader)) {  // Leader Skills: the seat assigns next
      if (own_prevented) consume_prevention(s, me, own);
      return;
    }
  }
  if (own_prevented) consume_prevention(s, me, own);
  s.waiting &= static_cast<uint8_t>(~bit(seat));
  finish_if_done(c);
}

void decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kFremenGrant) {
    Decision d{ActionKind::Respond, faction_rules(s.faction_at(seat)).revival_grant.prompt, 0, 1, {}, Topic::GrantAllyRevival};
    d.owner = static_cast<uint8_t>(s.faction_at(seat));
    out.push_back(std::move(d));
    return;
  }
  const Faction me = s.faction_at(seat);
  if (const LeaderId l = skills_revival_leader(s, me); l != kNone8 && !skills_revival_drawn(s, me)) {  // Leader Skills
    const std::string name(data::leader(l).name);
    out.push_back(Decision{ActionKind::Respond, "You revived " + name + " with no skilled leader: draw two leader skill cards and give one to " +
                                                    name + ", or not",
                           0, 1, {}, Topic::SkillDraw});
    out.push_back(Decision{ActionKind::Pass, "No leader skill for " + name, 0, 0, {}});
    return;
  }
  if (const LeaderId l = skills_revival_leader(s, me); l != kNone8) {  // Leader Skills
    std::vector<Decision> ds;
    skills_decisions(s, me, ds);
    for (auto& d : ds) {
      d.prompt = "You revived " + std::string(data::leader(l).name) + " with no skilled leader: " + d.prompt + " (to " + std::string(data::leader(l).name) + ")";
      d.options = {static_cast<uint16_t>(l)};
      out.push_back(d);
    }
    return;
  }
  const int mx = affordable_forces(s, me);
  std::string prompt = "Revive up to " + std::to_string(mx) + " forces (" + std::to_string(free_revival(s, me)) +
                       " free, then " + std::to_string(cost_per_force(s, me)) + " spice each)";
  Decision d{ActionKind::Revive, prompt, 1, mx, {}};
  d.amount = free_revival(s, me);
  for (int id : revivable_leaders(s, me))
    if (s.of(me).spice >= ability::revival_strength(static_cast<uint8_t>(id))) d.options.push_back(static_cast<uint16_t>(id));
  if (!d.options.empty()) d.min = 0;  // a leader alone (1.05.03)
  if (!d.options.empty()) d.prompt += " and/or one leader (its strength in spice)";
  out.push_back(d);
  out.push_back(Decision{ActionKind::Pass, "Revive nothing", 0, 0, {}});
}

void legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  if (s.step == kFremenGrant) {
    for (bool accept : {true, false}) {
      action::Respond a;
      a.accept = accept;
      out.push_back(a);
    }
    return;
  }
  const Faction me = s.faction_at(seat);
  if (const LeaderId l = skills_revival_leader(s, me); l != kNone8 && !skills_revival_drawn(s, me)) {  // Leader Skills: draw or not
    action::Respond draw;
    draw.accept = true;
    out.push_back(draw);
    out.push_back(action::Pass{});
    return;
  }
  if (const LeaderId l = skills_revival_leader(s, me); l != kNone8) {  // Leader Skills: the revived leader's card
    const auto& hand = s.skills.hand[static_cast<int>(me)];
    for (int i = 0; i < hand.n; ++i) out.push_back(action::AssignSkill{.skill = hand.ids[i], .leader = l});
    return;
  }
  const auto& fs = s.of(me);
  std::vector<uint8_t> leaders{kNone8};
  for (int id : revivable_leaders(s, me)) leaders.push_back(static_cast<uint8_t>(id));
  const int mx = max_forces(s, me);
  const int sp_max = std::min<int>(fs.tanks[1], special_limit(s, me));
  for (uint8_t l : leaders) {
    for (int n = 0; n <= mx; ++n) {
      for (int sp = 0; sp <= std::min(n, sp_max); ++sp) {
        if (n - sp > fs.tanks[0]) continue;
        action::Revive a;
        a.forces = static_cast<uint8_t>(n - sp);
        a.special = static_cast<uint8_t>(sp);
        a.leader = l;
        if (!rules::validate(s, seat, a)) out.push_back(a);
      }
    }
  }
  action::Pass pass;
  out.push_back(pass);
}

}  // namespace

namespace {
// 1.00.05: the Fremen's grant of their ally's free revival.
const char* ability_in_use(const GameState& s) {
  return s.step == kFremenGrant ? "the Fremen's grant of their ally's free revival (2.04.11)" : nullptr;
}
}  // namespace

const PhaseRules& revival_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal, ability_in_use};
  return r;
}

}  // namespace mentat::rules
