// Bot seats of the room server (server/server_impl.h; the contract is
// server/server.h): the "bots" secret, the queue of rooms waiting for a bot,
// the workers that play them, the leases between servers sharing a store and
// their rechecks, and the host's change of a seat's profile.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "server/server_impl.h"

namespace mentat::server {

uint64_t mix(uint64_t a, uint64_t b) {
  uint64_t z = a ^ (b + 0x9e3779b97f4a7c15ULL + (a << 6) + (a >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string bots_secret(const std::vector<BotSeat>& seats) {
  std::string out;
  for (const auto& b : seats)
    out += fmt::format("{}{}:{}", out.empty() ? "" : ",", b.seat, bots::profile_name(b.profile));
  return out;
}

bool parse_bots_secret(std::string_view text, std::vector<BotSeat>* out) {
  out->clear();
  while (!text.empty()) {
    const auto comma = text.find(',');
    std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    BotSeat b;
    const auto colon = item.find(':');
    int64_t seat;
    if (!parse_int(item.substr(0, colon), &seat) || seat < 0 || seat >= kMaxSeats) return false;
    b.seat = static_cast<Seat>(seat);
    if (colon != std::string_view::npos && !bots::parse_profile(item.substr(colon + 1), &b.profile)) return false;
    out->push_back(b);
  }
  return true;
}

// Reads the room's bot seats and seed (once per slot). False on a store
// error or a damaged secret.
bool Server::Impl::load_bots(RoomSlot& sl, const std::string& room, std::string* error) {
  uint64_t gen;
  {
    std::scoped_lock lock(sl.mu);
    if (sl.bots_loaded) return true;
    gen = sl.secrets_gen;
  }
  auto text = store.get_room_secret(room, "bots", error);
  if (!error->empty()) return false;
  std::vector<BotSeat> seats;
  std::vector<std::shared_ptr<const bots::Bot>> made;
  if (text && !text->empty()) {
    if (!parse_bots_secret(*text, &seats)) {
      *error = "room " + room + ": damaged bots secret '" + *text + "'";
      return false;
    }
    auto seed_text = store.get_room_secret(room, "bot_seed", error);
    if (!error->empty()) return false;
    uint64_t seed = 0;
    if (seed_text) {
      const auto [end, ec] = std::from_chars(seed_text->data(), seed_text->data() + seed_text->size(), seed);
      if (ec != std::errc() || end != seed_text->data() + seed_text->size()) {
        *error = "room " + room + ": damaged bot_seed secret";
        return false;
      }
    }
    for (const auto& b : seats) {
      if (made.size() <= static_cast<size_t>(b.seat)) made.resize(static_cast<size_t>(b.seat) + 1);
      made[static_cast<size_t>(b.seat)] = bots::make_bot(b.profile, mix(seed, 0xb07'0000ULL + b.seat));
    }
  }
  std::scoped_lock lock(sl.mu);
  if (!sl.bots_loaded && sl.secrets_gen == gen) {
    sl.bot_seats = std::move(seats);
    sl.bots = std::move(made);
    sl.bots_loaded = true;
  }
  return true;
}

void Server::Impl::queue_bots(const std::string& room) {
  if (opts.bot_threads <= 0) return;
  {
    std::scoped_lock lock(bot_mu);
    if (!bot_queued.insert(room).second) return;
    bot_queue.push_back(room);
  }
  bot_cv.notify_one();
}

// After an acknowledged event: queue the room if it has bot seats.
void Server::Impl::after_event(RoomSlot& sl, const std::string& room) {
  std::string error;
  if (!load_bots(sl, room, &error)) {
    std::fprintf(stderr, "mentat serve: %s\n", error.c_str());
    return;
  }
  bool any;
  {
    std::scoped_lock lock(sl.mu);
    any = !sl.bot_seats.empty();
  }
  if (any) queue_bots(room);
}

// Plays the room's bot seats while one is waited for, at most
// bot_moves_per_turn moves (then the room goes to the back of the queue).
// Only while this server holds the room's lease (servers sharing a
// PostgreSQL store: one plays a room's bots; store::EventStore::hold_room_lease).
void Server::Impl::play_bots(const std::string& room) {
  Reply err;
  auto sl = slot(room, &err);
  if (!sl) return;
  {
    const bool mine = store.hold_room_lease(room);
    std::scoped_lock lock(bot_mu);
    if (!mine) {
      leased_elsewhere.insert(room);
      leased_here.erase(room);
      return;
    }
    leased_elsewhere.erase(room);
    leased_here.insert(room);
  }
  std::string error;
  if (!load_bots(*sl, room, &error)) {
    std::fprintf(stderr, "mentat serve: %s\n", error.c_str());
    return;
  }
  for (int moves = 0; !stopping; ) {
    std::shared_ptr<const GameState> s;
    if (!head_state(*sl, room, &s, &error)) {
      std::fprintf(stderr, "mentat serve: bots of room %s: %s\n", room.c_str(), error.c_str());
      return;
    }
    const uint8_t waiting = waiting_for(*s);
    std::shared_ptr<const bots::Bot> bot;
    Seat seat = kNoSeat;
    {
      std::scoped_lock lock(sl->mu);
      for (const auto& b : sl->bot_seats)
        if (b.seat < s->num_seats && ((waiting >> b.seat) & 1u)) {
          seat = b.seat;
          bot = sl->bots[static_cast<size_t>(b.seat)];
          break;
        }
    }
    if (!bot) {  // game over, or only humans are asked
      if (!waiting) {
        std::scoped_lock lock(bot_mu);
        leased_here.erase(room);
      }
      return;
    }
    if (sl->deleted || web::archived(store, room)) return;
    if (moves == opts.bot_moves_per_turn) {
      queue_bots(room);
      return;
    }
    const bots::ViewInput in = bots::make_input(*s, seat);
    if (in.legal.empty()) {
      std::fprintf(stderr, "mentat serve: room %s version %llu: bot seat %d is waited for but has no legal action\n",
                   room.c_str(), static_cast<unsigned long long>(s->version), seat);
      return;
    }
    const Action a = bot->choose(in);
    const int64_t expect = static_cast<int64_t>(s->version);
    const Reply r = submit_as(sl, room, seat, expect, a, stored_action_id(seat, "bot-" + std::to_string(expect)), true);
    if (r.status == 200) {
      ++moves;
      continue;
    }
    // A human acted first (the head moved): look again. (An id_reused
    // 409 would be a bot bug: reported below, not retried.)
    if (r.status == 409 && r.body.find("\"stale_version\"") != std::string::npos) continue;
    std::fprintf(stderr, "mentat serve: room %s version %lld: the bot of seat %d was refused: %s\n", room.c_str(),
                 static_cast<long long>(expect), seat, r.body.c_str());
    return;
  }
}

void Server::Impl::bot_worker() {
  for (;;) {
    std::string room;
    {
      std::unique_lock lock(bot_mu);
      // Rooms whose lease another server holds are looked at again every
      // kLeaseRetry (a holder that died has released it), this server's
      // own every kBotRecheck.
      while (!stopping && bot_queue.empty())
        if (!bot_cv.wait_for(lock, kLeaseRetry, [&] { return stopping.load() || !bot_queue.empty(); })) {
          for (const auto& r : leased_elsewhere)
            if (bot_queued.insert(r).second) bot_queue.push_back(r);
          if (Clock::now() - bots_rechecked >= kBotRecheck) {
            bots_rechecked = Clock::now();
            for (const auto& r : leased_here)
              if (bot_queued.insert(r).second) bot_queue.push_back(r);
          }
        }
      if (stopping) return;
      room = std::move(bot_queue.front());
      bot_queue.pop_front();
      bot_queued.erase(room);
    }
    try {
      play_bots(room);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "mentat serve: bots of room %s: %s\n", room.c_str(), e.what());
    }
  }
}

// At start-up: queue every stored room that has bot seats (a restart
// continues their games).
void Server::Impl::scan_bot_rooms() {
  std::string error;
  const auto all = store.rooms(&error);
  for (const auto& m : all) {
    if (stopping) return;
    auto text = store.get_room_secret(m.room, "bots", &error);
    if (text && !text->empty()) queue_bots(m.room);
  }
  if (!error.empty()) std::fprintf(stderr, "mentat serve: listing rooms for the bots: %s\n", error.c_str());
}

bool Server::Impl::set_bot(const std::string& room, Seat seat, const std::string& profile, std::string* bots_text,
    std::string* error) {
  Reply e;
  auto sl = slot(room, &e);
  if (!sl) {
    *error = "no room " + room;
    return false;
  }
  std::unique_lock write(sl->write);  // no submit of this room meanwhile
  auto text = store.get_room_secret(room, "bots", error);
  if (!error->empty()) return false;
  std::vector<BotSeat> seats;
  if (text && !parse_bots_secret(*text, &seats)) {
    *error = "room " + room + ": damaged bots secret";
    return false;
  }
  std::erase_if(seats, [&](const BotSeat& b) { return b.seat == seat; });
  if (profile != "human") {
    BotSeat b;
    b.seat = seat;
    if (!bots::parse_profile(profile, &b.profile)) {
      *error = "unknown bot profile \"" + profile + "\" (easy, medium, hard, brutal or human)";
      return false;
    }
    seats.push_back(b);
  }
  std::sort(seats.begin(), seats.end(), [](const BotSeat& a, const BotSeat& b) { return a.seat < b.seat; });
  *bots_text = bots_secret(seats);
  std::vector<std::pair<std::string, std::string>> secrets = {{"bots", *bots_text}};
  // Rooms created before bot seats had no bot seed: one now.
  if (!store.get_room_secret(room, "bot_seed", error)) secrets.emplace_back("bot_seed", std::to_string(random_u64()));
  if (!error->empty() || !store.put_room_secrets(room, secrets, error)) return false;
  {
    std::scoped_lock lock(sl->mu);
    forget_secrets(*sl);
  }
  write.unlock();
  if (!seats.empty()) queue_bots(room);
  return true;
}

}  // namespace mentat::server
