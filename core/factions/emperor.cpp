// The Emperor's abilities (2.03) that the phases reach through the hook table
// (core/factions/faction_rules.h). Still in their phase files: 2.03.06 gifts
// (deals.cpp), 2.03.07 / 2.03.10-11 revival (revival.cpp), 2.03.08-09
// Sardaukar (battle.cpp), 1.14.02 Karama (cards.cpp); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"

namespace mentat::rules {
namespace {

constexpr FactionRules make() {
  FactionRules r;
  // 2.03.04: card payments go to the Emperor (bidding.cpp pay_for_card; 2.03.05
  // the Emperor's own payments and ruling emperor_ally_payment there).
  r.receives_card_payments = Ability::EmperorPayment;
  return r;
}

}  // namespace

constinit const FactionRules kEmperorRules = make();

}  // namespace mentat::rules
