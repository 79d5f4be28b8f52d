// Human-readable one-line summaries of events (mentat log, mentat replay).
//
// Contract: pure; thread-safe. `before` is the state the event was applied
// to (null for version 0), `after` the state it produced. The summary names
// only what is public unless `show_hidden` is set (adjudicator output). It
// holds no control characters: free text goes through codec::printable.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/notes.h"
#include "core/state.h"
#include "events/codec.h"

namespace mentat::inspect {

std::string summarize_event(const codec::Event& e, const GameState* before, const GameState& after, bool show_hidden);
// What a PlayCard of a Karama (or of a worthless card played as one) is for,
// in words: "this turn's shipment at Guild rates", "prevents take up arms
// (Bene Gesserit)", "the faction's own Karama power"; "" for other actions.
std::string karama_use(const Action& a);
// The same, as a key for programs (the legal listing's `karama`):
// "guild_rates" (value kKaramaGuildRates), "prevent" (kKaramaPrevent |
// ability, target its faction), "power" (the faction's own Karama power);
// "" when the action spends no Karama.
std::string_view karama_use_key(const Action& a);
// The label of a legal action `a` of `seat` (GET /rooms/{id}/legal): its own
// summary without the "vN  T.. Phase" columns, and which Karama use it is.
std::string action_label(const GameState& s, Seat seat, const Action& a);

// What changed from `before` to `after`, in readable lines ("storm sector: 3
// -> 7", "atreides forces in Arrakeen: 10 -> 8", "Lasgun #14: hand:atreides ->
// treachery_discard", "game over: Atreides, Fremen win (stronghold victory)"),
// from replay::diff_states. Without `show_hidden` only public changes are
// listed: no spice behind shields, no card reaching a hand or a deck (only
// "a treachery card"), no traitors, no internal fields.
// With `notes` (what applying the event decided, see notes_of) it starts
// with each battle's result: "battle in Arrakeen: Atreides wins against
// Harkonnen (7 to 5)".
std::vector<std::string> what_changed(const GameState& before, const GameState& after, bool show_hidden,
                                      const ApplyNotes* notes = nullptr);
// Applies `e` to a copy of `before` and returns the engine's notes (each
// battle resolved and its winner). `e` must be the event that produced the
// state after `before` (not a CreateGame).
ApplyNotes notes_of(const GameState& before, const codec::Event& e);
// "battle in Arrakeen: Atreides wins against Harkonnen (7 to 5)".
std::string battle_line(const BattleOutcome& b);
// "stronghold victory", "Fremen default victory", ... (GameState::victory_kind).
const char* victory_kind_name(uint8_t kind);
// The outcome of an event for the log: its public changes on one line, or ""
// (pending-decision bookkeeping is left out).
std::string outcome_line(const GameState& before, const GameState& after, bool show_hidden, const ApplyNotes* notes = nullptr);

}  // namespace mentat::inspect
