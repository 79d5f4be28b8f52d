// Seat tokens of the room server (server/server_impl.h): which seat a bearer
// token names, and the host's reissue of one.
#include <random>

#include "server/server_impl.h"

namespace mentat::server {

std::string random_hex(size_t bytes) {
  thread_local std::random_device rd;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  while (out.size() < bytes * 2) {
    uint32_t v = rd();
    for (int k = 0; k < 4 && out.size() < bytes * 2; ++k, v >>= 8) {
      out += kHex[(v >> 4) & 0xF];
      out += kHex[v & 0xF];
    }
  }
  return out;
}

uint64_t random_u64() {
  thread_local std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

std::string token_name(Seat seat) { return "token." + std::to_string(seat); }

// Which seat the Authorization header names (Observer without one).
Auth Server::Impl::authenticate(RoomSlot& slot, const std::string& room, const std::string& header, Seat* seat, Reply* err) {
  *seat = kNoSeat;
  if (header.empty()) return Auth::Observer;
  static constexpr std::string_view kBearer = "Bearer ";
  if (header.size() <= kBearer.size() || header.compare(0, kBearer.size(), kBearer) != 0) {
    *err = error_reply(401, "bad_token", "the Authorization header must be 'Bearer TOKEN'");
    return Auth::Bad;
  }
  const std::string_view token = std::string_view(header).substr(kBearer.size());
  std::vector<std::string> tokens;
  uint64_t gen;
  bool loaded;
  {
    std::scoped_lock lock(slot.mu);
    loaded = slot.tokens_loaded;
    if (loaded) tokens = slot.tokens;
    gen = slot.secrets_gen;
  }
  if (!loaded) {
    // Every seat is read: a seat without a token (a room made with `mentat
    // new`, tokens issued by the host seat by seat) stops none after it.
    std::string error;
    for (Seat s = 0; s < kMaxSeats; ++s) {
      auto t = store.get_room_secret(room, token_name(s), &error);
      if (!error.empty()) {
        *err = error_reply(500, "store", error);
        return Auth::Bad;
      }
      tokens.push_back(t ? *t : std::string());
    }
    std::scoped_lock lock(slot.mu);
    if (slot.secrets_gen == gen) {
      slot.tokens = tokens;
      slot.tokens_loaded = true;
    }
  }
  bool found = false;
  for (size_t s = 0; s < tokens.size(); ++s)
    if (!tokens[s].empty() && api::same_secret(tokens[s], token)) {
      *seat = static_cast<Seat>(s);
      found = true;
    }
  if (!found) {
    *err = error_reply(401, "bad_token", "this token is not a seat of room " + room);
    return Auth::Bad;
  }
  return Auth::SeatToken;
}

bool Server::Impl::seat_of(const std::string& room, const std::string& auth, Seat* seat, web::Answer* err) {
  Reply e;
  auto sl = slot(room, &e);
  if (sl && authenticate(*sl, room, auth, seat, &e) != Auth::Bad) return true;
  *err = {e.status, e.body};
  return false;
}

bool Server::Impl::reissue_token(const std::string& room, Seat seat, std::string* token, std::string* error) {
  Reply e;
  auto sl = slot(room, &e);
  if (!sl) {
    *error = "no room " + room;
    return false;
  }
  *token = random_hex(32);
  if (!store.put_room_secrets(room, {{token_name(seat), *token}}, error)) return false;
  std::scoped_lock lock(sl->mu);
  forget_secrets(*sl);
  return true;
}

}  // namespace mentat::server
