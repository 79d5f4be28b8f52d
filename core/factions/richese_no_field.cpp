// The Richese No-Field tokens (CHOAM & Richese, module choam_richese; issue
// 13 item 2; docs/factions/richese.md "No-Field tokens";
// ../shared/seeds/RICHESE_NO_FIELD_RULES.md is the contract).
//
//  * Three tokens, 0, 3 and 5 (RicheseState::no_field; kNoFieldValues). A
//    token is in the Richese supply (face down), on the board (face down, at
//    one location: at most one), or face up by the Richese shield (the last
//    revealed). On the board it is also the Richese's special force at its
//    location (core/state.h): one force for occupancy, collection, stronghold
//    control, battles and movement, even the 0. The Richese have no other
//    special forces, and none of theirs is ever in reserve or the tanks.
//  * Shipment (Ship.no_field, hook force_token.check_ship / ship): the token
//    alone, from off-planet, at one force's price (the phase prices it; Guild
//    and Karama rates apply as to one force). Not the token on the planet,
//    not the face-up one (ruling no_field_face_up: the face-up token returns
//    to the supply when another is placed, or only when another is
//    revealed). A token already on the planet is revealed first, in public:
//    it is then the token face up, the one before it released (ruling
//    no_field_shipped_reveal; the engine before rules version 6 sent it back
//    to the supply unseen). Karama:
//    Ability::RicheseNoField (prevented, or cancelled as it is used).
//  * The ally's shipment with a token: the Richese's marker on the planet must
//    have been revealed first (RicheseReveal; so that the ally's choice never
//    depends on the marker's secret value), then the chosen token is placed
//    and revealed at once: it
//    becomes that many of the ally's own forces from its reserves (regular
//    first), at most all of them (ruling no_field_ally_zero: the 0 too, or 3
//    and 5 only). No concealed allied marker exists.
//  * Reveal (RicheseReveal, any time before the Battle phase of a turn; with
//    the battle plans, hook plans_revealed; when destroyed, hook destroyed;
//    Trip to Gamont, hook reveal): the token leaves the board face up and
//    becomes min(value, reserves) Richese forces at its exact location
//    (ruling no_field_destroyed: a destroyed token's shortfall is not taken,
//    or is taken from the Richese's other forces in the territory).
//  * Battle: the highest dial counts the token as min(value, reserves)
//    (ruling no_field_pool); the plans seal before the reveal, which
//    happens once, when both are revealed (RicheseState::Battle keeps the
//    battle's flag and the forces it became, public). The Atreides'
//    Prescience may not ask that dial (ruling no_field_prescience).
//  * Storm, worm (ruling no_field_worm), lasgun/shield explosions, Family
//    Atomics and 1.06.07 destroy the token with the forces at its location:
//    core/rules/common.cpp forces_to_tanks calls hook destroyed, which
//    reveals it first; those forces are destroyed with the rest.
//  * The 1.14.05 Guild Karama (cancel the shipment just made) and a token
//    shipment (ruling no_field_guild_cancel): undone as if never made, or
//    not cancellable. Undone, the token goes back to the supply face down
//    (whatever it was: still concealed, or revealed since, by the Richese or
//    at once as the ally's), the token face up before it is face up again,
//    and the forces it became go back to reserves with the Guild's refund
//    (RicheseState::Shipment records what is needed; the reveal of a marker
//    already on the planet, made before the shipment, stands).
#include <algorithm>

#include "core/factions/faction_rules.h"
#include "core/factions/richese_no_field.h"
#include "core/cards/card_rules.h"

namespace mentat::rules {
namespace {

constexpr Faction kMe = Faction::Richese;
constexpr uint8_t kUntilRevealed = 1;           // NoFieldFaceUp
constexpr uint8_t kReserveCap = 1;              // NoFieldPool
constexpr uint8_t kWormIgnores = 1;             // NoFieldWorm
constexpr uint8_t kAllyThreeOrFive = 1;         // NoFieldAllyZero
constexpr uint8_t kShortfallFromTerritory = 1;  // NoFieldDestroyed
constexpr uint8_t kAnyElement = 1;              // NoFieldPrescience
constexpr uint8_t kNotCancellable = 1;          // NoFieldGuildCancel
constexpr uint8_t kRicheseAllows = 1;           // NoFieldAllyPermission
constexpr uint8_t kStaysFaceUp = 0;             // NoFieldShippedReveal

int token_of_value(uint8_t v) {
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (kNoFieldValues[i] == v) return i;
  return -1;
}

void release_face_up(GameState& s) {
  for (auto& t : s.richese.no_field)
    if (t.zone == TokenZone::Revealed) t.zone = TokenZone::Reserve;
}

// The marker at `loc` leaves the board for the supply (the count that stands for it falls to 0).
void token_off_board(GameState& s, LocationId loc) {
  if (const int n = s.forces_at(kMe, loc, 1)) move_forces(s, kMe, at(loc), supply(), 0, n, ForceCause::Token);
}

// Up to `value` of `owner`'s reserves arrive at `loc` (regular first).
int materialize(GameState& s, Faction owner, LocationId loc, int value) {
  const auto& fs = s.of(owner);
  const int reg = std::min<int>(value, fs.reserves[0]);
  const int spec = std::min<int>(value - reg, fs.reserves[1]);
  move_forces(s, owner, reserves_zone(), at(loc), reg, spec, ForceCause::Token);
  return reg + spec;
}

// Turns the token at `loc` (there is one: the caller checked) face up;
// returns the Richese forces it became there.
int reveal_marker(GameState& s, LocationId loc) {
  const int i = no_field_on_board(s);
  if (i < 0 || s.richese.no_field[i].location != loc) return 0;
  token_off_board(s, loc);
  release_face_up(s);  // only the last revealed stays face up
  s.richese.no_field[i] = NoFieldToken{TokenZone::Revealed, kNone8};
  const int forces = materialize(s, kMe, loc, kNoFieldValues[i]);
  ornithopter_marker_revealed(s, kMe, loc, forces);  // an Ornithopter arrival stays one (core/cards/ornithopter.cpp)
  if (auto& rec = s.richese.shipment; rec.token && s.shipmove.last_to == loc) {  // the shipment the Guild may still cancel
    rec.revealed = 1;
    s.shipmove.last_forces = static_cast<uint8_t>(s.shipmove.last_forces + forces);  // 1.14.05 takes them back too
  }
  return forces;
}

// `release`: the token face up goes back to the supply (ruling
// no_field_face_up = until_placed), unless the shipment placing this one has
// just revealed it (ruling no_field_shipped_reveal = stays_face_up).
void place(GameState& s, int i, LocationId loc, bool release = true) {
  if (release && !s.rulings.is(RulingId::NoFieldFaceUp, kUntilRevealed)) release_face_up(s);
  s.richese.no_field[i] = NoFieldToken{TokenZone::Board, loc};
  if (const int n = s.forces_at(kMe, loc, 1); n != 1)  // the marker stands for one force there
    move_forces(s, kMe, supply(), at(loc), 0, 1 - n, ForceCause::Token);
}

bool in_area(const GameState& s, LocationId loc, TerritoryId t, uint8_t area) {
  const auto& ter = data::territory(t);
  const int k = static_cast<int>(loc) - static_cast<int>(ter.first_location);
  return k >= 0 && k < ter.num_locations && ((area >> k) & 1u);
}

}  // namespace

// ---- hooks (registered by core/factions/richese.cpp) ------------------------------
namespace no_field {

std::optional<Rejection> check_ship(const GameState& s, Faction shipper, const action::Ship& a) {
  const int i = token_of_value(a.no_field);
  if (i < 0) return reject(RejectCode::Malformed, "a No-Field token is 0, 3 or 5 (Ship.no_field)");
  const bool ally = shipper != kMe;
  if (ally && ally_in_game(s, kMe) != static_cast<uint8_t>(shipper))
    return reject(RejectCode::IllegalChoice, "only the Richese and their ally ship with No-Field tokens");
  if (auto why = ability_blocked(s, kMe, Ability::RicheseNoField)) return reject(RejectCode::IllegalChoice, *why);
  // A Karama that cancelled the ally's token shipment is recorded against the
  // shipper (its window's owner): the retake is without a token too.
  if (ally)
    if (auto why = ability_blocked(s, shipper, Ability::RicheseNoField)) return reject(RejectCode::IllegalChoice, *why);
  // The ally knows only what is public: the Richese's marker on the planet is
  // revealed first (RicheseReveal), so that the ally's choice of token cannot
  // tell it the marker's value.
  if (ally && no_field_on_board(s) >= 0)
    return reject(RejectCode::IllegalChoice, "the Richese's No-Field on the planet must be revealed first (RicheseReveal) before their ally ships with one");
  switch (s.richese.no_field[i].zone) {
    case TokenZone::Board:
      return reject(RejectCode::IllegalChoice, "the " + std::to_string(a.no_field) + " No-Field is on the planet: ship another");
    case TokenZone::Revealed:
      return reject(RejectCode::IllegalChoice, "the " + std::to_string(a.no_field) +
                                                   " No-Field is face up, the last used: ship another (ruling no_field_face_up)");
    case TokenZone::Reserve: break;
  }
  if (ally && s.rulings.is(RulingId::NoFieldAllyPermission, kRicheseAllows) && !permits(s))
    return reject(RejectCode::IllegalChoice,
                  "the Richese have not let their ally ship with a No-Field token (their AllyPermission no_field; ruling no_field_ally_permission)");
  if (ally && a.no_field == 0 && s.rulings.is(RulingId::NoFieldAllyZero, kAllyThreeOrFive))
    return reject(RejectCode::IllegalChoice, "the ally ships with the 3 or the 5 No-Field only (ruling no_field_ally_zero)");
  return std::nullopt;
}

std::pair<int, int> ship(GameState& s, Faction shipper, const action::Ship& a) {
  const int i = token_of_value(a.no_field);
  const int on = no_field_on_board(s);
  if (on >= 0) reveal_marker(s, s.richese.no_field[on].location);  // one on the planet: revealed first, in public
  const int up = no_field_face_up(s);
  s.richese.shipment = RicheseState::Shipment{1, up < 0 ? kNone8 : static_cast<uint8_t>(up), 0};  // 1.14.05
  place(s, i, a.to, on < 0 || !s.rulings.is(RulingId::NoFieldShippedReveal, kStaysFaceUp));
  if (shipper == kMe) return {0, 0};
  // The ally's: revealed at once, as the ally's own forces.
  token_off_board(s, a.to);
  release_face_up(s);
  s.richese.no_field[i] = NoFieldToken{TokenZone::Revealed, kNone8};
  s.richese.shipment.revealed = 1;
  const int reg = s.of(shipper).reserves[0];
  const int all = materialize(s, shipper, a.to, a.no_field);
  return {reg - s.of(shipper).reserves[0], all - (reg - s.of(shipper).reserves[0])};
}

std::optional<Rejection> check_cancel(const GameState& s) {
  if (!s.richese.shipment.token || !s.rulings.is(RulingId::NoFieldGuildCancel, kNotCancellable)) return std::nullopt;
  return reject(RejectCode::IllegalChoice, "a shipment made with a No-Field token may not be cancelled (ruling no_field_guild_cancel)");
}

void cancelled(GameState& s) {
  auto& rec = s.richese.shipment;
  if (!rec.token) return;
  const LocationId to = s.shipmove.last_to;
  if (const int i = no_field_on_board(s); !rec.revealed && i >= 0 && s.richese.no_field[i].location == to) {
    token_off_board(s, to);  // still concealed: back to the supply, its value never shown
    s.richese.no_field[i] = NoFieldToken{};
  } else if (const int up = no_field_face_up(s); rec.revealed && up >= 0) {
    s.richese.no_field[up] = NoFieldToken{};  // revealed since (its forces go back with the shipment's)
  }
  if (rec.face_up != kNone8) s.richese.no_field[rec.face_up] = NoFieldToken{TokenZone::Revealed, kNone8};
  rec = RicheseState::Shipment{};
}

void turn_begins(GameState& s) { s.richese.shipment = RicheseState::Shipment{}; }

// Ruling no_field_ally_permission = richese_allows: the Richese's standing
// consent that their ally ships with a token (AllyPermission.no_field), for
// that alliance only (ally_no_field holds 1 + the ally).
std::optional<Rejection> check_permit(const GameState& s, const action::AllyPermission&) {
  if (!s.rulings.is(RulingId::NoFieldAllyPermission, kRicheseAllows))
    return reject(RejectCode::IllegalChoice,
                  "in this game the Richese's ally needs no permission to ship with a No-Field token (ruling no_field_ally_permission): "
                  "leave no_field false");
  return std::nullopt;
}

bool permits(const GameState& s) {
  const uint8_t ally = ally_in_game(s, kMe);
  return ally != kNoFaction && s.richese.ally_no_field == ally + 1;
}

void permit(GameState& s, const action::AllyPermission& a) {
  if (!s.rulings.is(RulingId::NoFieldAllyPermission, kRicheseAllows)) return;
  const uint8_t ally = ally_in_game(s, kMe);
  s.richese.ally_no_field = a.no_field && ally != kNoFaction ? static_cast<uint8_t>(ally + 1) : 0;
}

int destroyed(GameState& s, LocationId loc) {
  const int i = no_field_on_board(s);
  if (i < 0 || s.richese.no_field[i].location != loc) {  // not the token: nothing to reveal (custody reports it)
    token_off_board(s, loc);
    return 0;
  }
  const int value = kNoFieldValues[i];
  const int k = reveal_marker(s, loc);
  if (k < value && s.rulings.is(RulingId::NoFieldDestroyed, kShortfallFromTerritory)) {
    int short_by = value - k;
    const auto& ter = data::territory(data::territory_of(loc));
    for (int j = 0; j < ter.num_locations && short_by > 0; ++j) {
      const auto l = static_cast<LocationId>(ter.first_location + j);
      const int n = l == loc ? 0 : std::min<int>(short_by, s.forces_at(kMe, l, 0));
      if (n > 0) forces_to_tanks(s, kMe, l, n, 0);
      short_by -= n;
    }
  }
  return k;
}

int reveal(GameState& s, LocationId loc) { return reveal_marker(s, loc); }

void moved(GameState& s, LocationId from, LocationId to) {
  const int i = no_field_on_board(s);
  if (i >= 0 && s.richese.no_field[i].location == from) s.richese.no_field[i].location = to;
}

int max_dial(const GameState& s, TerritoryId t, uint8_t area, int n) {
  const int i = no_field_on_board(s);
  if (i < 0 || !in_area(s, s.richese.no_field[i].location, t, area)) return n;
  const int reserves = s.of(kMe).reserves[0];
  const int pool = n - 1 + std::min<int>(kNoFieldValues[i], reserves);
  return s.rulings.is(RulingId::NoFieldPool, kReserveCap) ? std::min(pool, reserves) : pool;
}

int my_side(const GameState& s) {
  if (s.battle.aggressor >= 0 && s.faction_at(s.battle.aggressor) == kMe) return 0;
  if (s.battle.defender >= 0 && s.faction_at(s.battle.defender) == kMe) return 1;
  return -1;
}

void plans_revealed(Ctx& c) {
  auto& s = c.s;
  const int i = no_field_on_board(s), side = my_side(s);
  if (i < 0 || side < 0 || !in_area(s, s.richese.no_field[i].location, s.battle.territory, s.battle.area)) return;
  s.richese.battle.no_field = static_cast<uint8_t>(1 + side);
  s.richese.battle.revealed = static_cast<uint8_t>(reveal_marker(s, s.richese.no_field[i].location));
}

bool dial_hidden(const GameState& s, int side) {
  if (s.rulings.is(RulingId::NoFieldPrescience, kAnyElement) || side != my_side(s)) return false;
  if (s.richese.battle.no_field == 1 + side) return true;
  const int i = no_field_on_board(s);
  return i >= 0 && in_area(s, s.richese.no_field[i].location, s.battle.territory, s.battle.area);
}

bool worm_ignores(const GameState& s) { return s.rulings.is(RulingId::NoFieldWorm, kWormIgnores); }

}  // namespace no_field

int no_field_on_board(const GameState& s) {
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (s.richese.no_field[i].zone == TokenZone::Board) return i;
  return -1;
}

int no_field_face_up(const GameState& s) {
  for (int i = 0; i < kNumNoFieldTokens; ++i)
    if (s.richese.no_field[i].zone == TokenZone::Revealed) return i;
  return -1;
}

std::optional<Rejection> no_field_reveal_validate(const GameState& s) {
  if (no_field_on_board(s) < 0) return reject(RejectCode::IllegalChoice, "the Richese have no No-Field token on the planet");
  if (s.phase == Phase::Setup || s.phase >= Phase::Battle)
    return reject(RejectCode::WrongPhase, "a No-Field token is revealed at will only before the Battle phase of a turn (Storm to Shipment and Movement)");
  return std::nullopt;
}

void no_field_reveal_apply(GameState& s) {
  const int i = no_field_on_board(s);
  if (i >= 0) reveal_marker(s, s.richese.no_field[i].location);
}

}  // namespace mentat::rules
