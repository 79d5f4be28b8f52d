// 1.12 Deals and Bribes, valid in every phase after setup (0.00, 1.12) and
// never during the Mentat Pause. A bribe moves spice from behind the giver's
// shield to in front of the receiver's (collected at 1.09.01), or straight
// behind it under the `bribe_timing=immediate` ruling. Allies may not bribe
// each other (1.12, 1.10.02.04). A deal is recorded text the engine does not
// enforce.
#include "core/rules/rules.h"

namespace mentat::rules {

bool is_anytime(ActionKind k) { return k == ActionKind::Bribe || k == ActionKind::Deal; }

std::optional<Rejection> validate_anytime(const GameState& s, Seat seat, const Action& a) {
  if (s.phase == Phase::Setup) return reject(RejectCode::WrongPhase, "no deals or bribes before the first storm (0.00)");
  if (s.phase == Phase::MentatPause) return reject(RejectCode::WrongPhase, "no bribes during the Mentat Pause (1.12)");
  const Faction me = s.faction_at(seat);
  if (a.kind == ActionKind::Bribe) {
    if (a.faction >= kNumFactions || !s.has(static_cast<Faction>(a.faction)))
      return reject(RejectCode::Malformed, "the bribe's recipient is not in this game");
    if (static_cast<Faction>(a.faction) == me) return reject(RejectCode::IllegalChoice, "a faction cannot bribe itself");
    if (s.of(me).ally == a.faction) return reject(RejectCode::IllegalChoice, "allies may not give each other spice (1.10.02.04)");
    if (a.amount == 0) return reject(RejectCode::Malformed, "a bribe needs an amount of at least 1");
    if (a.amount > s.of(me).spice) return reject(RejectCode::NotEnoughSpice, "you hold only " + std::to_string(s.of(me).spice) + " spice");
    return std::nullopt;
  }
  if (a.text.empty()) return reject(RejectCode::Malformed, "a deal needs its text");
  if (a.text.size() > 1000) return reject(RejectCode::Malformed, "a deal's text is limited to 1000 bytes");
  for (int i = 0; i < a.n_factions; ++i)
    if (a.factions[i] >= kNumFactions || !s.has(static_cast<Faction>(a.factions[i])))
      return reject(RejectCode::Malformed, "a party to the deal is not in this game");
  return std::nullopt;
}

void apply_anytime(Ctx& c, Seat seat, const Action& a) {
  auto& s = c.s;
  if (a.kind != ActionKind::Bribe) return;  // a deal changes nothing but the record
  const Faction me = s.faction_at(seat);
  const auto to = static_cast<Faction>(a.faction);
  if (s.rulings.is(RulingId::BribeTiming, 1))
    transfer_spice(s, shield(me), shield(to), a.amount);
  else
    transfer_spice(s, shield(me), bribe_pool(to), a.amount);
}

}  // namespace mentat::rules
