// The bots' policies (bots/brain.h) for response windows and Karama: the
// answer to a Respond window that no more specific policy takes (bots.cpp's
// dispatch sends the Semuta Drug's, the Stone Burner's, the Bureaucrat's,
// the Nullentropy Box's and CHOAM's sale windows elsewhere), what a Karama
// card is worth kept, the cancel (3.01.11.01), the prevention (3.01.11.02)
// and the faction powers of the Atreides (1.14.01), the Fremen (1.14.03)
// and the Guild (1.14.05). The Karama bid, the Harkonnen's and the
// Emperor's powers and Guild rates belong to the decisions they ride on
// (policy_bidding.cpp, policy_shipment_movement.cpp). docs/BOTS.md's table
// gives each policy per profile.
#include "bots/brain.h"

namespace mentat::bots::detail {

// ---- windows and small answers --------------------------------------------------

size_t Brain::respond() {
  const DecisionInfo* d = decision(ActionKind::Respond);
  const Topic topic = d ? d->topic : Topic::None;
  auto respond_flag = [&](bool flag) {
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept == flag && a.card == kNone8; }));
  };
  // Leader Skills: draw two skill cards for a leader revived without a skilled one: yes.
  if (topic == Topic::SkillDraw) return respond_flag(true);
  // 2.04.11 the Fremen grant their ally a free revival: yes.
  if (topic == Topic::GrantAllyRevival) return respond_flag(true);
  // 2.04.10 the Fremen protect their ally's forces from the sandworm: yes.
  if (topic == Topic::ProtectAllyFromWorm) return respond_flag(true);
  // 2.05.10 captured leader: hard captures (a leader for the pool), medium kills (2 spice).
  if (topic == Topic::HarkonnenCapture)
    return or_fallback(find_kind<action::Respond>([&](const action::Respond& a) { return a.accept == hard(); }));
  // 3.01.11.01 a Karama cancel window: the view names the ability (not its text).
  if (k_.cancel_ability != kNone8) return karama_cancel();
  // 3.01.22 a free-form Truthtrance question: its text is not in the view, so
  // the bot cannot know the truthful answer; it answers "no".
  if (d && d->window == WindowKind::Truthtrance) return respond_flag(false);
  // 1.14.04 give cards back: the least useful card first.
  if (size_t i = best<action::Respond>([&](const action::Respond& a) { return a.card == kNone8 ? kNeg : -card_value(a.card); }); i != npos)
    return i;
  // Any other window: decline.
  return respond_flag(false);
}

// 3.01.11.01: cancel an ability as it is used (a KaramaCancel window; the
// view names the ability and its user: View.cancel_ability, cancel_faction). Medium never cancels. Hard and
// brutal weigh the cancellation (cancel_value) against the Karama kept, and
// cancel with a nearly worthless card (a Bene Gesserit worthless card)
// whenever the cancellation is worth anything; never their own or their
// ally's ability.
size_t Brain::karama_cancel() {
  auto decline = [&]() {
    return or_fallback(find_kind<action::Respond>([](const action::Respond& a) { return !a.accept; }));
  };
  if (!hard() || k_.cancel_ability == kNone8 || k_.cancel_faction >= kNumFactions) return decline();
  const auto user = static_cast<Faction>(k_.cancel_faction);
  if (user == me() || k_.is_ally(user)) return decline();
  const size_t card = best<action::Respond>(
      [&](const action::Respond& a) { return a.accept && a.card != kNone8 ? -karama_keep(a.card) : kNeg; });
  if (card == npos) return decline();
  const double keep = karama_keep(legal_[card].as<action::Respond>().card);
  const double v = cancel_value(k_.cancel_ability, user);
  if (v > 0 && (keep <= 1.0 || v > keep)) return card;
  return decline();
}

// What cancelling `ability` as `user` uses it is worth to this seat, in
// spice: 6 when the user (or its ally) is close to winning; the battle
// abilities 5 more when this seat is the user's opponent in the battle under
// way (the Voice, Prescience, the Kwisatz Haderach; the capture of its
// leader).
double Brain::cancel_value(uint8_t ability, Faction user) const {
  double v = threat(user) ? 6.0 : 0.0;
  if (const uint8_t ally = k_.fac[static_cast<int>(user)].ally; ally < kNumFactions && threat(static_cast<Faction>(ally))) v = 6.0;
  const bool battle_ability = ability == ab::kBgVoice || ability == ab::kAtreidesPrescience || ability == ab::kKwisatzHaderach ||
                              ability == ab::kHarkonnenCapture;
  if (battle_ability && k_.battle && (k_.seat == k_.aggressor || k_.seat == k_.defender) && opponent() == user) v += 5.0;
  return v;
}

// ---- Karama (3.01.11) -------------------------------------------------------------------

bool Brain::karama_like(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return false;
  if (kind(card) == TreacheryKind::Karama) return true;
  return is_worthless(card) && k_.worthless_is_karama();
}

double Brain::karama_keep(uint8_t card) const {
  if (card >= data::kNumAllTreacheryCards) return 0;
  if (kind(card) != TreacheryKind::Karama) return 0.5;  // a Bene Gesserit worthless card
  return hard() ? 4.0 : 4.5;
}

uint8_t Brain::cheapest_karama() const {
  uint8_t out = kNone8;
  for (auto c : k_.hand)
    if (karama_like(c) && (out == kNone8 || karama_keep(c) < karama_keep(out))) out = c;
  return out;
}

// 3.01.11.03: is this seat's shipment already at Guild rates by Karama? The
// view does not say; a Karama (or Bene Gesserit worthless card) on top of the
// discard pile at this seat's shipment step, while it may not buy Guild rates
// with a card it still holds, means it just did.
bool Brain::half_price_now() const {
  if (k_.phase != Phase::ShipmentMovement || k_.discard.empty() || !karama_like(k_.discard.back())) return false;
  if (cheapest_karama() != kNone8 &&
      find_kind<action::PlayCard>([&](const action::PlayCard& a) { return karama_like(a.card) && (a.value & 128); }) != npos)
    return false;
  return true;
}

// ---- Karama prevention (3.01.11.02) ----------------------------------------------------

// Hard and brutal, as the aggressor choosing its next battle (the battle has
// not begun, so a prevention is for this one): prevent the opponent's
// ability that weighs most in it, when it is worth more than the card kept
// (a Karama 4, a Bene Gesserit worthless card 0.5). Worth, in spice: the
// Voice and Prescience 3, the Kwisatz Haderach and the capture 2, the
// Fremen's battle-hardened dial 1.5 (advanced), each Sardaukar or Fedaykin
// in the territory 1 (they count one instead of two); half as much again
// in a stronghold. A prevented ability is no longer offered, so the
// decision is asked again and the battle chosen.
size_t Brain::karama_prevent_battle(Faction opp, TerritoryId t) {
  if (!hard() || t >= data::kNumTerritories) return npos;
  int elites = 0;
  const auto& ter = data::territory(t);
  for (int i = 0; i < ter.num_locations; ++i) elites += k_.forces[static_cast<int>(opp)][ter.first_location + i][1];
  const double stakes = is_stronghold(t) ? 1.5 : 1.0;
  auto worth = [&](uint8_t ability) -> double {
    switch (ability) {
      case ab::kBgVoice:
      case ab::kAtreidesPrescience: return 3.0;
      case ab::kKwisatzHaderach:
      case ab::kHarkonnenCapture: return k_.advanced ? 2.0 : 0.0;
      case ab::kFremenBattleHardened: return k_.advanced ? 1.5 : 0.0;
      case ab::kEmperorSardaukar:
      case ab::kFremenFedaykin: return k_.advanced ? 1.0 * elites : 0.0;
      default: return 0.0;
    }
  };
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || !(a.value & kKaramaPreventBit) || (a.value & kKaramaGuildRatesBit) || a.target != static_cast<uint8_t>(opp))
          return kNeg;
        return stakes * worth(static_cast<uint8_t>(a.value & 0x3F)) - karama_keep(a.card);
      },
      0.0);
}

// Brutal, at its own shipment: prevent the next half-price shipment of the
// Guild or the Fremen's next two-territory movement when that faction is
// close to winning (threat) and has not shipped yet this phase (worth 5).
size_t Brain::karama_prevent_shipping() {
  if (!brutal()) return npos;
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || !(a.value & kKaramaPreventBit) || (a.value & kKaramaGuildRatesBit) || a.target >= kNumFactions)
          return kNeg;
        const auto f = static_cast<Faction>(a.target);
        const uint8_t ability = a.value & 0x3F;
        if (ability != ab::kGuildHalfPrice && ability != ab::kFremenMovement) return kNeg;
        if (!threat(f) || k_.fac[a.target].shipped) return kNeg;
        return 5.0 - karama_keep(a.card);
      },
      0.0);
}

// ---- Karama powers: Atreides (1.14.01), Fremen (1.14.03), Guild (1.14.05) ---------

// Hard and brutal Atreides, in a battle they fight, once the opponent's plan
// is committed and theirs is not: look at that plan when the stakes are high
// (a stronghold, or many forces: territory value plus the forces at stake of
// 14, brutal 12). battle_plan() then answers the plan it saw.
size_t Brain::atreides_karama() {
  if (!hard() || me() != Faction::Atreides || k_.battle_territory >= data::kNumTerritories) return npos;
  const int opp_side = 1 - my_side();
  if (!k_.plan_in[opp_side] || k_.plan[opp_side].known) return npos;
  const Faction opp = opponent();
  if (opp == me()) return npos;
  const size_t kp = best<action::PlayCard>([&](const action::PlayCard& a) {
    return karama_like(a.card) && a.value == 0 && a.target == static_cast<uint8_t>(opp) ? -karama_keep(a.card) : kNeg;
  });
  if (kp == npos) return npos;
  const TerritoryId t = k_.battle_territory;
  const double stakes =
      territory_value(t) + 0.6 * k_.forces_in_territory(me(), t) + 0.5 * k_.forces_in_territory(opp, t);
  return stakes >= (brutal() ? 12.0 : 14.0) ? kp : npos;
}

// The Fremen sandworm (1.14.03), when offered (the end of a spice blow, a
// Nexus): the sand territory where it devours the most, enemy forces counted
// 1.5 each (an ally's protected, a little against; their own against), the spice
// there a little (denied to the others, or lost to them). Medium places it
// when that beats the Karama kept by 5, hard and brutal by 2.
size_t Brain::fremen_karama_worm() {
  return best<action::PlayCard>(
      [&](const action::PlayCard& a) {
        if (!karama_like(a.card) || a.value != kKaramaProtectAllyValue || a.target >= data::kNumLocations) return kNeg;
        const TerritoryId t = data::territory_of(a.target);
        double v = 0;
        int mine = 0;
        for (int f = 0; f < kNumFactions; ++f) {
          const auto fa = static_cast<Faction>(f);
          if (!k_.fac[f].present) continue;
          const int n = k_.forces_in_territory(fa, t);
          if (fa == me()) {
            v -= 0.5 * n;
            mine += n;
          } else if (k_.is_ally(fa)) {
            v -= 0.2 * n;  // protected (value 1, 2.04.10)
          } else {
            v += 1.5 * n;  // about what reviving them would cost (2 spice a force, less the free ones)
          }
        }
        const auto& ter = data::territory(t);
        int sp = 0;
        for (int i = 0; i < ter.num_locations; ++i) sp += k_.spice_on_board[ter.first_location + i];
        v += (mine > 0 ? -0.2 : 0.2) * sp;
        return v - karama_keep(a.card);
      },
      hard() ? 2.0 : 5.0);
}

// 1.14.05 the Guild, asked right after another faction's shipment from its
// reserves: hard and brutal cancel it when the shipper (with its ally) now
// controls enough strongholds to win (three, four allied); medium lets every
// shipment stand. The view does not say what was shipped: the board after it
// is what counts.
size_t Brain::guild_karama() {
  const size_t stand = pass();
  if (!hard()) return or_fallback(stand);
  const size_t kp = best<action::PlayCard>([&](const action::PlayCard& a) {
    return karama_like(a.card) && a.value == 0 && a.target < kNumFactions ? -karama_keep(a.card) : kNeg;
  });
  if (kp == npos) return or_fallback(stand);
  const auto shipper = static_cast<Faction>(legal_[kp].as<action::PlayCard>().target);
  if (shipper == me() || k_.is_ally(shipper)) return or_fallback(stand);
  const uint8_t sa = k_.fac[static_cast<int>(shipper)].ally;
  int held = 0;
  for (auto t : data::strongholds())
    held += k_.controls(shipper, t) || (sa < kNumFactions && k_.controls(static_cast<Faction>(sa), t)) ? 1 : 0;
  const int need = sa < kNumFactions ? 4 : 3;
  return held >= need ? kp : or_fallback(stand);
}

}  // namespace mentat::bots::detail
