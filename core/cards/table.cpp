// The card table: one entry per card whose rule has its own file.
#include "core/cards/card_rules.h"

namespace mentat::rules {

namespace {
const CardRules* const kCards[] = {&kDistransRules, &kNullentropyBoxRules, &kPortableSnooperRules, &kResidualPoisonRules, &kStoneBurnerRules, &kSemutaDrugRules, &kJuiceOfSaphoRules};
}  // namespace

const CardRules* card_rules(data::TreacheryKind kind) {
  for (const CardRules* r : kCards)
    if (r->kind == kind) return r;
  return nullptr;
}

bool card_may_be_held(const GameState& s, data::TreacheryKind kind) {
  const int id = data::first_card_of_kind_in_game(s.modules, static_cast<int>(kind));
  if (id < 0 || !lots_sold(s)) return false;
  const auto card = static_cast<uint8_t>(id);
  for (int i = s.treachery_discard_hidden; i < s.treachery_discard.n; ++i)
    if (s.treachery_discard.ids[i] == card) return false;  // listed on the discard pile
  if (s.treachery_played.contains(card) || s.richese.removed.contains(card)) return false;
  int richese_cards = 0;  // the cache holds only Richese cards: while it holds them all, nobody has one
  for (int c = 0; c < data::kNumAllTreacheryCards; ++c)
    if (data::treachery_card(static_cast<uint8_t>(c)).set == data::CardSet::Richese) ++richese_cards;
  return s.richese.cache.n + s.richese.removed.n < richese_cards;
}

const CardRules::CardWindow* card_window(WindowKind k) {
  if (k == WindowKind::None) return nullptr;
  if (k == WindowKind::Bureaucracy) return &kBureaucracyWindow;  // a leader skill's window (core/cards/leader_skills.cpp)
  if (k == WindowKind::SkillRevival) return &kSkillRevivalWindow;
  for (const CardRules* r : kCards)
    if (r->window.kind == k) return &r->window;
  return nullptr;
}

}  // namespace mentat::rules
