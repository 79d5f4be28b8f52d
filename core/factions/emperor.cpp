// The Emperor's abilities (2.03) that the phases reach through the hook table
// (core/factions/faction_rules.h); docs/ARCHITECTURE.md.
#include "core/factions/faction_rules.h"
#include "core/rules/owners.h"

namespace mentat::rules {
namespace {

// 2.03.08-09 (advanced): Sardaukar count as two forces in battle, except
// against the Fremen (modifier EliteWorthQuery, core/rules/owners.h).
int sardaukar_worth(const GameState&, const EliteWorthQuery& q, int worth) {
  if (q.faction != Faction::Emperor) return worth;
  return q.opponent != Faction::Fremen ? 2 : 1;
}

// ---- 1.14.02 Karama power: revive up to 3 forces or a leader free ----

constexpr int kKaramaForces = 3;
// Ruling emperor_karama_elite_limit: whether 2.03.11 applies to it.
bool karama_elite_limit(const GameState& s) { return s.rulings.is(RulingId::EmperorKaramaEliteLimit, 0); }

std::optional<Rejection> karama_check(const GameState& s, Faction me, const Action& a) {
  if (s.phase != Phase::Revival)
    return reject(RejectCode::WrongPhase, "the Emperor's Karama power is used during the Revival phase (1.14.02)");
  return check_card_revival(s, me, a, kKaramaForces, karama_elite_limit(s), "1.14.02");
}
void karama_apply(Ctx& c, Seat seat, const Action& a) {
  apply_card_revival(c, c.s.faction_at(seat), a, karama_elite_limit(c.s));
}
void karama_candidates(const GameState& s, Faction me, const Action& base, std::vector<Action>& out) {
  card_revival_candidates(s, me, kKaramaForces, base, out);
}

// 3.01.11: this faction's abilities marked ✷ (a Karama cancels or prevents
// them): their rules and the action each changes (ActionKind::Pass: an
// automatic ability, prevented only). ability_info() reads them.
constexpr AbilityInfo kAbilities[] = {
    {Ability::EmperorPayment, Faction::Emperor, "2.03.04", "payment for treachery", ActionKind::Pass},
    {Ability::EmperorAllyRevival, Faction::Emperor, "2.03.07", "paying for the ally's extra revival", ActionKind::Revive},
    {Ability::EmperorSardaukar, Faction::Emperor, "2.03.08", "Sardaukar", ActionKind::Pass},
};

constexpr FactionRules make() {
  FactionRules r;
  r.abilities = kAbilities;
  // 2.03.04: card payments go to the Emperor (bidding.cpp pay_for_card; 2.03.05
  // the Emperor's own payments and ruling emperor_ally_payment there).
  r.receives_card_payments = Ability::EmperorPayment;
  r.elite_ability = Ability::EmperorSardaukar;
  r.one_special_revival = true;  // 2.03.11
  // 2.03.07: the Emperor pays for up to 3 forces of its ally beyond the limit
  // (revival.cpp; 3.01.11.02 a prevention is used up by the ally's next answer
  // when it could revive more than 3).
  r.pays_ally_revival = Ability::EmperorAllyRevival;
  r.ally_extra_revival = 3;
  r.gives_ally_spice = true;  // 2.03.06 (deals.cpp GiveSpice)
  r.karama_power = {karama_check, karama_apply, karama_candidates,
                    ", or revive a leader or up to 3 forces for free (1.14.02)"};
  return r;
}

}  // namespace

constinit const FactionRules kEmperorRules = make();

// The faction's entry in the owner table (core/rules/owners.h): the worth of
// its Sardaukar; its other abilities are reached through kRules' hooks.
namespace {
constexpr ModifierAnswer kAnswers[] = {answer<EliteWorthQuery, sardaukar_worth>(0)};
}  // namespace
constinit const Owner kEmperorOwner{"emperor", OwnerKind::Faction, faction_seated<Faction::Emperor>, {}, kAnswers};

}  // namespace mentat::rules
