// The Spacing Guild's abilities (2.06) that the phases reach through the hook
// table (core/factions/faction_rules.h): 2.06.04-10 shipping (data hooks read
// by core/rules/shipment_movement.cpp), 2.06.12 timing (the sub-step
// kGuildTiming and the turn-order hooks), 1.14.05 the Karama power against a
// shipment (its question kGuildKarama and the cancellation), 2.06.08 the
// default victory.
#include <algorithm>

#include "core/cards/card_rules.h"
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"
#include "core/rules/shipment_movement.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Guild;

// 2.06.08: when no one has won by the end of the last turn, the Guild (and
// its ally) win, after the Fremen special victory (2.04.09).
bool default_victory(const GameState& s, VictoryClaim* claim) {
  *claim = VictoryClaim{1, team_of(s, kMe), kGuildDefault};
  return true;
}

// 3.01.11.02: a prevented 2.06.12 is this phase's: the Guild goes in storm
// order (GuildState::ShipMove::timing_off, public).
void shipment_movement_begins(GameState& s, const PhaseBegins& e) {
  if (e.phase != Phase::ShipmentMovement) return;
  if (s.advanced && ability_cancelled(s, kMe, Ability::GuildTiming)) {
    s.guild.shipmove.timing_off = 1;
    consume_prevention(s, kMe, Ability::GuildTiming);
  }
}

// ---- 2.06.12 timing (advanced): the sub-step kGuildTiming ----
// The Guild's seat leaves storm order (holds_ship_turn); before each other
// seat's turn it says whether it takes its own turn now (GuildTiming now =
// true) or waits (now = false, or Pass); when every other seat is done it
// takes its turn.

Seat holds_ship_turn(const GameState& s) {
  return s.advanced && !s.guild.shipmove.timing_off ? s.seat_of(kMe) : kNoSeat;  // 3.01.11.02
}

bool before_ship_turn(Ctx& c, Seat next) {
  auto& s = c.s;
  if (!ship::has_options(s, kMe)) return false;  // nothing to decide yet (spice paid to the Guild may change that)
  // 2.06.12: the Guild may go now, ahead of `next`, or wait.
  s.shipmove.current = next;
  s.step = ship::kGuildTiming;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

void ship_turn_begins(GameState& s) { s.guild.shipmove.asked = 0; }

// 3.01.11.01: a Karama cancelled the Guild's turn out of order (the Guild is asked again, Pass only).
bool timing_cancelled(const GameState& s) {
  return s.cancelled_ability == static_cast<uint8_t>(Ability::GuildTiming) && s.cancelled_faction == static_cast<uint8_t>(kMe);
}

// ---- 1.14.05 Karama power: cancel the off-planet shipment just made ----
// Under ruling karama_windows = all_other_seats the Guild is asked right
// after each other faction's shipment from reserves whenever, by public
// information, it could use the power (sub-step kGuildKarama: PlayCard or
// Pass); under none it plays it on its own initiative at the shipper's
// movement step, before the shipper moves. Ruling guild_karama_reship: the
// shipper ships again, or not.

bool shipment_made(GameState& s, Faction shipper, const action::Ship&) {
  if (s.shipmove.last_to == kNone8 || shipper == kMe || !karama_windows_ask(s) || !karama_power_possible(s, kMe) ||
      ship::check_token_cancel(s))
    return false;
  s.guild.shipmove.asked = 1;
  s.step = ship::kGuildKarama;
  s.waiting = bit(s.seat_of(kMe));
  return true;
}

}  // namespace

// Why the Guild may not cancel faction `target`'s shipment recorded in
// ShipMoveState::last_* now (nullopt: it may). Declared in rules.h.
std::optional<Rejection> check_guild_cancel(const GameState& s, Faction target) {
  if (!s.has(target)) return reject(RejectCode::Malformed, "that faction is not in the game");
  if (target == kMe) return reject(RejectCode::IllegalChoice, "the Guild cancels another player's shipment (1.14.05)");
  const auto& m = s.shipmove;
  if (m.current < 0 || s.faction_at(m.current) != target || m.last_to == kNone8)
    return reject(RejectCode::IllegalChoice, std::string(faction_name(target)) +
                                                 " have no off-planet shipment to cancel now: the power cancels a shipment from reserves "
                                                 "just made, before that player moves (1.14.05)");
  if (s.step != ship::kGuildKarama && s.step != ship::kMove)
    return reject(RejectCode::WrongPhase, "wait until the Bene Gesserit have answered the shipment (1.00.05)");
  if (auto why = ship::check_token_cancel(s)) return why;  // a No-Field shipment (ruling no_field_guild_cancel)
  const SpiceAccount from = ship::payee(s, target);
  const int held = from.holder == SpiceHolder::Bank ? static_cast<int>(std::min<int64_t>(s.bank, 65535))
                                                   : s.of(static_cast<Faction>(from.index)).spice + skills_taken_from(s, target);  // the Bureaucrat's 2 come back
  const int owed = m.last_cost + (m.last_ally_bank ? 0 : m.last_ally_paid);
  if (held < owed)
    return reject(RejectCode::NotEnoughSpice, "the Guild no longer holds the " + std::to_string(owed) + " spice the shipment paid, to refund it");
  return std::nullopt;
}

// The forces go back to reserves and the spice paid comes back (from the
// bank or the Guild; an ally's share to the ally).
void guild_cancel_shipment(Ctx& c) {
  auto& s = c.s;
  auto& m = s.shipmove;
  const Faction me = s.faction_at(m.current);
  auto& fs = s.of(me);
  ship::token_shipment_cancelled(s);  // a token back to its supply (core/factions/richese_no_field.cpp)
  const int reg = std::min<int>(m.last_forces, s.forces_at(me, m.last_to, 0));
  const int spec = std::min<int>(m.last_special, s.forces_at(me, m.last_to, 1));
  move_forces(s, me, at(m.last_to), reserves_zone(), reg, spec, ForceCause::Returned);
  if (const SpiceAccount p = ship::payee(s, me); p.holder == SpiceHolder::Faction)
    skills_refund_taken(s, me, static_cast<Faction>(p.index));  // what the Bureaucrat took of it, back from the bank
  transfer_spice(s, m.last_paid_bank ? bank() : ship::payee(s, me), shield(me), m.last_cost);
  if (m.last_ally_paid && ally_in_game(s, me) != kNoFaction)  // 1.10.02.06: the ally's share goes back to the ally
    transfer_spice(s, m.last_ally_bank ? bank() : ship::payee(s, me), shield(static_cast<Faction>(fs.ally)), m.last_ally_paid);
  skills_payment_cancelled(s);  // refunded: no longer a payment for the Bureaucrat (core/cards/leader_skills.cpp)
  m.last_to = kNone8;
  m.last_cost = 0;
  m.last_ally_paid = 0;
  m.last_ally_bank = 0;
  m.last_paid_bank = 0;
  if (s.rulings.is(RulingId::GuildKaramaReship, 1)) {  // the shipper may ship again
    fs.shipped = 0;
    s.step = ship::kShip;
    s.waiting = bit(m.current);
    return;
  }
  ship::to_move_step(c);  // the cancelled shipment was this turn's shipment (1.06.02)
}

namespace {

std::optional<Rejection> karama_check(const GameState& s, Faction, const Action& a) {
  if (s.phase != Phase::ShipmentMovement)
    return reject(RejectCode::WrongPhase, "the Spacing Guild Karama power is used during the Shipment and Movement phase (1.14.05)");
  if (a.as<action::PlayCard>().target >= kNumFactions) return reject(RejectCode::Malformed, "name the faction whose shipment you cancel (target)");
  return check_guild_cancel(s, static_cast<Faction>(a.as<action::PlayCard>().target));
}
void karama_apply(Ctx& c, Seat, const Action&) { guild_cancel_shipment(c); }
void karama_candidates(const GameState&, Faction, const Action& base, std::vector<Action>& out) {
  target_candidates(base, out);
}

// ---- the sub-steps kGuildTiming .. kGuildKarama (hook ship_step) ----
// The phase has checked the action kind and that the Guild's seat is asked;
// it appends Pass to the legal actions.

std::optional<Rejection> step_validate(const GameState& s, Seat, const Action& a) {
  if (s.step == ship::kGuildTiming) {
    if (a.kind() != ActionKind::GuildTiming && a.kind() != ActionKind::Pass)
      return reject(RejectCode::WrongPhase, "now the Guild decides whether to ship and move now (GuildTiming) or later");
    if (a.kind() == ActionKind::GuildTiming && timing_cancelled(s))
      return reject(RejectCode::IllegalChoice, "a Karama cancelled the Guild's timing (3.01.11.01): the Guild goes in storm order (Pass)");
    return std::nullopt;
  }
  if (a.kind() != ActionKind::Pass)  // kGuildKarama
    return reject(RejectCode::WrongPhase, "the Guild may cancel this shipment with its Karama power (PlayCard, 1.14.05) or let it stand (Pass)");
  return std::nullopt;
}

void step_apply(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (s.step == ship::kGuildKarama) {  // the Guild let the shipment stand
    ship::shipment_stands(c);
    return;
  }
  const Seat next = s.shipmove.current;
  const auto* timing = a.get_if<action::GuildTiming>();
  // 3.01.11.01: a Karama may cancel the Guild's turn out of order as it is taken (cards.cpp);
  // cancelled, the Guild goes in storm order for the rest of the phase.
  if (timing && timing->now && karama_window(c, seat, Ability::GuildTiming, a)) return;
  if (timing_cancelled(s)) {
    s.guild.shipmove.timing_off = 1;
    consume_prevention(s, kMe, Ability::GuildTiming);
    ship::advance(c);
    return;
  }
  if (timing && timing->now) {
    ship::begin_turn(c, seat);
    return;
  }
  // Waiting past its own place in storm order is the holding pattern (2.06.12.03).
  const auto order = order_from_first(s);
  const auto pos = [&](Seat x) { return std::find(order.begin(), order.end(), x) - order.begin(); };
  if (pos(seat) < pos(next)) s.guild.shipmove.delayed = 1;
  ship::begin_turn(c, next);
}

void step_decisions(const GameState& s, Seat, std::vector<Decision>& out) {
  const std::string shipper(faction_name(s.faction_at(s.shipmove.current)));
  if (s.step == ship::kGuildKarama) {
    out.push_back(Decision{ActionKind::Pass, "Let " + shipper + "'s shipment stand, or cancel it with your Karama power (1.14.05)", 0, 0, {},
                           Topic::GuildKaramaCancel});
    return;
  }
  if (timing_cancelled(s)) {
    out.push_back(Decision{ActionKind::Pass, "Go in storm order: a Karama cancelled the Guild's timing (3.01.11.01)", 0, 0, {}});
    return;
  }
  out.push_back(Decision{ActionKind::GuildTiming, "Take your shipment and movement now, before " + shipper + " (2.06.12)", 0, 1, {}});
  out.push_back(Decision{ActionKind::Pass, "Wait", 0, 0, {}});
}

void step_legal(const GameState& s, Seat, std::vector<Action>& out) {
  if (s.step != ship::kGuildTiming || timing_cancelled(s)) return;  // 3.01.11.01: Pass only
  action::GuildTiming a;
  a.now = true;
  out.push_back(a);
  a.now = false;
  out.push_back(a);
}

// 1.00.05: the ability the phase waits on.
const char* step_in_use(const GameState& s) { return s.step == ship::kGuildTiming ? "the Guild's timing (2.06.12)" : nullptr; }

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::GuildHalfPrice, kMe, "2.06.06 / 2.06.09", "half-price shipping", ActionKind::Ship},
    {Ability::GuildCrossShip, kMe, "2.06.05.02 / 2.06.10", "cross-shipping", ActionKind::Ship},
    {Ability::GuildOffPlanet, kMe, "2.06.05.03", "shipping back to reserves", ActionKind::Ship},
    {Ability::GuildPayment, kMe, "2.06.04", "payment for shipment", ActionKind::Pass},
    {Ability::GuildTiming, kMe, "2.06.12", "ship as it pleases you", ActionKind::GuildTiming},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  r.default_victory = default_victory;
  r.ship_half_price = Ability::GuildHalfPrice;      // 2.06.06, the ally 2.06.09
  r.ship_cross = Ability::GuildCrossShip;           // 2.06.05.02, the ally 2.06.10
  r.ship_off_planet = Ability::GuildOffPlanet;      // 2.06.05.03 (2.06.07 cost: shipment_movement.cpp)
  r.receives_shipment_payments = Ability::GuildPayment;  // 2.06.04
  r.holds_ship_turn = holds_ship_turn;              // 2.06.12
  r.before_ship_turn = before_ship_turn;
  r.ship_turn_begins = ship_turn_begins;
  r.shipment_made = shipment_made;                  // 1.14.05
  r.ship_step = {1u << ship::kGuildTiming | 1u << ship::kGuildKarama, step_validate, step_apply, step_decisions, step_legal, step_in_use};
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or cancel the off-planet shipment a faction just made (1.14.05)"};
  return r;
}

}  // namespace

constinit const FactionRules kGuildRules = make();

// ---- the owner (core/rules/owners.h) ----------------------------------------

namespace {
// 2.06.06: the Guild ships at half the printed price, rounded up; 2.06.09 its
// ally too. A Karama cancels or prevents it (3.01.11.01 / .02, cards.cpp).
// The modifier ShipmentCostQuery, order 0: at most half the printed price, so
// a Karama's Guild rates beside it halve once.
int half_price(const GameState& s, const ShipmentCostQuery& q, int cost) {
  const Ability a = team_ability(s, q.shipper, &FactionRules::ship_half_price);
  if (a == Ability::None || ability_cancelled(s, q.shipper, a)) return cost;
  return std::min(cost, (q.printed + 1) / 2);
}
constexpr ModifierAnswer kAnswers[] = {answer<ShipmentCostQuery, half_price>()};
constexpr Subscription kSubscriptions[] = {on<PhaseBegins, shipment_movement_begins>()};
}  // namespace

constinit const Owner kGuildOwner{"spacing_guild", OwnerKind::Faction, faction_seated<Faction::Guild>, kSubscriptions, kAnswers};

}  // namespace mentat::rules
