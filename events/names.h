// Names for the ids in actions and answers: locations, territories, leaders,
// treachery cards and factions, looked up in the project's data tables
// (core/data) and matched forgivingly (case, spaces, apostrophes and
// underscores do not matter: "tueks sietch" is Tuek's Sietch).
//
// resolve_action_json is a pre-pass over an action request's JSON
// ({"action_type": KIND, "action": {...}}): every string given where the
// schema (events/mentat.fbs) takes a location, territory, leader, card or
// faction id is replaced by that id (factions by their schema name), so the
// FlatBuffers parser stays the one reader of the schema. Numbers pass
// unchanged. Which fields take which kind of id is one table in names.cpp,
// keyed by the schema's table and field names.
//
// Contract: pure functions of their arguments and the compiled data tables;
// thread-safe. Errors: false (or nullopt) and one sentence in *error naming
// the field, the text and the nearest names ("did you mean ...?"). Malformed
// JSON is passed through unchanged for the FlatBuffers parser to report,
// except JSON nested deeper than kMaxJsonDepth objects and lists, which is
// refused here with its own sentence. resolve_action_json's work and memory
// are linear in the input's length (no recursion past kMaxJsonDepth, no
// copies of key paths).
//
// A name is printable ASCII: text holding a control character, a byte of
// 0x80 or more (UTF-8 included) or an escaped one (\u0000) is refused,
// never read with the odd characters dropped; the sentence shows them as
// \xHH and offers the nearest names.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.h"

namespace mentat::names {

// What a card name resolves against. With a state and a seat, a card name
// means the copy that seat holds (or has in its battle plan); without one,
// only names of which the deck has a single copy resolve.
inline constexpr int kMaxJsonDepth = 64;  // as the FlatBuffers parser's own limit

struct Context {
  const GameState* state = nullptr;
  Seat seat = kNoSeat;
};

bool resolve_action_json(std::string_view json, const Context& ctx, std::string* out, std::string* error);

// A location by its name ("Old Gap (East Sector)"), or a territory's name when
// the territory has a single piece ("Sietch Tabr").
std::optional<LocationId> find_location(std::string_view text, std::string* error);
// A territory by its name, or by the name of one of its pieces.
std::optional<TerritoryId> find_territory(std::string_view text, std::string* error);
std::optional<LeaderId> find_leader(std::string_view text, std::string* error);
// "harkonnen", "Bene Gesserit", "bene_gesserit", "BeneGesserit", "guild".
std::optional<Faction> find_faction(std::string_view text, std::string* error);
// Every card id with this name ("Shield" has four).
std::vector<TreacheryId> find_cards(std::string_view text, std::string* error);

// Display names of ids ("65 Sietch Tabr" is fmt("{} {}", id, location_name(id))).
std::string location_name(LocationId id);
std::string territory_name(TerritoryId id);
std::string leader_name(LeaderId id);
std::string card_name(TreacheryId id);

// The names table of docs/CLI.md and `mentat names`: Markdown tables of
// locations (id, name, territory, sector), leaders (id, name, faction,
// strength), treachery cards (id, name) and factions (key, name).
std::string names_markdown();

// The nearest names to `text` among `candidates` (at most 3), for "did you
// mean" sentences; empty when nothing is near.
std::vector<std::string> nearest(std::string_view text, const std::vector<std::string>& candidates);
// ", did you mean 'a' or 'b'?" or "".
std::string did_you_mean(std::string_view text, const std::vector<std::string>& candidates);

}  // namespace mentat::names
