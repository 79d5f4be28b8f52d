// Treachery cards played outside the battle wheel (3.01.07, 3.01.09,
// 3.01.20, 3.01.22, 3.01.23), the Karama card (3.01.11) with the faction
// Karama powers (1.14), and the response windows (GameState::windows).
//
// PlayCard{card, target, value} is routed here from every phase
// (core/engine.cpp), and so is every action while a window is open. A card is
// played from the player's hand, checks its own timing, and is then
// discarded to the treachery discard pile exactly once (Family Atomics is set
// aside instead: GameState::treachery_set_aside). Nobody is ever asked
// whether they want to play a card (asking only the holders would leak
// hands): a card is offered in decisions()/legal_actions() to its holder,
// waited for or not, while its timing window is open.
//
//  * 3.01.23 WEATHER CONTROL (value 0..10): after turn 1, in the Storm phase
//    while a storm dial is still pending. The storm then moves `value`
//    sectors (0: not at all) instead of the dials (GameState::storm_override,
//    read by storm.cpp). Not playable when the advanced Fremen storm card
//    moves the storm (2.04.13): that happens at once, nobody is waited for.
//  * 3.01.07 FAMILY ATOMICS: same window (the card says "after the storm
//    movement is calculated but before the storm is moved"; the engine has no
//    moment between the last dial and the move, so it is played while a dial
//    is pending), by a faction with fighters on the Shield Wall, or in an
//    adjacent territory from a piece joined to a Shield Wall piece without
//    storm in between. Every force on the Shield Wall (any faction, advisors
//    too, 2.02.12) goes to the tanks; shield_wall_destroyed = 1 (storm.cpp
//    then exposes Imperial Basin, Arrakeen and Carthag); the card is set aside.
//  * 3.01.09 HAJR: in the player's own Shipment and Movement turn, at its
//    shipment or movement step: one more Move after the first
//    (ShipMoveState::hajr, consumed by shipment_movement.cpp).
//  * 3.01.20 TLEILAXU GHOLA, at any time after setup: target = one of your
//    leaders in the tanks (face up or down, 1.05.03/1.05.04 do not apply) to
//    your leader pool, or value = regular + 16 x special forces (1..5 in
//    all) from the tanks to reserves, for free, besides the normal revival.
//    The 2.03.11/2.04.20 one-elite-a-turn limit does not apply to the card
//    unless ruling ghola_elite_limit = one_per_turn.
//  * 3.01.22 TRUTHTRANCE, at any time after setup: value = question << 4 |
//    asked faction, target = the question's subject (rules::Question). The
//    engine answers what the state answers (does X hold a card of kind Y, is
//    leader Z one of X's traitors, does X hold at least N spice, the Bene
//    Gesserit prediction); a free-form question opens a Truthtrance window
//    in which only the asked seat answers Respond{accept = yes}. The question
//    and the answer are public (GameState::truthtrance).
//  * 3.01.11 KARAMA (and, for the Bene Gesserit, a worthless card under the
//    ruling bg_worthless_karama, 1.14.06/2.02.22):
//    - 3.01.11.01 cancel an ability marked ✷ as it is used: a KaramaCancel
//      window (below), answered Respond{accept, card = the Karama}, opened by
//      the phase code through karama_window() for the abilities used by an
//      action (rules::Ability: Guild half price, cross-ship, off-planet,
//      Fremen storm migration, two-territory movement and worm placement,
//      spiritual advisor, Voice, Intrusion, Wartime, Take Up Arms,
//      Prescience, the Guild's turn out of order (2.06.12), the Harkonnen
//      capture, the Emperor's payment for his ally's extra revival, and the
//      Kwisatz Haderach as the plan with it is submitted: its use is then
//      announced). A Move's placements wait in GameState::pending_move_*
//      (one Move at most is ever pending).
//    - 3.01.11.02 value = kKaramaPrevent | ability, target = the faction that
//      would use it: its next use is prevented (GameState::prevented, bit =
//      Ability; ability_info() finds each faction's rows of abilities, rules
//      and actions, FactionRules::abilities in core/factions/).
//      The phase's validate rejects the ability with the reason
//      (ability_blocked) and its legal actions leave it out; the phase clears
//      the bit when the use opportunity passes (consume_prevention).
//      Automatic abilities (no action of their own: table rows with action
//      Pass, and 2.02.16 / 2.03.07 / 2.06.12) are consumed by the rule's own
//      file at their next occurrence where the ability would change the
//      outcome, and the normal rule applies there instead: 2.01.05 the next
//      card up for bid is not seen; 2.01.07 no look at the next Shipment and
//      Movement; 2.02.09 the next charity where they hold 1 spice or more
//      follows 1.03; 2.03.04 / 2.06.04 the next payment goes to the bank;
//      2.05.08 no free card with the next purchase; 2.04.07 / 2.04.10 the
//      next worm finding Fremen (their ally's) forces devours them; 2.04.16
//      the next storm movement catching Fremen forces destroys them all;
//      2.04.11 / 2.03.07 the ally's next revival that could use them;
//      2.03.08 / 2.04.18 / 2.04.21 the faction's next battle (elites count
//      one; the Fremen dial spice, 1.13.04); 2.04.14 the next storm card is
//      not seen; 2.02.16 the next move that could take up arms; 2.06.12 the
//      next Shipment and Movement phase goes in storm order. A prevention
//      played while an occurrence is under way (a card already up for bid,
//      a battle already begun) is for the next one, except a prevention of
//      2.03.08 / 2.04.18 / 2.04.21 played in the faction's battle before its
//      plan is in (ruling karama_battle_prevention = current_battle: for
//      that battle; battle.cpp battle_prevention_played). 3.01.11.01 windows are
//      not opened for automatic abilities.
//    - 3.01.11.03 value = kKaramaGuildRates, in one's own shipment step: this
//      turn's shipment costs half (rounded up) and is paid to the bank
//      (GameState::karama_shipment, read by shipment_movement.cpp).
//    - 3.01.11.04 bidding: bidding.cpp (Bid{karama}).
//    - 3.01.11.05 / 1.13.06 / 1.14 advanced, once per game
//      (FactionState::karama_power_used), value without kKaramaGuildRates:
//      1.14.02 Emperor, in the Revival phase: a leader (target) or up to 3
//      forces (value as for the Ghola; one Sardaukar a turn, 2.03.11, unless
//      ruling emperor_karama_elite_limit = no_limit) free.
//      1.14.04 Harkonnen, in the Bidding phase: target = a faction whose
//      whole hand is taken (GameState::karama_taken until the give-back
//      ends); a KaramaGiveBack window then asks the Harkonnen for one
//      Respond{card} per card taken, each card going to that faction.
//      1.14.01 Atreides, in the Battle phase while the plans are secret:
//      target = a faction of the current battle; BattleState::karama_seen,
//      and inspect/view.cpp shows that plan to the Atreides seat.
//      1.14.03 Fremen, after turn 1, at the end of the spice blow (step asked
//      under karama_windows=all_other_seats) or during a Nexus: target = a
//      location of a sand territory, value 1 protects the ally (2.04.10); the
//      worm is spice_blow.cpp's (fremen_karama_worm).
//      1.14.05 Guild: target = the faction whose shipment from reserves was
//      just made, before it moves (core/factions/guild.cpp guild_cancel_shipment;
//      step asked under karama_windows=all_other_seats; ruling
//      guild_karama_reship). 1.14.06 Bene Gesserit: see above.
//
// Response windows (1.00.05): a window interrupts the decision in progress;
// while one is open only Respond is accepted (no bribes, deals or cards), and
// only from the seats it asks. Window::saved_waiting restores the interrupted
// decision when the window closes. A KaramaCancel window holds the action
// that uses the ability; when every asked seat declined it is replayed
// through its phase's apply (GameState::ability_cleared lets it through);
// when a Karama cancels it, nothing is applied, the window stays recorded
// (cancelled = 1, in its slot above window_depth) and the owner is asked
// again for the same decision, which it may retake without the ability
// (1.00.04; GameState::cancelled_ability until its next turn begins). Who is
// asked (ruling karama_windows): all_other_seats asks every other seat that
// could hold a Karama by public information (cards in hand; not every Karama
// already in the discard pile, unless a worthless card may serve); none opens
// no window, and the ability simply applies. Several abilities of one action
// are asked in increasing Ability order (GameState::ability_cleared holds the
// last one let through while the action is replayed).
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/battle_abilities.h"
#include "core/rules/owners.h"
#include "core/rules/rules.h"
#include "core/rules/shipment_movement.h"

namespace mentat::rules {
namespace {

using data::TreacheryCategory;
using data::TreacheryKind;

// Sub-steps of the Shipment and Movement phase (core/rules/shipment_movement.h).
constexpr uint8_t kShipStep = ship::kShip, kMoveStep = ship::kMove;

constexpr int kWeatherControlMax = 10;   // 3.01.23
constexpr int kGholaForces = 5;          // 3.01.20
constexpr uint8_t kAllOtherSeats = 0;    // RulingId::KaramaWindows

std::string card_name(uint8_t card) { return std::string(data::treachery_card(card).name); }
TreacheryKind kind_of(uint8_t card) { return data::treachery_card(card).kind; }
std::string fname(Faction f) { return std::string(faction_name(f)); }
Faction me_at(const GameState& s, Seat seat) { return s.faction_at(seat); }

// 1.14.06 / 2.02.22 (hook worthless_as_karama, ruling bg_worthless_karama).
bool is_karama(const GameState& s, Faction f, uint8_t card) { return counts_as_karama(s, f, card); }

// A card in hand that is already promised elsewhere.
std::optional<std::string> committed(const GameState& s, Seat seat, uint8_t card) {
  if (s.phase == Phase::Battle && has_bit(s.battle.plans_in, seat)) {
    for (int i = 0; i < 2; ++i) {
      if ((i == 0 ? s.battle.aggressor : s.battle.defender) != seat) continue;
      const auto& p = s.battle.plan[i];
      if (p.weapon == card || p.defense == card || p.cheap_hero == card)
        return card_name(card) + " is part of your battle plan (1.07.04)";
    }
  }
  // A faction's lot (the Richese Black Market) stays in the seller's hand
  // (the seller's only: a card another seat took meanwhile voids the sale).
  if (lot_promises(s, seat, card))
    return card_name(card) + " is up for bid (the Richese Black Market): it stays in hand until its auction ends";
  if (s.phase == Phase::Bidding && s.bidding.karama_bid && s.bidding.high_bidder == seat && is_karama(s, me_at(s, seat), card))
    return "your high bid was made with a Karama: your Karama cards stay in hand until the card is sold (3.01.11.04)";
  // Before the plan is in: a card the Prescience answer binds (2.01.08), or
  // one of the kind the Voice commands to play (2.02.06), stays for the plan.
  if (s.phase == Phase::Battle && !has_bit(s.battle.plans_in, seat) && (seat == s.battle.aggressor || seat == s.battle.defender)) {
    const auto k = battle_plan_binding(s, seat);
    if ((k.weapon && k.weapon_card == card) || (k.defense && k.defense_card == card) || (k.lead && k.hero == card))
      return card_name(card) + " is bound by the Prescience answer: it stays in hand for your plan (2.01.08)";
    const auto v = battle_plan_command(s, seat);
    if (v.on && v.must && battle_card_matches(v.kind, card))
      return card_name(card) + " is of the kind the Voice commands you to play: it stays in hand for your plan (2.02.06)";
  }
  for (int fi = 0; fi < kNumFactions; ++fi)
    if (const auto h = faction_rules(static_cast<Faction>(fi)).card_promised; h && s.has(static_cast<Faction>(fi)))
      if (auto why = h(s, seat, card)) return why;
  return std::nullopt;
}

void discard(GameState& s, Faction f, uint8_t card) {
  if (s.of(f).hand.remove(card)) to_treachery_discard(s, card, f);
}

// ---- revival by card or Karama power ---------------------------------------------

struct Revival {
  uint8_t leader;
  int regular, special;
};
Revival revival_of(const action::PlayCard& a) { return {a.target, a.value & 15, a.value >> 4}; }

// Whether the one-elite-a-turn revival limit (2.03.11, 2.04.20) applies to a
// revival by card: ruling ghola_elite_limit (the Emperor's Karama power:
// emperor_karama_elite_limit, core/factions/emperor.cpp).
bool ghola_elite_limit(const GameState& s) { return s.rulings.is(RulingId::GholaEliteLimit, 1); }

std::optional<Rejection> check_revival(const GameState& s, Faction me, const Action& a, int max_forces, bool elite_limit,
                                       const std::string& rule) {
  const Revival r = revival_of(a.as<action::PlayCard>());
  const auto& fs = s.of(me);
  if (r.leader != kNone8) {
    if (r.regular + r.special)
      return reject(RejectCode::Malformed, "revive a leader (target) or forces (value), not both (" + rule + ")");
    if (r.leader >= data::kNumLeaders || data::leader(r.leader).faction != me)
      return reject(RejectCode::IllegalChoice, "that leader is not one of yours");
    const auto z = s.leaders[r.leader].zone;
    if (z != LeaderZone::Tanks && z != LeaderZone::TanksFaceDown)
      return reject(RejectCode::IllegalChoice, std::string(data::leader(r.leader).name) + " is not in the Tleilaxu Tanks");
    return std::nullopt;
  }
  const int n = r.regular + r.special;
  if (n == 0)
    return reject(RejectCode::Malformed, "revive a leader (target) or 1.." + std::to_string(max_forces) +
                                             " forces (value {\"forces\": N, \"special\": N}) (" + rule + ")");
  if (n > max_forces) return reject(RejectCode::IllegalChoice, "at most " + std::to_string(max_forces) + " forces (" + rule + ")");
  if (r.regular > fs.tanks[0])
    return reject(RejectCode::IllegalChoice, "you have only " + std::to_string(fs.tanks[0]) + " regular forces in the Tleilaxu Tanks");
  if (r.special > fs.tanks[1])
    return reject(RejectCode::IllegalChoice, "you have only " + std::to_string(fs.tanks[1]) + " special forces in the Tleilaxu Tanks");
  if (elite_limit && r.special > 0 && s.advanced && faction_rules(me).one_special_revival &&
      (r.special > 1 || fs.special_revived_turn == s.turn))
    return reject(RejectCode::IllegalChoice, "only one " + std::string(data::faction_setup(me).special_force_name) +
                                                 " may be revived per turn (2.03.11 / 2.04.20)");
  return std::nullopt;
}

void do_revival(GameState& s, Faction me, const Action& a, bool elite_limit) {
  const Revival r = revival_of(a.as<action::PlayCard>());
  auto& fs = s.of(me);
  if (r.leader != kNone8) {
    leader_revived(s, r.leader, me);
    return;
  }
  move_forces(s, me, tanks_zone(), reserves_zone(), r.regular, r.special, ForceCause::Revival);
  if (elite_limit && r.special) fs.special_revived_turn = s.turn;
}

// Candidate revivals: each leader in the tanks, the most forces, one force.
void revival_candidates(const GameState& s, Faction me, int max_forces, Action base, std::vector<Action>& out) {
  for (int id = 0; id < data::kNumLeaders; ++id) {
    if (data::leader(static_cast<LeaderId>(id)).faction != me) continue;
    const auto z = s.leaders[id].zone;
    if (z != LeaderZone::Tanks && z != LeaderZone::TanksFaceDown) continue;
    action::PlayCard a = base.as<action::PlayCard>();
    a.target = static_cast<uint8_t>(id);
    a.value = 0;
    out.push_back(a);
  }
  const auto& fs = s.of(me);
  const int reg = std::min<int>(fs.tanks[0], max_forces);
  const int spec = std::min<int>(fs.tanks[1], max_forces - reg);
  auto add = [&](int r, int sp) {
    if (r + sp == 0) return;
    action::PlayCard a = base.as<action::PlayCard>();
    a.target = kNone8;
    a.value = static_cast<uint8_t>(r | (sp << 4));
    out.push_back(a);
  };
  add(reg, spec);
  add(reg, std::min(spec, 1));
  add(fs.tanks[0] ? 1 : 0, fs.tanks[0] ? 0 : std::min<int>(fs.tanks[1], 1));
}

// ---- Family Atomics position (3.01.07) ---------------------------------------------

int fighters_at(const GameState& s, Faction f, LocationId l) {
  int n = s.forces_at(f, l, 0);
  // Advisors do not count (2.02.12) unless ruling family_atomics_advisors = advisors_count.
  if (specials_fight(s, f) || s.rulings.is(RulingId::FamilyAtomicsAdvisors, 1))
    n += s.forces_at(f, l, 1);
  return n;
}

bool near_shield_wall(const GameState& s, Faction f) {
  const TerritoryId wall = data::shield_wall();
  for (int l = 0; l < data::kNumLocations; ++l) {
    const auto start = static_cast<LocationId>(l);
    if (fighters_at(s, f, start) == 0) continue;
    const TerritoryId t = data::territory_of(start);
    if (t == wall) return true;
    if (s.in_storm(start) || !data::territories_adjacent(t, wall)) continue;
    // Pieces of this territory joined to `start` outside the storm, then a Shield Wall piece out of it.
    std::vector<LocationId> stack{start};
    std::vector<bool> seen(data::kNumLocations, false);
    seen[start] = true;
    while (!stack.empty()) {
      const LocationId u = stack.back();
      stack.pop_back();
      for (LocationId v : data::neighbours(u)) {
        if (s.in_storm(v)) continue;
        if (data::territory_of(v) == wall) return true;
        if (data::territory_of(v) == t && !seen[v]) {
          seen[v] = true;
          stack.push_back(v);
        }
      }
    }
  }
  return false;
}

void family_atomics(GameState& s) {
  const auto& wall = data::territory(data::shield_wall());
  for (int i = 0; i < wall.num_locations; ++i) {
    const auto loc = static_cast<LocationId>(wall.first_location + i);
    for (int fi = 0; fi < kNumFactions; ++fi) {
      const auto fa = static_cast<Faction>(fi);
      if (!s.has(fa)) continue;
      const int reg = s.forces_at(fa, loc, 0), spec = s.forces_at(fa, loc, 1);
      if (reg + spec) forces_to_tanks(s, fa, loc, reg, spec);
    }
  }
  s.shield_wall_destroyed = 1;
}

// ---- Truthtrance (3.01.22) ---------------------------------------------------------

Question question_of(const action::PlayCard& a) { return static_cast<Question>(a.value >> 4); }
uint8_t asked_of(const action::PlayCard& a) { return static_cast<uint8_t>(a.value & 15); }

uint8_t engine_answer(const GameState& s, Faction asked, Question q, uint8_t subject) {
  const auto& fs = s.of(asked);
  switch (q) {
    case Question::HoldsCard:
      for (int i = 0; i < fs.hand.n; ++i)
        if (static_cast<uint8_t>(kind_of(fs.hand.ids[i])) == subject) return 1;
      return 0;
    case Question::IsTraitor: return fs.traitors.contains(subject) ? 1 : 0;
    case Question::SpiceAtLeast: return fs.spice >= subject ? 1 : 0;
    case Question::PredictedFaction: return fs.prediction_faction == subject ? 1 : 0;
    case Question::PredictedTurn: return fs.prediction_turn == subject ? 1 : 0;
    case Question::FreeForm: break;
  }
  return kNone8;
}

// ---- windows ------------------------------------------------------------------------

Window& top(GameState& s) { return s.windows[s.window_depth - 1]; }
const Window& top(const GameState& s) { return s.windows[s.window_depth - 1]; }

bool push_window(GameState& s, Window w) {
  if (s.window_depth >= kMaxWindows) return false;
  w.saved_waiting = s.waiting;
  s.windows[s.window_depth++] = w;
  s.waiting = static_cast<uint8_t>(w.asked & ~w.answered);
  return true;
}

// A KaramaCancel window keeps the action it interrupted in Window::act_*
// (the slots of the canonical state, core/state.h) and, for a Move, the
// placements in GameState::pending_move_*; only the kinds karama_window()
// interrupts are kept: Ship, Move, SendSpiritualAdvisor, Prescience, Voice,
// GuildTiming, Flip, WormRide, Respond (the capture), Revive and BattlePlan (the
// Kwisatz Haderach), RicheseLot and RicheseGift. act_to holds Flip.location,
// RicheseLot.card, RicheseGift.card,
// WormRide.to, Respond.card, Revive.leader and BattlePlan.leader; act_from
// BattlePlan.cheap_hero; act_forces / act_special the forces of WormRide and
// Revive, BattlePlan.weapon / .defense.
void keep_pending(GameState& s, Window& w, const Action& pending) {
  w.act_kind = static_cast<uint8_t>(pending.kind());
  if (const auto* ship = pending.get_if<action::Ship>()) {
    w.act_to = ship->to;
    w.act_from = ship->from;
    w.act_forces = ship->forces;
    w.act_special = ship->special;
    w.act_flags = static_cast<uint8_t>((ship->to_reserves ? 1 : 0) | (ship->advisors ? 2 : 0));
    w.act_amount2 = ship->ally_pays;
    w.act_value = static_cast<uint8_t>(ship->no_field == kNone8 ? 0 : ship->no_field + 1);  // 0: no token
  } else if (const auto* move = pending.get_if<action::Move>()) {  // 2.04.06: the placements wait in the state
    w.act_to = move->to;
    w.act_flags = static_cast<uint8_t>((move->flip ? 1 : 0) | (move->ornithopter << 1));  // bits 1-2: the Ornithopter card
    static_assert(kPendingPlacements == kMaxPlacements);
    s.pending_move_n = static_cast<uint8_t>(move->from.size());
    for (int i = 0; i < kMaxPlacements; ++i) {
      const bool used = i < move->from.size();
      s.pending_move_loc[i] = used ? move->from[i].location : 0;
      s.pending_move_forces[i] = used ? move->from[i].forces : 0;
      s.pending_move_special[i] = used ? move->from[i].special : 0;
    }
  } else if (const auto* advisor = pending.get_if<action::SendSpiritualAdvisor>()) {
    w.act_to = advisor->to;
  } else if (const auto* prescience = pending.get_if<action::Prescience>()) {
    w.act_value = prescience->element;
  } else if (const auto* voice = pending.get_if<action::Voice>()) {
    w.act_flags = voice->must ? 1 : 0;
    w.act_value = voice->kind;
  } else if (const auto* timing = pending.get_if<action::GuildTiming>()) {
    w.act_flags = timing->now ? 1 : 0;
  } else if (const auto* flip = pending.get_if<action::Flip>()) {
    w.act_to = flip->location;
  } else if (const auto* ride = pending.get_if<action::WormRide>()) {
    w.act_to = ride->to;
    w.act_forces = ride->forces;
    w.act_special = ride->special;
  } else if (const auto* answer = pending.get_if<action::Respond>()) {
    w.act_flags = answer->accept ? 1 : 0;
    w.act_to = answer->card;
  } else if (const auto* revive = pending.get_if<action::Revive>()) {
    w.act_to = revive->leader;
    w.act_forces = revive->forces;
    w.act_special = revive->special;
  } else if (const auto* plan = pending.get_if<action::BattlePlan>()) {
    w.act_to = plan->leader;
    w.act_from = plan->cheap_hero;
    w.act_forces = plan->weapon;
    w.act_special = plan->defense;
    w.act_value = plan->dial;
    w.act_amount2 = static_cast<uint16_t>(plan->spice | (plan->skill_spice << 8));  // Spice Banker's spice in the high byte
    w.act_flags = static_cast<uint8_t>((plan->kwisatz_haderach ? 1 : 0) | (plan->ally_pays << 1));  // ally_pays <= dial < 128
  } else if (const auto* lot = pending.get_if<action::RicheseLot>()) {
    w.act_to = lot->card;
    w.act_value = lot->auction;
  } else if (const auto* gift = pending.get_if<action::RicheseGift>()) {
    w.act_to = gift->card;
  } else if (const auto* sale = pending.get_if<action::ChoamSell>()) {
    w.act_to = sale->card;
  } else if (const auto* use = pending.get_if<action::ChoamCard>()) {
    w.act_to = use->card;
    w.act_value = use->faction;
    w.act_from = use->location;
  } else if (const auto* inflation = pending.get_if<action::ChoamInflation>()) {
    w.act_value = inflation->side;
  } else if (const auto* trade = pending.get_if<action::ChoamTrade>()) {
    w.act_to = trade->card;  // CHOAM's secret, as the offer itself (no view shows a window's pending action)
  } else if (const auto* support = pending.get_if<action::ChoamSupport>()) {
    w.act_amount2 = support->battle;
  }
}

// The action keep_pending kept.
Action pending_action(const GameState& s, const Window& w) {
  switch (static_cast<ActionKind>(w.act_kind)) {
    case ActionKind::Ship:
      return action::Ship{.to = w.act_to,
                       .forces = w.act_forces,
                       .special = w.act_special,
                       .from = w.act_from,
                       .to_reserves = (w.act_flags & 1) != 0,
                       .advisors = (w.act_flags & 2) != 0,
                       .ally_pays = w.act_amount2,
                       .no_field = static_cast<uint8_t>(w.act_value == 0 ? kNone8 : w.act_value - 1)};
    case ActionKind::Move: {
      action::Move m{.to = w.act_to, .flip = (w.act_flags & 1) != 0, .ornithopter = static_cast<uint8_t>((w.act_flags >> 1) & 3)};
      for (int i = 0; i < s.pending_move_n && i < kMaxPlacements; ++i)
        m.from.push_back(Placement{s.pending_move_loc[i], s.pending_move_forces[i], s.pending_move_special[i]});
      return m;
    }
    case ActionKind::SendSpiritualAdvisor: return action::SendSpiritualAdvisor{.to = w.act_to};
    case ActionKind::Prescience: return action::Prescience{.element = w.act_value};
    case ActionKind::Voice: return action::Voice{.must = (w.act_flags & 1) != 0, .kind = w.act_value};
    case ActionKind::GuildTiming: return action::GuildTiming{.now = (w.act_flags & 1) != 0};
    case ActionKind::Flip: return action::Flip{.location = w.act_to};
    case ActionKind::WormRide: return action::WormRide{.to = w.act_to, .forces = w.act_forces, .special = w.act_special};
    case ActionKind::Respond: return action::Respond{.accept = (w.act_flags & 1) != 0, .card = w.act_to};
    case ActionKind::Revive: return action::Revive{.forces = w.act_forces, .special = w.act_special, .leader = w.act_to};
    case ActionKind::BattlePlan:
      return action::BattlePlan{.leader = w.act_to,
                                .cheap_hero = w.act_from,
                                .weapon = w.act_forces,
                                .defense = w.act_special,
                                .dial = w.act_value,
                                .spice = static_cast<uint8_t>(w.act_amount2 & 0xff),
                                .kwisatz_haderach = (w.act_flags & 1) != 0,
                                .ally_pays = static_cast<uint8_t>(w.act_flags >> 1),
                                .skill_spice = static_cast<uint8_t>(w.act_amount2 >> 8)};
    case ActionKind::RicheseLot: return action::RicheseLot{.card = w.act_to, .auction = w.act_value};
    case ActionKind::RicheseGift: return action::RicheseGift{.card = w.act_to};
    case ActionKind::ChoamSell: return action::ChoamSell{.card = w.act_to};
    case ActionKind::ChoamCard: return action::ChoamCard{.card = w.act_to, .faction = w.act_value, .location = w.act_from};
    case ActionKind::ChoamInflation: return action::ChoamInflation{.side = w.act_value};
    case ActionKind::ChoamTrade: return action::ChoamTrade{.card = w.act_to};
    case ActionKind::ChoamSupport: return action::ChoamSupport{.battle = w.act_amount2};
    default: return Action::of_kind(static_cast<ActionKind>(w.act_kind));
  }
}

// Closes the innermost window; a KaramaCancel window nobody cancelled
// replays the action it interrupted. The window's record stays in its slot.
void close_window(Ctx& c) {
  auto& s = c.s;
  const Window w = s.windows[--s.window_depth];
  s.waiting = w.saved_waiting;
  if (w.kind != WindowKind::KaramaCancel) return;
  const Action p = pending_action(s, w);
  if (w.cancelled) {
    if (const auto* m = p.get_if<action::Move>(); m && m->ornithopter != 0)
      ornithopter_declaration_cancelled(s, s.faction_at(w.owner));  // nothing spent: the card back to the hand
    if (is_anytime(p.kind())) {  // an any-time use stands alone: no action to retake (1.00.04), the next use is asked again
      s.cancelled_ability = kNone8;
      s.cancelled_faction = kNoFaction;
    }
    return;
  }
  s.ability_cleared = w.subject;
  if (is_anytime(p.kind()))
    apply_anytime(c, w.owner, p);  // an any-time ability (the Richese gift)
  else
    phase_rules(s.phase).apply(c, w.owner, p);
  s.ability_cleared = kNone8;
}

std::string ability_name(uint8_t ability) {
  if (const AbilityInfo* i = ability_info(static_cast<Ability>(ability)))
    return std::string(i->name) + " (" + i->rule + ")";
  return "an ability";
}

std::string window_what(const GameState& s, const Window& w) {
  switch (w.kind) {
    case WindowKind::KaramaCancel:
      return fname(s.faction_at(w.owner)) + " is about to use " + std::string(ability_name(w.subject)) +
             ": each asked seat may cancel it with a Karama (3.01.11.01)";
    case WindowKind::Truthtrance:
      return "Truthtrance: " + fname(static_cast<Faction>(s.truthtrance.asker)) + " asked " +
             fname(static_cast<Faction>(s.truthtrance.asked)) + " a yes/no question (3.01.22)";
    default:  // a faction's window (hook response_window) or a card's (core/cards/)
      if (const auto* fw = faction_window(s, w.kind)) return fw->what(s, w);
      if (const auto* cw = card_window(w.kind)) return cw->what(s, w);
      break;
  }
  return "a response window is open";
}

// Seats a KaramaCancel window asks (ruling karama_windows = all_other_seats),
// from public information only: hand sizes and the discard pile.
uint8_t karama_askable(const GameState& s, Seat owner) {
  uint8_t m = 0;
  for (Seat x = 0; x < s.num_seats; ++x)
    if (x != owner && may_hold_karama(s, s.faction_at(x))) m |= bit(x);
  return m;
}

std::optional<Rejection> validate_window(const GameState& s, Seat seat, const Action& a) {
  const Window& w = top(s);
  const std::string what = window_what(s, w);
  if (const auto* cw = card_window(w.kind); cw && cw->also != ActionKind::None && a.kind() == cw->also) {  // a card window's own answer
    if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "this seat is not asked now: " + what);
    return cw->validate_also(s, seat, a, w);
  }
  if (a.kind() != ActionKind::Respond)
    return reject(RejectCode::WrongPhase, "wait until the window is answered (Respond; 1.00.05): " + what);
  const auto& answer = a.as<action::Respond>();
  if (!has_bit(s.waiting, seat)) return reject(RejectCode::NotYourDecision, "this seat is not asked now: " + what);
  const Faction me = me_at(s, seat);
  switch (w.kind) {
    case WindowKind::KaramaCancel: {
      if (!answer.accept) return std::nullopt;
      if (answer.card == kNone8) return reject(RejectCode::Malformed, "name the Karama card that cancels the ability (Respond.card)");
      if (answer.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown treachery card");
      if (!s.of(me).hand.contains(answer.card)) return reject(RejectCode::IllegalChoice, card_name(answer.card) + " is not in your hand");
      if (!is_karama(s, me, answer.card)) return reject(RejectCode::IllegalChoice, card_name(answer.card) + " is not a Karama card (3.01.11.01)");
      if (auto why = committed(s, seat, answer.card)) return reject(RejectCode::IllegalChoice, *why);
      return std::nullopt;
    }
    case WindowKind::Truthtrance: return std::nullopt;
    default:  // a faction's window (hook response_window) or a card's (core/cards/)
      if (const auto* fw = faction_window(s, w.kind)) return fw->validate(s, seat, answer, w);
      if (const auto* cw = card_window(w.kind)) return cw->validate(s, seat, answer, w);
      break;
  }
  return reject(RejectCode::WrongPhase, "no response is expected");
}

void apply_window(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  Window& w = top(s);
  if (const auto* cw = card_window(w.kind); cw && cw->also != ActionKind::None && a.kind() == cw->also) {
    w.answered |= bit(seat);
    s.waiting &= static_cast<uint8_t>(~bit(seat));
    if (cw->apply_also(c, seat, a, w)) {
      const Window closed = w;
      close_window(c);
      if (cw->closed) cw->closed(c, closed);
    }
    return;
  }
  const auto& answer = a.as<action::Respond>();
  const Faction me = me_at(s, seat);
  w.answered |= bit(seat);
  s.waiting &= static_cast<uint8_t>(~bit(seat));
  switch (w.kind) {
    case WindowKind::KaramaCancel:
      if (answer.accept) {
        discard(s, me, answer.card);
        w.cancelled = 1;
        s.cancelled_ability = w.subject;
        s.cancelled_faction = s.seat_faction[w.owner];
        close_window(c);  // the owner decides again, without the ability (1.00.04)
        return;
      }
      if ((w.answered & w.asked) == w.asked) close_window(c);
      return;
    case WindowKind::Truthtrance:
      s.truthtrance.answer = answer.accept ? 1 : 0;
      close_window(c);
      return;
    default:  // a faction's window (hook response_window) or a card's (core/cards/)
      if (const auto* fw = faction_window(s, w.kind)) {
        if (fw->apply(c, seat, answer, w)) {
          const Window closed = w;
          close_window(c);
          if (fw->closed) fw->closed(c, closed);
        }
      } else if (const auto* cw = card_window(w.kind); cw && cw->apply(c, seat, answer, w)) {
        const Window closed = w;
        close_window(c);
        if (cw->closed) cw->closed(c, closed);
      }
      return;
  }
}

namespace {
void window_asks(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out);
}  // namespace

// The window's decisions for `seat`, each naming the window, its owner and
// (a Karama window) the ability at stake.
void window_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Window& w = top(s);
  const size_t from = out.size();
  window_asks(s, seat, w, out);
  for (size_t i = from; i < out.size(); ++i) {
    out[i].window = w.kind;
    if (w.owner >= 0 && w.owner < s.num_seats) out[i].owner = static_cast<uint8_t>(s.faction_at(w.owner));
    if (w.kind == WindowKind::KaramaCancel) out[i].ability = w.subject;
  }
}

namespace {
void window_asks(const GameState& s, Seat seat, const Window& w, std::vector<Decision>& out) {
  const Faction me = me_at(s, seat);
  switch (w.kind) {
    case WindowKind::KaramaCancel: {
      Decision d{ActionKind::Respond, window_what(s, w) + ": let it pass, or cancel it with a Karama card", 0, 1, {}};
      for (int i = 0; i < s.of(me).hand.n; ++i)
        if (is_karama(s, me, s.of(me).hand.ids[i]) && !committed(s, seat, s.of(me).hand.ids[i])) d.options.push_back(s.of(me).hand.ids[i]);
      if (d.options.empty()) d.max = 0;  // without a Karama only accept=false is accepted (the seat's own view)
      out.push_back(d);
      break;
    }
    case WindowKind::Truthtrance:
      out.push_back(Decision{ActionKind::Respond, window_what(s, w) + ": answer yes or no, truthfully", 0, 1, {}});
      break;
    default:  // a faction's window (hook response_window) or a card's (core/cards/)
      if (const auto* fw = faction_window(s, w.kind)) fw->decisions(s, seat, w, out);
      else if (const auto* cw = card_window(w.kind)) cw->decisions(s, seat, w, out);
      break;
  }
}

}  // namespace

void window_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (!has_bit(s.waiting, seat)) return;
  const Window& w = top(s);
  if (const auto* fw = faction_window(s, w.kind)) {  // a faction's window (hook response_window)
    fw->legal(s, seat, w, out);
    return;
  }
  if (const auto* cw = card_window(w.kind)) {  // a card's window (core/cards/)
    cw->legal(s, seat, w, out);
    return;
  }
  std::vector<Decision> ds;
  window_decisions(s, seat, ds);
  action::Respond a;
  out.push_back(a);  // decline / "no"
  a.accept = true;
  if (w.kind == WindowKind::Truthtrance) {
    out.push_back(a);
    return;
  }
  for (const auto& d : ds)
    for (auto o : d.options) {
      a.card = static_cast<uint8_t>(o);
      out.push_back(a);
    }
}

// ---- playing a card -------------------------------------------------------------

std::optional<Rejection> storm_window(const GameState& s, uint8_t card, const char* rule) {
  if (s.turn <= 1) return reject(RejectCode::WrongPhase, card_name(card) + " is played after the first game turn (" + rule + ")");
  if (s.phase != Phase::Storm || s.waiting == 0)
    return reject(RejectCode::WrongPhase, card_name(card) + " is played in the Storm phase before the storm moves (" + rule + ")");
  return std::nullopt;
}

// 3.01.11.02: value = kKaramaPrevent | ability, target = the faction that would use it.
std::optional<Rejection> check_prevent(const GameState& s, Faction me, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  const int ab = play.value & 0x3F;
  const AbilityInfo* info = ability_info(static_cast<Ability>(ab));
  if (!info) return reject(RejectCode::Malformed, "name the ability to prevent (value {\"prevent\": ABILITY}, 3.01.11.02)");
  if (play.target >= kNumFactions || !s.has(static_cast<Faction>(play.target)))
    return reject(RejectCode::Malformed, "name the faction whose ability you prevent (target)");
  const auto target = static_cast<Faction>(play.target);
  if (target == me) return reject(RejectCode::IllegalChoice, "a Karama prevents another player's ability (3.01.11.02)");
  const auto& owner = faction_rules(info->faction);  // the abilities its ally shares (2.06.09 / 2.06.10: team_ability)
  const bool shared = info->id == owner.ship_half_price || info->id == owner.ship_cross;
  const bool user = target == info->faction || (shared && s.of(target).ally == static_cast<uint8_t>(info->faction));
  if (!user)
    return reject(RejectCode::IllegalChoice, fname(target) + " do not have the ability " + ability_name(static_cast<uint8_t>(ab)));
  if (prevented_bit(s, play.target, ab))
    return reject(RejectCode::IllegalChoice, "the next use of " + ability_name(static_cast<uint8_t>(ab)) + " by " + fname(target) + " is already prevented");
  return std::nullopt;
}

std::optional<Rejection> check_karama(const GameState& s, Seat seat, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  const Faction me = me_at(s, seat);
  if (play.value & kKaramaGuildRates) {
    if (s.phase != Phase::ShipmentMovement)
      return reject(RejectCode::WrongPhase, "a Karama buys a shipment at Guild rates in the Shipment and Movement phase (3.01.11.03)");
    if (s.shipmove.current != seat || s.step != kShipStep || !has_bit(s.waiting, seat))
      return reject(RejectCode::NotYourDecision, "a Karama buys a shipment at Guild rates at your own shipment step (3.01.11.03)");
    if (faction_rules(me).sends_from_reserves)
      return reject(RejectCode::IllegalChoice, "the Fremen have no off-planet reserves; they send forces for free (2.04.03, 2.04.05)");
    if (s.of(me).reserves[0] + s.of(me).reserves[1] == 0)
      return reject(RejectCode::IllegalChoice, "you have no reserves to ship (3.01.11.03)");
    if (karama_shipment(s, me)) return reject(RejectCode::IllegalChoice, "this turn's shipment is already at Guild rates by Karama");
    return std::nullopt;
  }
  if (play.value & kKaramaPrevent) return check_prevent(s, me, a);
  if (!s.advanced)
    return reject(RejectCode::IllegalChoice,
                  "outside bidding (3.01.11.04), a response window (3.01.11.01) and a shipment at Guild rates (value 128, 3.01.11.03) "
                  "a Karama serves the faction Karama powers, an advanced rule (1.13.06, 1.14)");
  const auto& power = faction_rules(me).karama_power;  // 1.14.01-05 in the factions' files
  if (!power.check)
    return reject(RejectCode::IllegalChoice, "the Bene Gesserit have no once-a-game Karama power: they may use worthless cards as Karama instead (1.14.06)");
  if (s.of(me).karama_power_used)
    return reject(RejectCode::IllegalChoice, "the " + fname(me) + " Karama power is used once per game, and was used (1.14.00)");
  return power.check(s, me, a);
}

std::optional<Rejection> validate_play(const GameState& s, Seat seat, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  if (s.phase == Phase::Setup) return reject(RejectCode::WrongPhase, "no treachery card is played during the setup");
  if (play.card >= data::kNumAllTreacheryCards) return reject(RejectCode::Malformed, "unknown treachery card");
  const Faction me = me_at(s, seat);
  const std::string name = card_name(play.card);
  // The Richese cards (CHOAM & Richese, docs/cards/richese-cards.md): the
  // Richese Karama is a Karama like the base ones (its updated text adds that
  // it cannot stop a special victory or another faction's special Karama
  // power: neither is an ability a Karama cancels or prevents here); a card
  // with its own file (core/cards/card_rules.h) or a battle card is played;
  // the others are held and counted only.
  if (kind_of(play.card) == TreacheryKind::Ornithopter)
    return reject(RejectCode::IllegalChoice,
                  "the Ornithopter is played with your movement: Move with \"ornithopter\": 1 (one group, three territories) or 2 (two groups)");
  const CardRules* own_rules = card_rules(kind_of(play.card));
  if (play.card >= data::kNumTreacheryCards && kind_of(play.card) != TreacheryKind::Karama && !own_rules &&
      !battle_card_implemented(play.card))
    return reject(RejectCode::IllegalChoice, name + " is held and counted only: its effect is not implemented yet (docs/cards/richese-cards.md)");
  if (!s.of(me).hand.contains(play.card)) return reject(RejectCode::IllegalChoice, name + " is not in your hand");
  if (auto why = committed(s, seat, play.card)) return reject(RejectCode::IllegalChoice, *why);
  if (is_karama(s, me, play.card)) return check_karama(s, seat, a);
  if (const char* what = ability_step(s))
    return reject(RejectCode::WrongPhase, std::string(what) + " is being used: " + name + " waits until it is complete (1.00.05)");
  if (own_rules) return own_rules->check(s, seat, play);
  switch (kind_of(play.card)) {
    case TreacheryKind::WeatherControl:
      if (auto r = storm_window(s, play.card, "3.01.23")) return r;
      if (s.storm_override != kNone8) return reject(RejectCode::IllegalChoice, "the storm is already controlled this phase");
      if (play.value > kWeatherControlMax)
        return reject(RejectCode::IllegalChoice, "Weather Control moves the storm 1 to 10 sectors, or 0 for no movement (3.01.23)");
      return std::nullopt;
    case TreacheryKind::FamilyAtomics:
      if (auto r = storm_window(s, play.card, "3.01.07")) return r;
      if (s.shield_wall_destroyed) return reject(RejectCode::IllegalChoice, "the Shield Wall is already destroyed");
      if (!near_shield_wall(s, me))
        return reject(RejectCode::IllegalChoice,
                      "Family Atomics needs your forces on the Shield Wall, or in an adjacent territory with no storm between them and the Wall (3.01.07)");
      return std::nullopt;
    case TreacheryKind::Hajr:
      if (s.phase != Phase::ShipmentMovement)
        return reject(RejectCode::WrongPhase, "Hajr is played during your force movement in the Shipment and Movement phase (3.01.09)");
      if (s.shipmove.current != seat || !has_bit(s.waiting, seat) || (s.step != kShipStep && s.step != kMoveStep))
        return reject(RejectCode::NotYourDecision, "Hajr is played in your own shipment and movement turn, before your movement (3.01.09)");
      if (s.shipmove.hajr) return reject(RejectCode::IllegalChoice, "you already have Hajr's extra movement this turn");
      if (ornithopter_second_group(s) && !s.rulings.is(RulingId::OrnithopterHajr, 1))
        return reject(RejectCode::IllegalChoice, "the Ornithopter card is in use this turn: no Hajr with it (ruling ornithopter_hajr)");
      return std::nullopt;
    case TreacheryKind::TleilaxuGhola:
      return check_revival(s, me, a, kGholaForces, ghola_elite_limit(s), "3.01.20");
    case TreacheryKind::Truthtrance: {
      const uint8_t asked = asked_of(play);
      if (asked >= kNumFactions || !s.has(static_cast<Faction>(asked)))
        return reject(RejectCode::Malformed, "name the asked faction (value {\"ask\": FACTION, \"question\": Q}, 3.01.22)");
      if (static_cast<Faction>(asked) == me) return reject(RejectCode::IllegalChoice, "Truthtrance asks one other player (3.01.22)");
      const int q = play.value >> 4;
      if (q >= kNumQuestions) return reject(RejectCode::Malformed, "unknown Truthtrance question (value.question)");
      switch (static_cast<Question>(q)) {
        case Question::FreeForm:
        case Question::SpiceAtLeast: return std::nullopt;
        case Question::HoldsCard:
          if (data::first_card_of_kind_in_game(s.modules, play.target) < 0)
            return reject(RejectCode::Malformed, "unknown card kind (target): no card of that kind is in this game's decks");
          return std::nullopt;
        case Question::IsTraitor:
          if (play.target >= data::kNumLeaders) return reject(RejectCode::Malformed, "unknown leader (target)");
          return std::nullopt;
        case Question::PredictedFaction:
        case Question::PredictedTurn:
          if (!faction_rules(static_cast<Faction>(asked)).predicts)  // 2.02.03
            return reject(RejectCode::IllegalChoice, "only the Bene Gesserit make a prediction (2.02.03)");
          if (static_cast<Question>(q) == Question::PredictedFaction && play.target >= kNumFactions)
            return reject(RejectCode::Malformed, "unknown faction (target)");
          return std::nullopt;
      }
      return std::nullopt;
    }
    default: break;
  }
  return reject(RejectCode::IllegalChoice, name + " is played only as part of a battle plan (1.07.04)");
}

void apply_karama(Ctx& c, Seat seat, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  auto& s = c.s;
  const Faction me = me_at(s, seat);
  discard(s, me, play.card);  // "The Karama Card is discarded to use the ability" (1.14.00)
  if (play.value & kKaramaGuildRates) {
    s.karama_shipment = static_cast<uint8_t>(me);
    return;
  }
  if (play.value & kKaramaPrevent) {  // 3.01.11.02
    set_prevented_bit(s, play.target, play.value & 0x3F, true);
    battle_prevention_played(s, static_cast<Faction>(play.target));  // ruling karama_battle_prevention
    return;
  }
  s.of(me).karama_power_used = 1;
  if (const auto h = faction_rules(me).karama_power.apply) h(c, seat, a);  // 1.14.01-05
}

void apply_play(Ctx& c, Seat seat, const Action& a) {
  const auto& play = a.as<action::PlayCard>();
  auto& s = c.s;
  const Faction me = me_at(s, seat);
  if (is_karama(s, me, play.card)) {
    apply_karama(c, seat, a);
    return;
  }
  if (const CardRules* r = card_rules(kind_of(play.card))) {  // its own file discards it
    r->apply(c, seat, play);
    return;
  }
  switch (kind_of(play.card)) {
    case TreacheryKind::WeatherControl:
      discard(s, me, play.card);
      s.storm_override = play.value;
      return;
    case TreacheryKind::FamilyAtomics:
      s.of(me).hand.remove(play.card);
      s.treachery_set_aside.push(play.card);  // "Set Aside this card"
      family_atomics(s);
      return;
    case TreacheryKind::Hajr:
      discard(s, me, play.card);
      s.shipmove.hajr = 1;
      return;
    case TreacheryKind::TleilaxuGhola:
      discard(s, me, play.card);
      apply_card_revival(c, me, a, ghola_elite_limit(s));
      return;
    case TreacheryKind::Truthtrance: {
      discard(s, me, play.card);
      const auto asked = static_cast<Faction>(asked_of(play));
      const Question q = question_of(play);
      auto& t = s.truthtrance;
      t.asker = static_cast<uint8_t>(me);
      t.asked = static_cast<uint8_t>(asked);
      t.question = static_cast<uint8_t>(q);
      t.subject = play.target;
      t.turn = s.turn;
      t.answer = engine_answer(s, asked, q, play.target);
      if (q == Question::FreeForm) {
        Window w;
        w.kind = WindowKind::Truthtrance;
        w.owner = seat;
        w.asked = bit(s.seat_of(asked));
        push_window(s, w);  // "the game pauses until an answer is given"
      }
      return;
    }
    default: return;
  }
}

// Candidate plays of the cards in `seat`'s hand (a superset, filtered by the caller).
void play_candidates(const GameState& s, Seat seat, std::vector<Action>& out) {
  const Faction me = me_at(s, seat);
  const auto& hand = s.of(me).hand;
  for (int i = 0; i < hand.n; ++i) {
    const uint8_t card = hand.ids[i];
    action::PlayCard a;
    a.card = card;
    if (is_karama(s, me, card)) {
      action::PlayCard g = a;
      g.value = kKaramaGuildRates;
      out.push_back(g);
      if (const auto h = faction_rules(me).karama_power.candidates) h(s, me, a, out);  // 1.14.01-05
      // 3.01.11.02: prevent each ability of another faction in the game once.
      for (int ab = 1; ab < kNumAbilities; ++ab) {
        const AbilityInfo* info = ability_info(static_cast<Ability>(ab));
        if (!info || info->faction == me || !s.has(info->faction)) continue;
        action::PlayCard p = a;
        p.target = static_cast<uint8_t>(info->faction);
        p.value = static_cast<uint8_t>(kKaramaPrevent | ab);
        out.push_back(p);
      }
      continue;
    }
    if (const CardRules* r = card_rules(kind_of(card))) {
      r->candidates(s, seat, a, out);
      continue;
    }
    switch (kind_of(card)) {
      case TreacheryKind::WeatherControl:
        for (int v = 0; v <= kWeatherControlMax; ++v) {
          a.value = static_cast<uint8_t>(v);
          out.push_back(a);
        }
        break;
      case TreacheryKind::FamilyAtomics:
      case TreacheryKind::Hajr: out.push_back(a); break;
      case TreacheryKind::TleilaxuGhola: revival_candidates(s, me, kGholaForces, a, out); break;
      case TreacheryKind::Truthtrance:
        for (int f = 0; f < kNumFactions; ++f) {
          if (!s.has(static_cast<Faction>(f)) || static_cast<Faction>(f) == me) continue;
          a.value = static_cast<uint8_t>(static_cast<int>(Question::HoldsCard) << 4 | f);
          a.target = static_cast<uint8_t>(TreacheryKind::Karama);
          out.push_back(a);
          a.value = static_cast<uint8_t>(static_cast<int>(Question::FreeForm) << 4 | f);
          a.target = kNone8;
          out.push_back(a);
        }
        break;
      default: break;
    }
  }
}

std::string play_prompt(const GameState& s, Faction me, uint8_t card) {
  if (is_karama(s, me, card)) {
    std::string p = "Play " + card_name(card) + " as a Karama: buy this turn's shipment at Guild rates, paid to the bank (3.01.11.03)";
    p += faction_rules(me).karama_power.prompt;  // 1.14.01-05
    p += ", or prevent the next use of a faction's ability marked with a star (3.01.11.02)";
    return p;
  }
  if (const CardRules* r = card_rules(kind_of(card))) return r->prompt(s, s.seat_of(me));
  switch (kind_of(card)) {
    case TreacheryKind::WeatherControl: return "Play Weather Control: you choose how many sectors the storm moves this phase, from 0 to 10, instead of the dials (3.01.23)";
    case TreacheryKind::FamilyAtomics:
      return "Play Family Atomics: every force on the Shield Wall is destroyed; Imperial Basin, Arrakeen and Carthag lose their storm protection (3.01.07)";
    case TreacheryKind::Hajr: return "Play Hajr: one more force movement this turn (3.01.09)";
    case TreacheryKind::TleilaxuGhola:
      return "Play Tleilaxu Ghola: revive a leader or up to 5 forces for free (3.01.20)";
    case TreacheryKind::Truthtrance:
      return "Play Truthtrance: ask another faction a yes or no question, in your own words or one the game answers: whether it holds a card, "
             "whether a leader is its traitor, whether it has at least some spice, or which faction and turn it predicted (3.01.22)";
    default: break;
  }
  return "Play " + card_name(card);
}

}  // namespace

std::optional<Rejection> check_card_revival(const GameState& s, Faction me, const Action& a, int max_forces, bool elite_limit,
                                            const std::string& rule) {
  return check_revival(s, me, a, max_forces, elite_limit, rule);
}
void apply_card_revival(Ctx& c, Faction me, const Action& a, bool elite_limit) {
  do_revival(c.s, me, a, elite_limit);
  if (const Revival r = revival_of(a.as<action::PlayCard>()); r.leader != kNone8) skills_card_revived(c, me, r.leader);  // Leader Skills
}
void card_revival_candidates(const GameState& s, Faction me, int max_forces, Action base, std::vector<Action>& out) {
  revival_candidates(s, me, max_forces, base, out);
}
bool open_window(GameState& s, Window w) { return push_window(s, w); }
std::optional<std::string> card_committed(const GameState& s, Seat seat, uint8_t card) { return committed(s, seat, card); }


// ---- interface ------------------------------------------------------------------

bool window_open(const GameState& s) { return s.window_depth > 0; }

std::string window_description(const GameState& s) { return window_open(s) ? window_what(s, top(s)) : std::string(); }

bool is_card_action(const GameState& s, const Action& a) { return window_open(s) || a.kind() == ActionKind::PlayCard; }

std::optional<Rejection> validate_card(const GameState& s, Seat seat, const Action& a) {
  if (window_open(s)) return validate_window(s, seat, a);
  if (a.kind() != ActionKind::PlayCard) return reject(RejectCode::Malformed, "not a card play");
  return validate_play(s, seat, a);
}

void apply_card(Ctx& c, Seat seat, const Action& a) {
  if (window_open(c.s)) {
    apply_window(c, seat, a);
    return;
  }
  apply_play(c, seat, a);
}

void card_legal(const GameState& s, Seat seat, std::vector<Action>& out) {
  if (window_open(s)) {
    window_legal(s, seat, out);
    return;
  }
  if (s.phase == Phase::Setup) return;
  std::vector<Action> c;
  play_candidates(s, seat, c);
  for (const auto& a : c) {
    if (validate_play(s, seat, a)) continue;
    if (std::find(out.begin(), out.end(), a) == out.end()) out.push_back(a);
  }
}

void card_decisions(const GameState& s, Seat seat, std::vector<Decision>& out) {
  if (window_open(s)) {
    window_decisions(s, seat, out);
    return;
  }
  std::vector<Action> legal;
  card_legal(s, seat, legal);
  const Faction me = me_at(s, seat);
  std::vector<uint8_t> seen;
  for (const auto& x : legal) {
    const auto& a = x.as<action::PlayCard>();  // outside a window card_legal lists card plays only
    if (std::find(seen.begin(), seen.end(), a.card) != seen.end()) continue;
    seen.push_back(a.card);
    // A numeric range only where the value is a number (3.01.23 Weather
    // Control's sectors); elsewhere it encodes a use (a Karama's, a
    // Truthtrance question) and validate accepts no range of it.
    int lo = 0, hi = 0;
    if (kind_of(a.card) == TreacheryKind::WeatherControl) {
      lo = 255;
      for (const auto& y : legal)
        if (const auto& b = y.as<action::PlayCard>(); b.card == a.card) {
          lo = std::min<int>(lo, b.value);
          hi = std::max<int>(hi, b.value);
        }
    }
    out.push_back(Decision{ActionKind::PlayCard, play_prompt(s, me, a.card), lo, hi, {a.card}});
  }
}

bool karama_window(Ctx& c, Seat owner, Ability ability, const Action& pending) {
  auto& s = c.s;
  // The window for this ability (or a later one of the same action: windows
  // open in increasing Ability order) was answered: go on.
  if (s.ability_cleared != kNone8 && static_cast<uint8_t>(ability) <= s.ability_cleared) return false;
  if (!s.rulings.is(RulingId::KaramaWindows, kAllOtherSeats)) return false;
  const uint8_t asked = karama_askable(s, owner);
  if (!asked) return false;
  Window w;
  w.kind = WindowKind::KaramaCancel;
  w.owner = owner;
  w.asked = asked;
  w.subject = static_cast<uint8_t>(ability);
  keep_pending(s, w, pending);
  if (!push_window(s, w)) return false;
  if (const auto* m = pending.get_if<action::Move>(); m && m->ornithopter != 0)
    ornithopter_declared(s, s.faction_at(owner));  // the card is played as the move is declared
  return true;
}

bool ability_cancelled(const GameState& s, Faction f, Ability ability) {
  if (prevented_bit(s, static_cast<int>(f), static_cast<int>(ability))) return true;  // 3.01.11.02
  return s.cancelled_ability == static_cast<uint8_t>(ability) && s.cancelled_faction == static_cast<uint8_t>(f);
}

std::optional<std::string> ability_blocked(const GameState& s, Faction f, Ability ability) {
  if (prevented_bit(s, static_cast<int>(f), static_cast<int>(ability)))
    return "a Karama prevents this use of " + ability_name(static_cast<uint8_t>(ability)) + " (3.01.11.02)";
  if (s.cancelled_ability == static_cast<uint8_t>(ability) && s.cancelled_faction == static_cast<uint8_t>(f))
    return "a Karama cancelled " + ability_name(static_cast<uint8_t>(ability)) + ": retake the action without it (3.01.11.01, 1.00.04)";
  return std::nullopt;
}

void consume_prevention(GameState& s, Faction f, Ability ability) {
  if (s.cancelled_ability == static_cast<uint8_t>(ability) && s.cancelled_faction == static_cast<uint8_t>(f)) {
    s.cancelled_ability = kNone8;  // 1.00.04: the redo is done
    s.cancelled_faction = kNoFaction;
  }
  set_prevented_bit(s, static_cast<int>(f), static_cast<int>(ability), false);
}

bool may_hold_karama(const GameState& s, Faction f) {
  if (!s.has(f) || s.of(f).hand.n == 0) return false;
  if (const auto h = faction_rules(f).worthless_as_karama; h && h(s)) return true;  // 1.14.06
  int gone = 0;
  // Only the discards every seat sees (not the shuffled rest below a
  // Nullentropy Box: its Karamas count as possibly held).
  for (int i = s.treachery_discard_hidden; i < s.treachery_discard.n; ++i)
    if (kind_of(s.treachery_discard.ids[i]) == TreacheryKind::Karama) ++gone;
  // The base deck's Karama cards, and the Richese Karama while it can reach
  // a hand: its set in the game and a faction seated that sells its cache
  // (lots_sold). (Removed from the game, it is still counted: a question
  // more, nothing revealed.)
  int copies = data::treachery_kind_count(TreacheryKind::Karama);
  if ((data::card_sets_in(s.modules, data::CardPlace::RicheseCache) & (1u << static_cast<int>(data::CardSet::Richese))) && lots_sold(s))
    ++copies;
  return gone < copies;
}

bool karama_power_possible(const GameState& s, Faction f) {
  return s.advanced && s.has(f) && !s.of(f).karama_power_used && may_hold_karama(s, f);
}

bool prevention_at_next_occasion(const GameState& s) { return s.rulings.is(RulingId::KaramaAutomaticUse, 1); }

bool karama_windows_ask(const GameState& s) { return s.rulings.is(RulingId::KaramaWindows, kAllOtherSeats); }

bool karama_shipment(const GameState& s, Faction f) { return s.karama_shipment == static_cast<uint8_t>(f); }

// ---- the owner (core/rules/owners.h) ----------------------------------------

namespace {
// 3.01.11.03: a Karama played for this turn's shipment ships at Guild rates
// (half the printed price, rounded up; paid to the bank: payee in
// shipment_movement.cpp). The modifier ShipmentCostQuery, order 0: at most
// half the printed price, so beside the Guild's own half price it halves once.
int shipment_by_karama(const GameState& s, const ShipmentCostQuery& q, int cost) {
  return karama_shipment(s, q.shipper) ? std::min(cost, (q.printed + 1) / 2) : cost;
}
// 3.01.11.02: elites a Karama prevented count as one force for the whole battle
// (BattleState::karama_elite_off, set by battle.cpp karama_prevented_battle).
int elites_prevented(const GameState& s, const EliteWorthQuery& q, int worth) {
  return (s.battle.karama_elite_off & faction_bit(q.faction)) ? 1 : worth;
}
constexpr ModifierAnswer kKaramaAnswers[] = {answer<ShipmentCostQuery, shipment_by_karama>(), answer<EliteWorthQuery, elites_prevented>(1)};
}  // namespace

constinit const Owner kKaramaOwner{"karama", OwnerKind::Card, always, {}, kKaramaAnswers};

bool take_hajr_move(GameState& s) {
  if (!s.shipmove.hajr) return false;
  s.shipmove.hajr = 0;
  return true;
}

void card_turn_begins(GameState& s) {
  s.shipmove.hajr = 0;
  s.karama_shipment = kNoFaction;
  s.cancelled_ability = kNone8;
  s.cancelled_faction = kNoFaction;
}

}  // namespace mentat::rules
