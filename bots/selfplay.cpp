#include "bots/selfplay.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "events/codec.h"
#include "events/json_text.h"
#include "inspect/custody.h"
#include "replay/fold.h"
#include "store/room.h"

namespace mentat::bots {

namespace {

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::vector<std::unique_ptr<Bot>> bots_for(const GameSpec& spec) {
  std::vector<std::unique_ptr<Bot>> out;
  for (size_t i = 0; i < spec.profiles.size(); ++i) out.push_back(make_bot(spec.profiles[i], mix(spec.bot_seed, 101 + i)));
  return out;
}

// Which waited-for seat acts next (several may be asked at once).
Seat pick_seat(const GameState& s, uint8_t waiting, Rng& rng) {
  Seat seats[kMaxSeats];
  int n = 0;
  for (Seat x = 0; x < s.num_seats; ++x)
    if ((waiting >> x) & 1u) seats[n++] = x;
  return seats[rng.below(static_cast<uint32_t>(n))];
}

std::string action_text(const Action& a) { return codec::action_to_json(a); }

// One game's loop over a mirror state; `submit` stores the action (or not)
// and returns false with *error on failure.
template <class Submit>
GameResult run_loop(const GameSpec& spec, GameState& s, Submit submit,
                    const std::function<void(const GameState&, const Step&)>& on_step) {
  GameResult r;
  r.factions = spec.setup.factions;
  r.profiles = spec.profiles;
  r.room = spec.room;
  if (spec.profiles.size() != spec.setup.factions.size()) {
    r.error = "one bot profile per seat is needed";
    return r;
  }
  const auto bots = bots_for(spec);
  Rng rng = Rng::from_seed(mix(spec.bot_seed, 0xd1ce));
  for (int i = 0; i < spec.max_events; ++i) {
    const uint8_t w = waiting_for(s);
    if (w == 0) break;
    const Seat seat = pick_seat(s, w, rng);
    const ViewInput in = make_input(s, seat);
    if (in.legal.empty()) {
      r.version = static_cast<int64_t>(s.version);
      r.error = fmt::format("seat {} ({}) is waited for but has no legal action", seat, faction_key(s.faction_at(seat)));
      return r;
    }
    const Action a = bots[static_cast<size_t>(seat)]->choose(in);
    if (!is_valid_choice(in, a)) {
      r.version = static_cast<int64_t>(s.version);
      r.error = fmt::format("the {} bot of seat {} chose an action outside its legal actions: {}",
                            profile_name(spec.profiles[static_cast<size_t>(seat)]), seat, action_text(a));
      return r;
    }
    std::string error;
    if (!submit(s, seat, a, &error)) {
      r.version = static_cast<int64_t>(s.version) + 1;
      r.error = fmt::format("seat {} ({} bot) {}: {}", seat, profile_name(spec.profiles[static_cast<size_t>(seat)]),
                            action_text(a), error);
      return r;
    }
    ++r.events;
    if (auto v = inspect::check_invariants(s)) {
      r.version = static_cast<int64_t>(s.version);
      r.error = "invariant " + v->invariant + ": " + v->detail;
      return r;
    }
    if (on_step) on_step(s, Step{seat, a});
  }
  r.version = static_cast<int64_t>(s.version);
  if (s.phase != Phase::GameOver) {
    r.error = fmt::format("the game did not end within {} events (turn {}, phase {})", spec.max_events, s.turn,
                          phase_name(s.phase));
    return r;
  }
  r.ok = true;
  r.winners = s.winners;
  r.victory_kind = s.victory_kind;
  r.turns = s.turn;
  return r;
}

}  // namespace

std::string_view victory_kind_name(uint8_t kind) {
  switch (kind) {
    case 1: return "stronghold";
    case 2: return "bg_prediction";
    case 3: return "guild_default";
    case 4: return "fremen_special";
    case 5: return "fremen_default";
    case 6: return "most_strongholds";
  }
  return "none";
}

GameResult play_in_memory(const GameSpec& spec, const std::function<void(const GameState&, const Step&)>& on_step) {
  if (auto bad = check_setup(spec.setup)) {
    GameResult r;
    r.error = *bad;
    return r;
  }
  GameState s = create_game(spec.setup, nullptr);
  return run_loop(spec, s, [](GameState& st, Seat seat, const Action& a, std::string* error) {
    if (auto rej = validate(st, seat, a)) {
      *error = "rejected (" + std::string(reject_code_name(rej->code)) + "): " + rej->reason;
      return false;
    }
    apply(st, seat, a, nullptr);
    return true;
  }, on_step);
}

GameResult play_game(store::EventStore& st, const GameSpec& spec_in) {
  GameSpec spec = spec_in;
  GameResult fail;
  fail.factions = spec.setup.factions;
  fail.profiles = spec.profiles;
  if (spec.room.empty()) spec.room = fmt::format("bots-{:016x}", mix(spec.bot_seed, spec.setup.seed));
  fail.room = spec.room;
  if (!store::create_room(st, spec.setup, &spec.room, &fail.error)) return fail;
  GameState s;
  if (!store::load_state(st, spec.room, 0, &s, &fail.error)) return fail;
  GameResult r = run_loop(spec, s, [&](GameState& mirror, Seat seat, const Action& a, std::string* error) {
    const int64_t expected = static_cast<int64_t>(mirror.version);
    // The room stays loaded: the mirror is the head state (it was loaded from
    // the store at version 0 and has followed every stored event since).
    auto o = store::submit_loaded(st, spec.room, mirror, seat, a, fmt::format("bot-{}-{}", expected + 1, seat));
    if (!o.ok || o.duplicate) {
      if (o.rejection) *error = "REJECTED (" + std::string(reject_code_name(o.rejection->code)) + "): " + o.rejection->reason;
      else if (o.duplicate) *error = "the store reports a duplicate action id";
      else *error = o.conflict ? "version conflict: " + o.error : o.error;
      return false;
    }
    if (static_cast<int64_t>(mirror.version) != o.version) {
      *error = "the stored event's version differs from the driver's mirror";
      return false;
    }
    return true;
  }, {});
  if (!r.ok) return r;
  if (spec.verify) {
    replay::VerifyOptions vo;
    vo.projection = spec.projection;
    auto rep = replay::verify_room(st, spec.room, {}, vo);
    if (!rep.ok) {
      r.ok = false;
      r.version = rep.first_bad;
      r.error = "verify: " + rep.check + ": " + rep.detail;
    }
  }
  return r;
}

void wilson95(int k, int n, double* lo, double* hi) {
  if (n <= 0) {
    *lo = 0;
    *hi = 1;
    return;
  }
  const double z = 1.959963984540054;
  const double p = static_cast<double>(k) / n;
  const double denom = 1 + z * z / n;
  const double centre = (p + z * z / (2.0 * n)) / denom;
  const double half = z * std::sqrt(p * (1 - p) / n + z * z / (4.0 * n * n)) / denom;
  *lo = std::max(0.0, centre - half);
  *hi = std::min(1.0, centre + half);
}

namespace {

bool parse_list(const std::string& text, std::vector<std::string>* out) {
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty()) out->push_back(item);
  return !out->empty();
}

// Parses a comma-separated list with `parse_one`; `what` names an unknown item.
template <class T>
bool parse_items(const std::string& text, bool (*parse_one)(std::string_view, T*), const std::string& what,
                 std::vector<T>* out, std::string* error) {
  std::vector<std::string> items;
  parse_list(text, &items);
  for (const auto& it : items) {
    T v;
    if (!parse_one(it, &v)) {
      *error = "unknown " + what + " '" + it + "'";
      return false;
    }
    out->push_back(v);
  }
  return true;
}

bool parse_factions(const std::string& text, std::vector<Faction>* out, std::string* error) {
  return parse_items<Faction>(text, &parse_faction, "faction", out, error);
}

bool parse_profiles(const std::string& text, std::vector<Profile>* out, std::string* error) {
  if (!parse_items<Profile>(text, &parse_profile, "bot profile", out, error)) {
    *error += " (easy, medium, hard, brutal)";
    return false;
  }
  if (out->empty()) *error = "no bot profiles given";
  return !out->empty();
}

int fail(int code, const std::string& msg) {
  std::fprintf(stderr, "mentat: %s\n", msg.c_str());
  return code;
}

using Clock = std::chrono::steady_clock;

// Runs specs[i] on `jobs` threads; stops handing out games after a failure.
// Progress on stderr; results in order.
std::vector<GameResult> run_games(store::EventStore& st, const std::vector<GameSpec>& specs, int jobs, const char* what) {
  std::vector<GameResult> results(specs.size());
  std::vector<char> done_flags(specs.size(), 0);
  std::atomic<size_t> next{0};
  std::atomic<bool> stop{false};
  std::atomic<int64_t> events{0};
  std::mutex mu;
  size_t done = 0;
  const auto start = Clock::now();
  auto last_print = start;
  auto worker = [&]() {
    for (;;) {
      if (stop.load()) return;
      const size_t i = next.fetch_add(1);
      if (i >= specs.size()) return;
      GameResult r = play_game(st, specs[i]);
      events += r.events;
      std::lock_guard<std::mutex> lock(mu);
      if (!r.ok) stop = true;
      results[i] = std::move(r);
      done_flags[i] = 1;
      ++done;
      const auto now = Clock::now();
      if (now - last_print > std::chrono::milliseconds(500) || done == specs.size() || !results[i].ok) {
        last_print = now;
        const double secs = std::chrono::duration<double>(now - start).count();
        const double rate = secs > 0 ? static_cast<double>(events.load()) / secs : 0;
        const double eta = done ? secs / static_cast<double>(done) * static_cast<double>(specs.size() - done) : 0;
        std::fprintf(stderr, "\r%s: %zu/%zu games, %.0f events/s, elapsed %.0fs, ETA %.0fs   ", what, done, specs.size(), rate, secs,
                     eta);
        std::fflush(stderr);
      }
    }
  };
  jobs = std::max(1, jobs);
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  std::fprintf(stderr, "\n");
  // Keep only the games that ran.
  std::vector<GameResult> out;
  for (size_t i = 0; i < specs.size(); ++i)
    if (done_flags[i]) out.push_back(std::move(results[i]));
  return out;
}

std::unique_ptr<store::EventStore> open_store(const std::string& dir, bool no_sync, std::string* error) {
  store::Options opts;
  opts.sync = !no_sync;
  return store::EventStore::open(dir, opts, error);
}

// {"k": n, ...} of a count table; one game's result as JSON.
std::string json_counts(const std::map<std::string, int>& m) {
  std::string out = "{";
  for (const auto& [k, n] : m) out += fmt::format("{}{}:{}", out.size() > 1 ? "," : "", codec::json_quote(k), n);
  return out + "}";
}
std::string json_game(const GameResult& r) {
  std::string w;
  for (size_t seat = 0; seat < r.factions.size(); ++seat)
    if ((r.winners >> static_cast<int>(r.factions[seat])) & 1u) w += (w.empty() ? "" : ",") + codec::json_quote(faction_key(r.factions[seat]));
  std::string seats;
  for (size_t seat = 0; seat < r.factions.size(); ++seat)
    seats += fmt::format("{}{{\"faction\":{},\"profile\":{}}}", seat ? "," : "", codec::json_quote(faction_key(r.factions[seat])),
                         codec::json_quote(seat < r.profiles.size() ? profile_name(r.profiles[seat]) : ""));
  std::string out = fmt::format("{{\"room\":{},\"ok\":{},\"version\":{},\"turns\":{},\"events\":{},\"seats\":[{}]", codec::json_quote(r.room),
                                r.ok ? "true" : "false", r.version, r.turns, r.events, seats);
  if (r.ok) out += fmt::format(",\"winners\":[{}],\"victory_kind\":{}", w, codec::json_quote(victory_kind_name(r.victory_kind)));
  else out += ",\"error\":" + codec::json_quote(r.error);
  return out + "}";
}

}  // namespace

int run_selfplay(const SelfPlayOptions& o) {
  std::string error;
  std::vector<Faction> factions;
  std::vector<Profile> profiles;
  if (!parse_factions(o.factions, &factions, &error)) return fail(2, error);
  if (!parse_profiles(o.bots, &profiles, &error)) return fail(2, error);
  if (o.games < 1) return fail(2, "--games must be at least 1");
  GameSetup base;
  base.factions = factions;
  base.advanced = o.rules == "advanced";
  base.max_turns = static_cast<uint8_t>(std::clamp(o.turns, 0, 255));
  // An expansion faction brings its module (CHOAM: choam_richese).
  for (Faction f : factions)
    for (int m = 0; m < data::kNumModules; ++m)
      if (data::module_info(static_cast<data::Module>(m)).factions & faction_bit(f))
        base.modules = static_cast<uint16_t>(base.modules | data::module_bit(static_cast<data::Module>(m)));
  if (!o.modules.empty()) {
    data::ModuleSet extra = 0;
    if (!data::parse_module_list(o.modules, &extra, &error)) return fail(2, error);
    base.modules = static_cast<uint16_t>(base.modules | extra);
  }
  if (auto bad = check_setup(base)) return fail(2, *bad);
  auto st = open_store(o.data_dir, o.no_sync, &error);
  if (!st) return fail(3, error);

  std::vector<GameSpec> specs;
  for (int g = 0; g < o.games; ++g) {
    GameSpec spec;
    spec.setup = base;
    spec.setup.seed = mix(o.seed, static_cast<uint64_t>(g));
    spec.setup.name = fmt::format("selfplay {} #{}", o.seed, g);
    for (size_t seat = 0; seat < factions.size(); ++seat)
      spec.profiles.push_back(profiles[(seat + static_cast<size_t>(g)) % profiles.size()]);
    spec.bot_seed = mix(o.seed ^ 0xb075, static_cast<uint64_t>(g));
    spec.room = fmt::format("sp-{}-{}", o.seed, g);
    spec.projection = o.projection;
    specs.push_back(std::move(spec));
  }
  const auto start = Clock::now();
  auto results = run_games(*st, specs, o.jobs, "selfplay");
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();

  std::map<std::string, int> by_faction, by_profile, kinds;
  std::map<std::string, int> seats_by_profile;
  int ok = 0, min_turns = 1 << 30, max_turns = 0;
  int64_t events = 0, turn_sum = 0;
  std::vector<const GameResult*> failures;
  for (const auto& r : results) {
    events += r.events;
    if (!r.ok) {
      failures.push_back(&r);
      continue;
    }
    ++ok;
    turn_sum += r.turns;
    min_turns = std::min(min_turns, r.turns);
    max_turns = std::max(max_turns, r.turns);
    ++kinds[std::string(victory_kind_name(r.victory_kind))];
    for (size_t seat = 0; seat < r.factions.size(); ++seat) {
      ++seats_by_profile[std::string(profile_name(r.profiles[seat]))];
      if ((r.winners >> static_cast<int>(r.factions[seat])) & 1u) {
        ++by_faction[std::string(faction_key(r.factions[seat]))];
        ++by_profile[std::string(profile_name(r.profiles[seat]))];
      }
    }
  }
  if (o.json) {  // one object: the summary and every game
    std::string games, profiles;
    for (const auto& r : results) games += (games.empty() ? "" : ",") + json_game(r);
    for (const auto& [k, n] : seats_by_profile)
      profiles += fmt::format("{}{}:{{\"wins\":{},\"seats\":{}}}", profiles.empty() ? "" : ",", codec::json_quote(k), by_profile[k], n);
    std::printf("{\"games\":%zu,\"complete\":%d,\"failed\":%zu,\"seconds\":%.3f,\"events\":%lld,\"turns\":{\"mean\":%.3f,\"min\":%d,\"max\":%d},"
                "\"victory_kinds\":%s,\"winners_by_faction\":%s,\"winners_by_profile\":{%s},\"results\":[%s]}\n",
                results.size(), ok, failures.size(), secs, static_cast<long long>(events), ok ? static_cast<double>(turn_sum) / ok : 0.0,
                ok ? min_turns : 0, max_turns, json_counts(kinds).c_str(), json_counts(by_faction).c_str(), profiles.c_str(), games.c_str());
    return !failures.empty() || static_cast<int>(results.size()) != o.games ? 1 : 0;
  }
  std::printf("%zu game(s) played in %.1fs (%d complete, %zu failed), %lld events (%.0f per game, %.0f events/s)\n",
              results.size(), secs, ok, failures.size(), static_cast<long long>(events),
              results.empty() ? 0.0 : static_cast<double>(events) / static_cast<double>(results.size()),
              secs > 0 ? static_cast<double>(events) / secs : 0.0);
  if (ok) std::printf("turns: mean %.2f, min %d, max %d\n", static_cast<double>(turn_sum) / ok, min_turns, max_turns);
  std::printf("victory kinds:");
  for (const auto& [k, n] : kinds) std::printf(" %s %d", k.c_str(), n);
  std::printf("\nwinners by faction:");
  for (const auto& [k, n] : by_faction) std::printf(" %s %d", k.c_str(), n);
  std::printf("\nwinners by profile (wins / seats played):");
  for (const auto& [k, n] : seats_by_profile) std::printf(" %s %d/%d", k.c_str(), by_profile[k], n);
  std::printf("\n");
  for (const auto* r : failures)
    std::printf("FAILED room %s at version %lld: %s\n", r->room.c_str(), static_cast<long long>(r->version), r->error.c_str());
  if (!failures.empty()) return 1;
  if (static_cast<int>(results.size()) != o.games) return 1;
  return 0;
}

int run_tournament(const TournamentOptions& o) {
  std::string error;
  std::vector<Faction> factions;
  if (!parse_factions(o.factions, &factions, &error)) return fail(2, error);
  if (factions.size() != kNumProfiles) return fail(2, "the tournament needs exactly four factions (one seat per profile)");
  if (o.games < 1) return fail(2, "--games must be at least 1");
  GameSetup base;
  base.factions = factions;
  base.advanced = o.rules == "advanced";
  base.max_turns = static_cast<uint8_t>(std::clamp(o.turns, 0, 255));
  // An expansion faction brings its module (CHOAM: choam_richese).
  for (Faction f : factions)
    for (int m = 0; m < data::kNumModules; ++m)
      if (data::module_info(static_cast<data::Module>(m)).factions & faction_bit(f))
        base.modules = static_cast<uint16_t>(base.modules | data::module_bit(static_cast<data::Module>(m)));
  if (auto bad = check_setup(base)) return fail(2, *bad);
  auto st = open_store(o.data_dir, o.no_sync, &error);
  if (!st) return fail(3, error);

  // Game g: the profiles take the factions in the (g mod 24)-th of the 24
  // possible assignments, and the seats hold the factions rotated by g / 24:
  // every 96 games each profile plays each faction (against every
  // arrangement of the others) and each seat position equally often.
  std::vector<std::array<int, kNumProfiles>> perms;
  {
    std::array<int, kNumProfiles> p = {0, 1, 2, 3};
    do perms.push_back(p);
    while (std::next_permutation(p.begin(), p.end()));
  }
  std::vector<GameSpec> specs;
  for (int g = 0; g < o.games; ++g) {
    GameSpec spec;
    spec.setup = base;
    spec.setup.factions.clear();
    const auto& perm = perms[static_cast<size_t>(g) % perms.size()];  // faction index -> profile
    const int seat_shift = (g / static_cast<int>(perms.size())) % kNumProfiles;
    for (int seat = 0; seat < kNumProfiles; ++seat) {
      const int fi = (seat + seat_shift) % kNumProfiles;
      spec.setup.factions.push_back(factions[static_cast<size_t>(fi)]);
      spec.profiles.push_back(static_cast<Profile>(perm[static_cast<size_t>(fi)]));
    }
    spec.setup.seed = mix(o.seed, static_cast<uint64_t>(g));
    spec.setup.name = fmt::format("tournament {} #{}", o.seed, g);
    spec.bot_seed = mix(o.seed ^ 0x70u, static_cast<uint64_t>(g));
    spec.room = fmt::format("tour-{}-{}", o.seed, g);
    specs.push_back(std::move(spec));
  }
  const auto start = Clock::now();
  auto results = run_games(*st, specs, o.jobs, "tournament");
  const double secs = std::chrono::duration<double>(Clock::now() - start).count();

  int wins[kNumProfiles] = {}, games = 0, failed = 0, shared = 0;
  int faction_wins[kNumProfiles][kNumProfiles] = {};  // [profile][faction index in the list]
  std::map<std::string, int> kinds;
  int64_t events = 0, turns = 0;
  std::vector<const GameResult*> failures;
  for (const auto& r : results) {
    if (!r.ok) {
      ++failed;
      failures.push_back(&r);
      continue;
    }
    ++games;
    events += r.events;
    turns += r.turns;
    ++kinds[std::string(victory_kind_name(r.victory_kind))];
    int n_winners = 0;
    for (size_t seat = 0; seat < r.factions.size(); ++seat) {
      if (!((r.winners >> static_cast<int>(r.factions[seat])) & 1u)) continue;
      ++n_winners;
      const int p = static_cast<int>(r.profiles[seat]);
      ++wins[p];
      const int fi = static_cast<int>(std::find(factions.begin(), factions.end(), r.factions[seat]) - factions.begin());
      ++faction_wins[p][fi];
    }
    if (n_winners > 1) ++shared;
  }

  std::ostringstream table;
  table << "| profile | wins | games | win rate | 95% Wilson interval |\n| --- | ---: | ---: | ---: | --- |\n";
  for (int p = kNumProfiles - 1; p >= 0; --p) {
    double lo, hi;
    wilson95(wins[p], games, &lo, &hi);
    table << fmt::format("| {} | {} | {} | {:.1f}% | {:.1f}% – {:.1f}% |\n", profile_name(static_cast<Profile>(p)), wins[p], games,
                         games ? 100.0 * wins[p] / games : 0.0, 100.0 * lo, 100.0 * hi);
  }
  std::ostringstream by_faction;
  by_faction << "| profile |";
  for (auto f : factions) by_faction << " " << faction_key(f) << " |";
  by_faction << "\n| --- |";
  for (size_t i = 0; i < factions.size(); ++i) by_faction << " ---: |";
  by_faction << "\n";
  for (int p = kNumProfiles - 1; p >= 0; --p) {
    by_faction << "| " << profile_name(static_cast<Profile>(p)) << " |";
    for (size_t i = 0; i < factions.size(); ++i) by_faction << " " << faction_wins[p][i] << " |";
    by_faction << "\n";
  }
  std::ostringstream kinds_text;
  for (const auto& [k, n] : kinds) kinds_text << (kinds_text.tellp() ? ", " : "") << k << " " << n;

  bool ordered = games > 0 && wins[3] > wins[2] && wins[2] > wins[1] && wins[1] > wins[0];
  if (o.json) {  // one object on stdout; --write still writes the document
    std::string profiles, list;
    for (int p = kNumProfiles - 1; p >= 0; --p) {
      double lo, hi;
      wilson95(wins[p], games, &lo, &hi);
      std::string byf;
      for (size_t i = 0; i < factions.size(); ++i)
        byf += fmt::format("{}{}:{}", i ? "," : "", codec::json_quote(faction_key(factions[i])), faction_wins[p][i]);
      profiles += fmt::format("{}{{\"profile\":{},\"wins\":{},\"games\":{},\"win_rate\":{:.4f},\"wilson95\":[{:.4f},{:.4f}],\"by_faction\":{{{}}}}}",
                              profiles.empty() ? "" : ",", codec::json_quote(profile_name(static_cast<Profile>(p))), wins[p], games,
                              games ? static_cast<double>(wins[p]) / games : 0.0, lo, hi, byf);
    }
    for (const auto& r : results) list += (list.empty() ? "" : ",") + json_game(r);
    std::printf("{\"games\":%d,\"failed\":%d,\"seconds\":%.3f,\"events_per_game\":%.1f,\"mean_turns\":%.3f,\"victory_kinds\":%s,"
                "\"shared_wins\":%d,\"ordered\":%s,\"profiles\":[%s],\"results\":[%s]}\n",
                games, failed, secs, games ? static_cast<double>(events) / games : 0.0, games ? static_cast<double>(turns) / games : 0.0,
                json_counts(kinds).c_str(), shared, ordered ? "true" : "false", profiles.c_str(), list.c_str());
  } else {
  std::printf("%d game(s) complete in %.1fs (%d failed), %.0f events per game, mean %.2f turns\n", games, secs, failed,
              games ? static_cast<double>(events) / games : 0.0, games ? static_cast<double>(turns) / games : 0.0);
  std::printf("victory kinds: %s; games with several winners: %d\n\n%s\nwins by profile and faction:\n%s", kinds_text.str().c_str(),
              shared, table.str().c_str(), by_faction.str().c_str());
  for (const auto* r : failures)
    std::printf("FAILED room %s at version %lld: %s\n", r->room.c_str(), static_cast<long long>(r->version), r->error.c_str());
  }
  if (!o.write_doc.empty() && games > 0) {
    std::ifstream in(o.write_doc);
    std::string doc((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string begin = "<!-- tournament:begin -->", end = "<!-- tournament:end -->";
    std::ostringstream block;
    block << begin << "\n";
    block << fmt::format("Command: `mentat --data DIR tournament --games {} --seed {} --rules {} --turns {} --factions {}{}{}`\n\n",
                         o.games, o.seed, o.rules, o.turns, o.factions, o.jobs > 1 ? fmt::format(" --jobs {}", o.jobs) : "",
                         o.no_sync ? " --no-sync" : "");
    block << fmt::format("{} complete games ({} failed) in {:.0f} s; {:.0f} events per game, mean {:.2f} turns; victory kinds: {}; "
                         "games with several winners (shared wins count for each): {}.\n\n",
                         games, failed, secs, games ? static_cast<double>(events) / games : 0.0,
                         games ? static_cast<double>(turns) / games : 0.0, kinds_text.str(), shared);
    block << table.str() << "\nWins by profile and faction:\n\n" << by_faction.str() << "\n";
    block << (ordered ? "The measured order is brutal > hard > medium > easy."
                      : "The measured order is NOT brutal > hard > medium > easy in this run (see the table).");
    for (int p = kNumProfiles - 1; p > 0; --p) {
      double lo_a, hi_a, lo_b, hi_b;
      wilson95(wins[p], games, &lo_a, &hi_a);
      wilson95(wins[p - 1], games, &lo_b, &hi_b);
      block << fmt::format(" {} vs {}: {}.", profile_name(static_cast<Profile>(p)), profile_name(static_cast<Profile>(p - 1)),
                           lo_a > hi_b   ? "the 95% intervals are disjoint"
                           : lo_b > hi_a ? "the 95% intervals are disjoint, in the other order"
                                         : "the 95% intervals overlap (not separated at this sample size)");
    }
    block << "\n";
    block << end;
    const auto b = doc.find(begin), e = doc.find(end);
    if (b != std::string::npos && e != std::string::npos && e > b) doc = doc.substr(0, b) + block.str() + doc.substr(e + end.size());
    else doc += "\n" + block.str() + "\n";
    std::ofstream out(o.write_doc, std::ios::trunc);
    out << doc;
    if (!out) return fail(3, "cannot write " + o.write_doc);
    std::fprintf(o.json ? stderr : stdout, "\nwritten to %s\n", o.write_doc.c_str());
  }
  return failed ? 1 : 0;
}

}  // namespace mentat::bots
