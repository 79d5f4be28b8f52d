// The Richese No-Field tokens (core/factions/richese_no_field.cpp): the
// hooks core/factions/richese.cpp registers as FactionRules::force_token and
// the RicheseReveal any-time action. Internal header (core/ only).
//
// Contract: pure functions of their arguments; the GameState& ones change
// only the No-Field tokens, the Richese forces (and, for an allied shipment,
// the ally's) as their comments in faction_rules.h say. Thread safety: none
// needed (no shared state).
#pragma once

#include <optional>
#include <utility>

#include "core/factions/faction_rules.h"

namespace mentat::rules {

// The token on the board / face up (index into RicheseState::no_field), or -1.
int no_field_on_board(const GameState& s);
int no_field_face_up(const GameState& s);
// RicheseReveal (the Richese seat, checked by the caller): before the Battle phase.
std::optional<Rejection> no_field_reveal_validate(const GameState& s);
void no_field_reveal_apply(GameState& s);

namespace no_field {  // FactionRules::ForceToken (faction_rules.h)
std::optional<Rejection> check_ship(const GameState& s, Faction shipper, const action::Ship& a);
std::pair<int, int> ship(GameState& s, Faction shipper, const action::Ship& a);
std::optional<Rejection> check_cancel(const GameState& s);
void cancelled(GameState& s);
std::optional<Rejection> check_permit(const GameState& s, const action::AllyPermission& a);
void permit(GameState& s, const action::AllyPermission& a);
bool permits(const GameState& s);
// A seat's shipment turn begins (hook ship_turn_begins): no token shipment the Guild may cancel yet.
void turn_begins(GameState& s);
int destroyed(GameState& s, LocationId loc);
int reveal(GameState& s, LocationId loc);
void moved(GameState& s, LocationId from, LocationId to);
int max_dial(const GameState& s, TerritoryId t, uint8_t area, int n);
void plans_revealed(Ctx& c);
bool dial_hidden(const GameState& s, int side);
bool worm_ignores(const GameState& s);
}  // namespace no_field

}  // namespace mentat::rules
