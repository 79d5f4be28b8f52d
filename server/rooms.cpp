// The room server's rooms (server/server_impl.h): the registry of room
// slots and their cached head states, the append path every action takes
// (a human's or a bot's), the store's notifications, the host's delete,
// the metrics, and Server's start and stop.
#include <fmt/format.h>
#include <signal.h>
#include <sys/socket.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "inspect/report.h"
#include "server/server_impl.h"
#include "store/room.h"

namespace mentat::server {

Reply error_reply(int status, std::string_view code, const std::string& message, const ErrorDetails& d) {
  Builder b;
  const auto m = b.CreateString(api::valid_utf8(message));
  const auto c = b.CreateString(code.data(), code.size());
  const auto rc = d.reject_code.empty() ? Offset<flatbuffers::String>() : b.CreateString(d.reject_code);
  fb::ErrorResponseBuilder e(b);
  e.add_error(m);
  e.add_code(c);
  if (d.head) e.add_head(*d.head);
  if (d.version) e.add_version(*d.version);
  if (!rc.IsNull()) e.add_reject_code(rc);
  return reply(b, e.Finish(), status, false);
}

bool parse_int(std::string_view s, int64_t* out) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return !s.empty() && ec == std::errc() && end == s.data() + s.size();
}

std::string summary_for(const codec::Event& e, const GameState* before, const GameState& after, Seat viewer) {
  if (e.action.kind() == ActionKind::CreateGame) {
    codec::Event pub = e;
    pub.setup.seed = 0;
    std::string s = inspect::summarize_event(pub, before, after, false);
    if (auto at = s.find("seed 0, "); at != std::string::npos) s.erase(at, 8);
    return s;
  }
  const bool own = viewer != kNoSeat && e.seat == viewer;
  return inspect::summarize_event(e, before, after, own);
}

// The room's slot, or null with a 404/500 reply (a room the host deleted
// is 404 `deleted`, unless `even_deleted`: the admin's undelete).
std::shared_ptr<RoomSlot> Server::Impl::slot(const std::string& room, Reply* err, bool even_deleted) {
  auto found = [&](std::shared_ptr<RoomSlot> sl) -> std::shared_ptr<RoomSlot> {
    if (!even_deleted && sl->deleted) {
      *err = error_reply(404, "deleted", "room " + room + " was deleted by the host");
      return nullptr;
    }
    return sl;
  };
  {
    std::scoped_lock lock(rooms_mu);
    if (auto it = rooms.find(room); it != rooms.end()) return found(it->second);
  }
  if (!store::EventStore::valid_room_id(room)) {
    *err = error_reply(404, "unknown_room", "no room " + room);
    return nullptr;
  }
  std::string error;
  auto m = store.meta(room, &error);
  if (!m) {
    *err = error.empty() ? error_reply(404, "unknown_room", "no room " + room) : error_reply(500, "store", error);
    return nullptr;
  }
  const bool deleted = web::deleted(store, room);
  std::scoped_lock lock(rooms_mu);
  auto& s = rooms[room];
  if (!s) {
    s = std::make_shared<RoomSlot>();
    s->head = m->head;
    s->deleted = deleted;
  }
  return found(s);
}

// The state at the room's head (cached by version).
bool Server::Impl::head_state(RoomSlot& slot, const std::string& room, std::shared_ptr<const GameState>* out, std::string* error) {
  auto m = store.meta(room, error);
  if (!m) {
    if (error->empty()) *error = "no room " + room;
    return false;
  }
  {
    std::scoped_lock lock(slot.mu);
    slot.head = std::max(slot.head, m->head);
    if (slot.cached && static_cast<int64_t>(slot.cached->version) == m->head) {
      *out = slot.cached;
      return true;
    }
  }
  auto s = std::make_shared<GameState>();
  if (!store::load_state(store, room, m->head, s.get(), error)) return false;
  std::scoped_lock lock(slot.mu);
  if (!slot.cached || slot.cached->version < s->version) slot.cached = s;
  *out = s;
  return true;
}

void Server::Impl::record_latency(double ms) {
  std::scoped_lock lock(lat_mu);
  if (latencies.size() < kLatencies) latencies.push_back(ms);
  else latencies[lat_next] = ms;
  lat_next = (lat_next + 1) % kLatencies;
}

MetricsSnapshot Server::Impl::snapshot() const {
  MetricsSnapshot m;
  {
    std::scoped_lock lock(rooms_mu);
    m.rooms_loaded = static_cast<int64_t>(rooms.size());
  }
  m.appends = appends;
  m.duplicates = duplicates;
  m.rejected = rejected;
  m.conflicts = conflicts;
  m.requests = requests;
  m.bot_actions = bot_actions;
  m.uptime_s = std::chrono::duration<double>(Clock::now() - born).count();
  std::vector<double> lat;
  {
    std::scoped_lock lock(lat_mu);
    lat = latencies;
  }
  if (!lat.empty()) {
    std::sort(lat.begin(), lat.end());
    auto pct = [&](double p) {
      size_t idx = static_cast<size_t>(p * static_cast<double>(lat.size() - 1) + 0.5);
      return lat[std::min(idx, lat.size() - 1)];
    };
    m.append_p50_ms = pct(0.50);
    m.append_p99_ms = pct(0.99);
    m.append_max_ms = lat.back();
  }
  return m;
}

// The reply for an action already stored under this seat's client id.
Reply Server::Impl::duplicate_reply(const std::string& room, Seat seat, int64_t version, const Action& requested) {
  std::string bytes, error;
  codec::Event e;
  if (!store.read_event(room, version, &bytes, &error) || !codec::decode_event(bytes, &e, &error))
    return error_reply(500, "store", error);
  if (e.seat != seat || !(e.action == requested))
    return error_reply(409, "id_reused",
                       fmt::format("client action id already used at version {} for a different action", version),
                       {.version = version});
  GameState before, after;
  if (!store::load_state(store, room, version - 1, &before, &error) ||
      !store::load_state(store, room, version, &after, &error))
    return error_reply(500, "store", error);
  ++duplicates;
  return submitted(room, version, summary_for(e, &before, after, seat), true);
}

Reply Server::Impl::submitted(const std::string& room, int64_t version, const std::string& summary, bool duplicate) {
  Builder b;
  return reply(b, fb::CreateSubmitResponseDirect(b, room.c_str(), version, summary.c_str(), duplicate));
}

// The durable path of every action, a human's (act) or a bot's: checks
// the client id and the expected version, then store::submit (synced).
// `id` is the stored id ("s<seat>:<client id>").
Reply Server::Impl::submit_as(const std::shared_ptr<RoomSlot>& sl, const std::string& room, Seat seat, int64_t expect,
    const Action& action, const std::string& id, bool by_bot) {
  std::string error;
  std::unique_lock write(sl->write);
  auto prev = store.find_action(room, id, &error);
  if (!error.empty()) return error_reply(500, "store", error);
  if (prev) return duplicate_reply(room, seat, *prev, action);
  std::shared_ptr<const GameState> before;
  if (!head_state(*sl, room, &before, &error)) return error_reply(500, "store", error);
  if (static_cast<int64_t>(before->version) != expect) {
    ++conflicts;
    return error_reply(409, "stale_version",
                       fmt::format("room {} is at version {}, not {}", room, before->version, expect),
                       {.head = static_cast<int64_t>(before->version)});
  }
  const auto t0 = Clock::now();
  auto o = store::submit(store, room, seat, expect, action, id);
  const double ms = std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
  if (o.rejection) {
    ++rejected;
    return error_reply(422, "rejected", o.rejection->reason,
                       {.head = expect, .reject_code = std::string(reject_code_name(o.rejection->code))});
  }
  if (o.conflict) {
    ++conflicts;
    return error_reply(409, "stale_version", o.error, {.head = o.version});
  }
  if (!o.ok) return error_reply(500, "store", o.error);
  if (o.duplicate) return duplicate_reply(room, seat, o.version, action);
  ++appends;
  if (by_bot) ++bot_actions;
  record_latency(ms);
  auto after = std::make_shared<GameState>(*before);
  apply(*after, seat, action, nullptr);
  if (codec::state_hash(*after) != o.event.state_hash &&
      !store::load_state(store, room, o.version, after.get(), &error))
    return error_reply(500, "store", error);
  {
    std::scoped_lock lock(sl->mu);
    sl->head = std::max(sl->head, o.version);
    if (!sl->cached || sl->cached->version < after->version) sl->cached = after;
  }
  sl->changed.notify_all();
  write.unlock();
  // A bot's worker goes on playing the room by itself.
  if (!by_bot) after_event(*sl, room);
  return submitted(room, o.version, summary_for(o.event, before.get(), *after, seat), false);
}

// An append committed by any server sharing the store
// (store::EventStore::Watcher::appended): long-polls on this server wake, and
// the room's bots, if any, get their turn.
void Server::Impl::on_append(const std::string& room, int64_t version) {
  std::shared_ptr<RoomSlot> sl;
  {
    std::scoped_lock lock(rooms_mu);
    auto it = rooms.find(room);
    if (it == rooms.end()) return;  // nobody here follows it
    sl = it->second;
  }
  {
    std::scoped_lock lock(sl->mu);
    if (version <= sl->head) return;  // this server's own append, or old news
    sl->head = version;
  }
  sl->changed.notify_all();
  after_event(*sl, room);
}

// Forgets what this process read of the room's secrets (seat tokens, bot
// seats, deleted); they are read again when next needed. Under sl.mu.
void Server::Impl::forget_secrets(RoomSlot& sl) {
  ++sl.secrets_gen;
  sl.tokens_loaded = false;
  sl.tokens.clear();
  sl.bots_loaded = false;
  sl.bot_seats.clear();
  sl.bots.clear();
}

// The room's secrets changed (store::EventStore::Watcher::secrets_changed,
// on any server sharing the store, this one included): forget them, read
// `deleted` again, wake the long-polls (a deleted room's answer 404) and
// give the bots their turn (a seat may have become a bot's).
void Server::Impl::on_secrets_changed(const std::string& room) {
  std::shared_ptr<RoomSlot> sl;
  {
    std::scoped_lock lock(rooms_mu);
    auto it = rooms.find(room);
    if (it == rooms.end()) return;  // nothing read of it here
    sl = it->second;
  }
  refresh(*sl, room, false);
}

// The store's listening connection was (re-)established
// (Watcher::resync): appends and secret changes committed meanwhile were
// not told. Every followed room forgets its secrets; the rooms with
// waiting long-polls read their head again (they wake when it moved);
// bots get their turn.
void Server::Impl::on_resync() {
  std::vector<std::pair<std::string, std::shared_ptr<RoomSlot>>> all;
  {
    std::scoped_lock lock(rooms_mu);
    all.assign(rooms.begin(), rooms.end());
  }
  for (const auto& [room, sl] : all) {
    if (stopping) return;
    bool waited_for;
    {
      std::scoped_lock lock(sl->mu);
      waited_for = sl->waiters > 0;
    }
    refresh(*sl, room, waited_for);
  }
}

// on_secrets_changed and on_resync: forgets the room's secrets, reads
// `deleted` (and with `head` the room's head) again, wakes its long-polls
// and queues its bots.
void Server::Impl::refresh(RoomSlot& sl, const std::string& room, bool head) {
  {
    std::scoped_lock lock(sl.mu);
    forget_secrets(sl);
  }
  std::string error;
  int64_t stored = -1;
  if (head) {
    auto m = store.meta(room, &error);
    if (!m) {
      if (!error.empty()) std::fprintf(stderr, "mentat serve: room %s: %s\n", room.c_str(), error.c_str());
      return;
    }
    stored = m->head;
  }
  sl.deleted = web::deleted(store, room);
  {
    std::scoped_lock lock(sl.mu);
    sl.head = std::max(sl.head, stored);
    sl.changed.notify_all();
  }
  if (!sl.deleted) after_event(sl, room);
}

bool Server::Impl::state_at(const std::string& room, int64_t version, std::shared_ptr<const GameState>* out,
    web::Answer* err) {
  Reply e;
  auto sl = slot(room, &e);
  std::string error;
  if (sl && head_state(*sl, room, out, &error)) {
    if (version < 0 || version == static_cast<int64_t>((*out)->version)) return true;
    if (version > static_cast<int64_t>((*out)->version)) {
      *err = this->error(404, "not_found", fmt::format("room {} has no version {} yet", room, version));
      return false;
    }
    auto s = std::make_shared<GameState>();
    if (store::load_state(store, room, version, s.get(), &error)) {
      *out = s;
      return true;
    }
  }
  if (sl) e = error_reply(500, "store", error);
  *err = {e.status, e.body};
  return false;
}

web::Answer Server::Impl::error(int status, const std::string& code, const std::string& message) {
  const Reply r = error_reply(status, code, message);
  return {r.status, r.body};
}

// Deleting keeps every event (docs/SERVER.md "Hosting"): it marks the room
// (a room secret), revokes every seat token and hides the room from the API.
bool Server::Impl::set_deleted(const std::string& room, bool deleted, std::string* error) {
  Reply e;
  auto sl = slot(room, &e, true);
  if (!sl) {
    *error = "no room " + room;
    return false;
  }
  std::unique_lock write(sl->write);  // no submit of this room meanwhile
  std::shared_ptr<const GameState> s;
  if (!head_state(*sl, room, &s, error)) return false;
  std::vector<std::pair<std::string, std::string>> secrets{{"deleted", deleted ? "1" : "0"}};
  if (deleted)
    for (Seat seat = 0; seat < s->num_seats; ++seat) secrets.emplace_back(token_name(seat), random_hex(32));  // told to nobody
  if (!store.put_room_secrets(room, secrets, error)) return false;
  {
    std::scoped_lock lock(sl->mu);
    sl->deleted = deleted;
    forget_secrets(*sl);
    sl->changed.notify_all();  // waiting long-polls answer, and then see the 404
  }
  if (!deleted) after_event(*sl, room);
  return true;
}

void Server::Impl::room_changed(const std::string& room) {
  Reply e;
  if (auto sl = slot(room, &e)) {
    {
      std::scoped_lock lock(sl->mu);
      sl->changed.notify_all();
    }
    after_event(*sl, room);
  }
}

int64_t Server::Impl::rooms_in_store() {
  std::string error;
  return static_cast<int64_t>(store.rooms(&error).size());
}

web::Answer Server::Impl::metrics_json() {
  const Reply r = metrics();
  return {r.status, r.body};
}

Server::Server(store::EventStore& store, ServerOptions opts) : impl_(std::make_unique<Impl>(store, opts)) {
  impl_->routes();
}

Server::~Server() { stop(); }

int Server::start(const std::string& host, int port, std::string* error) {
  if (impl_->started.exchange(true)) {
    *error = "the server is already started";
    return -1;
  }
  // A peer closing its socket mid-reply must not kill the process.
  struct sigaction old {};
  if (sigaction(SIGPIPE, nullptr, &old) == 0 && old.sa_handler == SIG_DFL) ::signal(SIGPIPE, SIG_IGN);
  int bound = port;
  if (port == 0) {
    bound = impl_->http.bind_to_any_port(host);
  } else if (!impl_->http.bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) {
    *error = fmt::format("cannot listen on {}:{}", host, port);
    impl_->started = false;
    return -1;
  }
  // Linux lets listen() be called again on a listening socket to change
  // its backlog (cpp-httplib 0.11 uses 5: simultaneous connects beyond it
  // were dropped and their first request went unanswered).
  if (impl_->listen_fd >= 0) ::listen(impl_->listen_fd, SOMAXCONN);
  auto returned = std::make_shared<std::atomic<bool>>(false);
  impl_->thread = std::thread([this, returned] {
    impl_->http.listen_after_bind();
    *returned = true;
  });
  // stop() only acts on a running server: wait until it runs.
  while (!impl_->http.is_running() && !*returned) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  if (*returned) {
    impl_->thread.join();
    impl_->started = false;
    *error = fmt::format("the server on {}:{} stopped at once", host, bound);
    return -1;
  }
  impl_->stopping = false;
  store::EventStore::Watcher w;
  w.appended = [impl = impl_.get()](const std::string& room, int64_t version) { impl->on_append(room, version); };
  w.secrets_changed = [impl = impl_.get()](const std::string& room) { impl->on_secrets_changed(room); };
  w.resync = [impl = impl_.get()] { impl->on_resync(); };
  impl_->store.watch(std::move(w));
  for (int i = 0; i < impl_->opts.bot_threads; ++i)
    impl_->bot_threads.emplace_back([this, i] {
      if (i == 0) impl_->scan_bot_rooms();
      impl_->bot_worker();
    });
  return bound;
}

void Server::stop() {
  if (!impl_->started.exchange(false)) return;
  impl_->stopping = true;
  impl_->store.watch({});
  {
    std::scoped_lock lock(impl_->bot_mu);
    impl_->bot_cv.notify_all();
  }
  for (auto& t : impl_->bot_threads) t.join();
  impl_->bot_threads.clear();
  {
    std::scoped_lock lock(impl_->rooms_mu);
    for (auto& [name, s] : impl_->rooms) {
      std::scoped_lock l(s->mu);
      s->changed.notify_all();
    }
  }
  impl_->http.stop();
  if (impl_->thread.joinable()) impl_->thread.join();
}

MetricsSnapshot Server::metrics() const { return impl_->snapshot(); }

}  // namespace mentat::server
