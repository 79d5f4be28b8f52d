// 1.06 Shipment and Movement.
// NOT YET IMPLEMENTED: the phase ends as soon as it begins (see
// docs/rules-coverage.tsv).
#include "core/rules/rules.h"

namespace mentat::rules {
namespace {

void enter(Ctx& c) { enter_phase(c, Phase::Battle); }

std::optional<Rejection> validate(const GameState&, Seat, const Action&) {
  return reject(RejectCode::WrongPhase, "nothing is decided in this phase yet");
}
void apply(Ctx&, Seat, const Action&) {}
void decisions(const GameState&, Seat, std::vector<Decision>&) {}
void legal(const GameState&, Seat, std::vector<Action>&) {}

}  // namespace

const PhaseRules& shipment_movement_rules() {
  static const PhaseRules r{enter, validate, apply, decisions, legal};
  return r;
}

}  // namespace mentat::rules
