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

const CardRules::CardWindow* card_window(WindowKind k) {
  if (k == WindowKind::None) return nullptr;
  for (const CardRules* r : kCards)
    if (r->window.kind == k) return &r->window;
  return nullptr;
}

}  // namespace mentat::rules
