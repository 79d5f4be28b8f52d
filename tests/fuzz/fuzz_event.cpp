// libFuzzer target: stored-event decoding.
//
// Input: the bytes of a stored event (an Event FlatBuffer of
// events/mentat.fbs).
//  * codec::decode_event (FlatBuffers Verifier, unknown union tags, list
//    bounds) accepts or rejects it; a rejection carries an error sentence.
//  * An accepted event re-encodes (encode_event) to bytes that decode to
//    the same event and re-encode to the same bytes (the encoding is
//    canonical after one round).
//  * The store path: the bytes are planted as a stored value in a RocksDB
//    store (without its checksum, and sealed with a valid one), and read back
//    with EventStore::read_event + decode_event: an unsealed value is
//    refused by the reader with an error; a sealed one gives back the same
//    bytes and the same verdict as decoding them directly.
// A violation aborts (libFuzzer records the input as a crash).
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "events/codec.h"
#include "store/event_store.h"
#include "store/room.h"

namespace {

using namespace mentat;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_event: %s\n", what.c_str());
  std::abort();
}

bool same(const codec::Event& a, const codec::Event& b) { return codec::encode_event(a) == codec::encode_event(b); }

// One store per process, in a temporary directory removed at exit.
struct FuzzStore {
  std::filesystem::path dir;
  std::unique_ptr<store::EventStore> st;
  std::string room = "fuzz";
  FuzzStore() {
    dir = std::filesystem::temp_directory_path() / ("mentat-fuzz-event-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    std::string error;
    store::Options o;
    o.sync = false;
    st = store::EventStore::open(dir.string(), o, &error);
    if (!st) fail("cannot open the store: " + error);
    GameSetup g;
    g.seed = 3;
    g.factions = {Faction::Atreides, Faction::Harkonnen};
    if (!store::create_room(*st, g, &room, &error)) fail("cannot create the room: " + error);
  }
  ~FuzzStore() {
    st.reset();
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

FuzzStore& fuzz_store() {
  static FuzzStore s;
  return s;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 1 << 16) return 0;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  std::string error;
  codec::Event e;
  const bool ok = codec::decode_event(bytes, &e, &error);
  if (!ok && error.empty()) fail("decode_event refused without an error");
  if (ok) {
    const std::string once = codec::encode_event(e);
    codec::Event e2;
    if (!codec::decode_event(once, &e2, &error)) fail("a re-encoded event does not decode: " + error);
    if (codec::encode_event(e2) != once) fail("re-encoding is not stable");
    if (!same(e, e2)) fail("the round trip changed the event");
  }

  // The store path.
  FuzzStore& fs = fuzz_store();
  std::string read;
  error.clear();
  if (!fs.st->debug_overwrite_event(fs.room, 0, bytes, &error, /*raw=*/true)) fail("cannot plant a raw value: " + error);
  if (fs.st->read_event(fs.room, 0, &read, &error)) {
    // Only a value that happens to end in its own checksum passes.
    if (size < 8) fail("a raw value shorter than a checksum was read back");
  } else if (error.empty()) {
    fail("read_event refused a raw value without an error");
  }
  error.clear();
  if (!fs.st->debug_overwrite_event(fs.room, 0, bytes, &error, /*raw=*/false)) fail("cannot plant a sealed value: " + error);
  if (!fs.st->read_event(fs.room, 0, &read, &error)) fail("a sealed value was not read back: " + error);
  if (read != bytes) fail("a sealed value was read back changed");
  codec::Event e3;
  error.clear();
  const bool ok3 = codec::decode_event(read, &e3, &error);
  if (ok3 != ok) fail("the store path and the direct decode disagree");
  if (ok3 && !same(e, e3)) fail("the store path decoded a different event");
  return 0;
}
