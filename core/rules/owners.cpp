// The owner table and the dispatch of game events and modifiers
// (core/rules/owners.h).
#include "core/rules/owners.h"

#include <algorithm>
#include <array>
#include <vector>

namespace mentat::rules {

namespace {

// Every owner, in the table's fixed order: the factions by faction id, then
// the cards, the leader skills, the stronghold cards and the modules.
constinit const Owner* const kOwners[] = {
    &kAtreidesOwner, &kBeneGesseritOwner, &kEmperorOwner, &kFremenOwner, &kHarkonnenOwner,
    &kGuildOwner,    &kChoamOwner,        &kRicheseOwner, &kKaramaOwner, &kLeaderSkillsOwner,
    &kStrongholdCardsOwner,
};

template <class Row>
struct Entry {
  const Owner* owner;
  Row row;
};

// Per kind, the rows of every owner sorted by (order, table position).
struct Index {
  std::array<std::vector<Entry<Subscription>>, static_cast<size_t>(EventKind::kCount)> events;
  std::array<std::vector<Entry<ModifierAnswer>>, static_cast<size_t>(Modifier::kCount)> modifiers;
};

template <class Row>
void sort_rows(std::vector<Entry<Row>>& rows) {
  std::stable_sort(rows.begin(), rows.end(), [](const Entry<Row>& a, const Entry<Row>& b) { return a.row.order < b.row.order; });
}

const Index& index() {
  static const Index kIndex = [] {
    Index x;
    for (const Owner* o : kOwners) {
      for (const Subscription& sub : o->subscriptions) x.events[static_cast<size_t>(sub.kind)].push_back({o, sub});
      for (const ModifierAnswer& a : o->modifiers) x.modifiers[static_cast<size_t>(a.what)].push_back({o, a});
    }
    for (auto& rows : x.events) sort_rows(rows);
    for (auto& rows : x.modifiers) sort_rows(rows);
    return x;
  }();
  return kIndex;
}

}  // namespace

std::span<const Owner* const> owners() { return kOwners; }

namespace {
thread_local EventTap t_tap = nullptr;
thread_local void* t_tap_ctx = nullptr;
}  // namespace

void set_event_tap(EventTap tap, void* ctx) {
  t_tap = tap;
  t_tap_ctx = ctx;
}

void raise_event(GameState& s, EventKind kind, const void* event) {
  if (t_tap) [[unlikely]] t_tap(t_tap_ctx, kind, event);
  for (const auto& e : index().events[static_cast<size_t>(kind)])
    if (e.owner->in_game && e.owner->in_game(s)) e.row.handle(s, event);
}

int modify_value(const GameState& s, Modifier what, const void* query, int value) {
  for (const auto& e : index().modifiers[static_cast<size_t>(what)])
    if (e.owner->in_game && e.owner->in_game(s)) value = e.row.answer(s, query, value);
  return value;
}

}  // namespace mentat::rules
