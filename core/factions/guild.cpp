// The Spacing Guild's abilities (2.06) that the phases reach through the hook
// table (core/factions/faction_rules.h). Still in shipment_movement.cpp
// (partial): 2.06.12 timing (sub-step kGuildTiming) and 1.14.05's question
// after a shipment and the cancellation itself (kGuildKarama,
// check_guild_cancel, guild_cancel_shipment); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

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
// order (ShipMoveState::guild_timing_off, public).
void shipment_movement_begins(GameState& s) {
  if (s.advanced && ability_cancelled(s, kMe, Ability::GuildTiming)) {
    s.guild.shipmove.timing_off = 1;
    consume_prevention(s, kMe, Ability::GuildTiming);
  }
}

// ---- 1.14.05 Karama power: cancel the off-planet shipment just made (shipment_movement.cpp) ----

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
  r.shipment_movement_begins = shipment_movement_begins;
  r.ship_half_price = Ability::GuildHalfPrice;      // 2.06.06, the ally 2.06.09
  r.ship_cross = Ability::GuildCrossShip;           // 2.06.05.02, the ally 2.06.10
  r.ship_off_planet = Ability::GuildOffPlanet;      // 2.06.05.03 (2.06.07 cost: shipment_movement.cpp)
  r.receives_shipment_payments = Ability::GuildPayment;  // 2.06.04
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or cancel the off-planet shipment just made by a faction (target, 1.14.05)"};
  return r;
}

}  // namespace

constinit const FactionRules kGuildRules = make();

}  // namespace mentat::rules
