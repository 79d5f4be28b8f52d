// Adjudicating: fork, rerun, diff, bisect (cli/cli.h).
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>

#include "cli/cli.h"
#include "core/engine.h"
#include "events/codec.h"
#include "inspect/custody.h"
#include "inspect/render.h"
#include "inspect/report.h"
#include "inspect/view.h"
#include "replay/diff.h"
#include "replay/fold.h"
#include "replay/tools.h"
#include "store/room.h"

namespace mentat::cli {

int cmd_fork(const Args& a, store::EventStore& st) {
  std::string error;
  std::string fork_name = a.fork_name;
  if (fork_name.empty()) fork_name = fmt::format("{}-f{}", a.room, a.at);
  Rulings overrides;
  bool have_rulings = !a.ruling_args.empty();
  if (have_rulings) {
    GameState s;
    if (!store::load_state(st, a.room, a.at, &s, &error)) return fail(3, error);
    overrides = s.rulings;
    if (!apply_rulings(a.ruling_args, &overrides, &error)) return fail(2, error);
  }
  if (!store::fork_room(st, a.room, a.at, fork_name, have_rulings ? &overrides : nullptr, &error)) return fail(3, error);
  if (have_rulings)  // the fork's V+1 is the SetRulings: its version N+1 is the parent's N after V
    std::fprintf(stderr, "mentat: %s@%lld records the ruling change; its later versions are %s's plus one\n", fork_name.c_str(),
                 static_cast<long long>(a.at + 1), a.room.c_str());
  std::printf("%s\n", fork_name.c_str());
  return 0;
}

int cmd_rerun(const Args& a, store::EventStore& st) {
  std::string error;
  GameState s;
  if (!store::load_state(st, a.room, 0, &s, &error)) return fail(3, error);
  Rulings alt = s.rulings;
  if (!apply_rulings(a.ruling_args, &alt, &error)) return fail(2, error);
  if (alt == s.rulings)
    std::fprintf(stderr, "mentat: warning: the game already has %s: the rerun replays it under its own rulings\n",
                 fmt::format("{}", fmt::join(a.ruling_args, ", ")).c_str());
  if (!a.keep_name.empty()) {  // refuse before working, not after
    std::string err;
    if (st.meta(a.keep_name, &err)) return fail(2, "room " + a.keep_name + " exists already: choose another --keep name");
  }
  auto rep = replay::rerun(st, a.room, alt, a.rerun_from);
  if (!rep.ok) return fail(3, rep.error);
  int64_t head = -1;
  if (!a.keep_name.empty()) {
    // Keep the position just before the divergence under the other ruling.
    if (!replay::keep_rerun(st, a.room, alt, a.rerun_from, rep, a.keep_name, &head, &error)) return fail(3, error);
  }
  if (a.json) {  // one JSON object alone on stdout
    std::string out = fmt::format("{{\"room\":{},\"checked\":{},\"diverged\":{}", json_str(a.room), rep.checked, rep.diverged);
    if (rep.diverged)
      out += fmt::format(",\"version\":{},\"kind\":{},\"detail\":{},\"diff\":{}", rep.version, json_str(rep.kind),
                         json_str(rep.detail), replay::diff_to_json(rep.diff));
    if (!a.keep_name.empty()) out += fmt::format(",\"kept\":{{\"room\":{},\"head\":{}}}", json_str(a.keep_name), head);
    std::printf("%s}\n", out.c_str());
    return rep.diverged ? 1 : 0;
  }
  if (!rep.diverged) {
    std::printf("no difference: %lld events re-validated and refolded under the other ruling\n", static_cast<long long>(rep.checked));
  } else {
    std::printf("first divergence at version %lld (%s): %s\n", static_cast<long long>(rep.version), rep.kind.c_str(), rep.detail.c_str());
    if (!rep.diff.empty()) std::printf("%s", replay::diff_to_text(rep.diff).c_str());
  }
  // The kept room's first own event is the SetRulings: its version N+1 is the
  // original's version N from there on (docs/CLI.md).
  if (!a.keep_name.empty())
    std::printf("kept as room %s (head %lld = %s@%lld under the other ruling; its versions after the fork are %s's plus one)\n",
                a.keep_name.c_str(), static_cast<long long>(head), a.room.c_str(), static_cast<long long>(head - 1), a.room.c_str());
  return rep.diverged ? 1 : 0;
}

int cmd_diff(const Args& a, store::EventStore& st) {
  std::string error;
  GameState pa, pb;
  for (const auto& spec : {a.pos_a, a.pos_b})  // an unknown room is an input error (exit 2)
    if (const int rc = check_room(st, spec.substr(0, spec.rfind('@')))) return rc;
  if (!load_position(st, a.pos_a, &pa, &error) || !load_position(st, a.pos_b, &pb, &error)) return fail(3, error);
  auto d = replay::diff_states(pa, pb);
  if (a.json) std::printf("%s\n", replay::diff_to_json(d).c_str());
  else std::printf("%s", replay::diff_to_text(d).c_str());
  return d.empty() ? 0 : 1;
}

int cmd_bisect(const Args& a, store::EventStore& st) {
  std::string error;
  if (a.invariant.empty() == a.predicate.empty()) return fail(2, "bisect needs exactly one of --invariant or --predicate");
  std::function<bool(const GameState&)> holds;
  std::unique_ptr<replay::Predicate> pred;
  if (!a.predicate.empty()) {
    pred = replay::Predicate::parse(a.predicate, &error);
    if (!pred) return fail(2, error);
    holds = [&](const GameState& s) { return pred->eval(s); };
  } else {
    if (a.invariant != "any" && a.invariant != "custody" && a.invariant != "forces" && a.invariant != "spice")
      return fail(2, "unknown invariant '" + a.invariant + "' (custody, forces, spice, any)");
    holds = [&](const GameState& s) {
      auto v = inspect::check_invariants(s);
      return v && (a.invariant == "any" || v->invariant == a.invariant);
    };
  }
  auto m = st.meta(a.room, &error);
  if (!m) return fail(3, error.empty() ? "no room " + a.room : error);
  auto r = replay::bisect(m->head, [&](int64_t v, GameState* out, std::string* err) {
    return store::load_state(st, a.room, v, out, err);
  }, holds);
  if (!r.error.empty()) return fail(3, r.error);
  if (!r.found) {
    if (a.json) std::printf("{\"found\":false,\"head\":%lld,\"loads\":%d}\n", static_cast<long long>(m->head), r.loads);
    else std::printf("never: the condition does not hold at the head (version %lld); %d state(s) loaded\n", static_cast<long long>(m->head), r.loads);
    return 1;
  }
  std::string bytes;
  codec::Event e;
  GameState before, after;
  std::string line;
  if (st.read_event(a.room, r.version, &bytes, &error) && codec::decode_event(bytes, &e, &error) &&
      store::load_state(st, a.room, r.version, &after, &error)) {
    bool have_before = r.version > 0 && store::load_state(st, a.room, r.version - 1, &before, &error);
    line = inspect::summarize_event(e, have_before ? &before : nullptr, after, true);
  }
  if (a.json)
    std::printf("{\"found\":true,\"version\":%lld,\"loads\":%d,\"summary\":%s}\n", static_cast<long long>(r.version), r.loads,
                json_str(line).c_str());
  else
    std::printf("first version where it holds: %lld (%d state(s) loaded)\n%s\n", static_cast<long long>(r.version), r.loads, line.c_str());
  return 0;
}

}  // namespace mentat::cli
