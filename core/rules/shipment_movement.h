// 1.06 Shipment and Movement (core/rules/shipment_movement.cpp): what the
// factions' shipment hooks (core/factions/faction_rules.h, "1.06") may call
// and the phase's sub-step numbers. Internal to core/, like rules.h.
//
// Contract: the functions below are the phase's own steps; they change the
// state only as their comments say and are called only while the phase is
// Shipment and Movement (precondition). Thread safety: none needed (pure
// functions of their arguments).
#pragma once

#include "core/rules/rules.h"

namespace mentat::rules::ship {

// The phase's sub-steps (GameState::step; stable: in the state encoding).
// The phase's own are kShip and kMove; the others belong to the faction
// whose FactionRules::ship_step names them.
enum Step : uint8_t {
  kShip = 0,         // the current seat: Ship or Pass
  kAdvisor = 1,      // 2.02.05 / 2.02.11 the Bene Gesserit answer a shipment (core/factions/bene_gesserit.cpp)
  kMove = 2,         // the current seat: Move or Pass
  kGuildTiming = 3,  // 2.06.12 the Guild goes now or waits (core/factions/guild.cpp)
  kWartime = 4,      // 2.02.17 (core/factions/bene_gesserit.cpp)
  kIntrusion = 5,    // 2.02.15 (core/factions/bene_gesserit.cpp)
  kGuildKarama = 6,  // 1.14.05 the Guild may cancel the shipment just made (core/factions/guild.cpp)
};

// The next seat in storm order (1.06.01) begins its turn, or the phase ends.
void advance(Ctx& c);
// Seat `seat` begins its turn (1.06.02): the shipment step, or the movement
// step when it has no shipment to make.
void begin_turn(Ctx& c, Seat seat);
// The current seat's movement step (its turn ends when it has no move).
void to_move_step(Ctx& c);
// The current seat's turn goes on after its movement: Hajr's extra movement
// (3.01.09) when `moved` and one is left, else the turn ends (1.06.07).
void after_move(Ctx& c, bool moved);
// The shipment recorded in ShipMoveState::last_* (1.14.05) stands: the
// factions' answers to it (answers_shipment), then the movement step.
void shipment_stands(Ctx& c);
// Does faction f have a shipment or a movement it may make now?
bool has_options(const GameState& s, Faction f);
// Who receives the spice of `shipper`'s shipment from reserves (1.06.03.02,
// 2.06.04, 3.01.11.03).
SpiceAccount payee(const GameState& s, Faction shipper);
// 1.06.05: why faction me may not make movement `a` now (nullopt: it may).
std::optional<Rejection> check_move(const GameState& s, Faction me, const action::Move& a);
// 2.02.14 / 2.02.20: what a moved group becomes at its destination (hook moved_group).
enum class GroupType : uint8_t { Keep, Fighters, Advisors };
// Forces of faction f in territory t of kind `kind` (0 regular, 1 special).
int kind_in_territory(const GameState& s, Faction f, TerritoryId t, int kind);
// 1.06.05.09 / 1.06.03.05: a stronghold holding two other factions' forces.
bool at_occupancy_limit(const GameState& s, Faction f, TerritoryId t);
// 1.14.05 and a force token (hook force_token): why the shipment recorded in
// ShipMoveState::last_* may not be cancelled because of the token it carried
// (nullopt: it may), and the token's part of the cancellation (before the
// forces and the spice come back).
std::optional<Rejection> check_token_cancel(const GameState& s);
void token_shipment_cancelled(GameState& s);

}  // namespace mentat::rules::ship
