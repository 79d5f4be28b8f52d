// Canonical state encoding (events/state.fbs) driven by visit_fields().
#include <flatbuffers/flatbuffers.h>
#include <xxhash.h>

#include <type_traits>

#include "events/codec.h"
#include "events/state_generated.h"

namespace mentat::codec {

namespace {

// The values the encoding leaves out: the defaults, but a ruling whose default
// changed keeps its old one (RulingInfo::encoding_baseline), so that stored
// states keep their bytes and hashes.
const Rulings& ruling_defaults() {
  static const Rulings d = Rulings::encoding_baseline();
  return d;
}

template <class T>
constexpr int width() {
  if constexpr (std::is_enum_v<T>) return sizeof(std::underlying_type_t<T>);
  else return sizeof(T);
}

// Fixed buffers, no capacity checks: every field visited is a distinct part
// of the state, so each stream holds at most sizeof(GameState) / width
// values (a pile's count byte is its own field; its ids are bounded by N).
struct Writer {
  static constexpr size_t kMax8 = sizeof(GameState), kMax16 = sizeof(GameState) / 2, kMax64 = sizeof(GameState) / 8;
  uint8_t u8[kMax8];
  uint16_t u16[kMax16];
  uint64_t u64[kMax64];
  size_t n8 = 0, n16 = 0, n64 = 0;

  template <class T>
  void operator()(const char*, int, const T& x) {
    if constexpr (width<T>() == 1) u8[n8++] = static_cast<uint8_t>(x);
    else if constexpr (width<T>() == 2) u16[n16++] = static_cast<uint16_t>(x);
    else u64[n64++] = static_cast<uint64_t>(x);
  }
  template <int N>
  void pile(const char*, int, const Pile<N>& p) {
    u8[n8++] = p.n;
    for (int i = 0; i < p.n; ++i) u8[n8++] = p.ids[i];
  }
  void rulings(const char*, const Rulings& r) {
    const Rulings& d = ruling_defaults();
    const size_t count = n8++;
    uint8_t n = 0;
    for (int i = 0; i < kNumRulings; ++i)
      if (r.value[i] != d.value[i]) {
        u8[n8++] = static_cast<uint8_t>(i);
        u8[n8++] = r.value[i];
        ++n;
      }
    u8[count] = n;
  }
};

struct Reader {
  const flatbuffers::Vector<uint8_t>* u8;
  const flatbuffers::Vector<uint16_t>* u16;
  const flatbuffers::Vector<uint64_t>* u64;
  size_t i8 = 0, i16 = 0, i64 = 0;
  bool ok = true;

  template <class T>
  void operator()(const char*, int, T& x) {
    if (!ok) return;
    if constexpr (width<T>() == 1) {
      if (i8 >= u8->size()) { ok = false; return; }
      x = static_cast<T>(u8->Get(static_cast<flatbuffers::uoffset_t>(i8++)));
    } else if constexpr (width<T>() == 2) {
      if (i16 >= u16->size()) { ok = false; return; }
      x = static_cast<T>(u16->Get(static_cast<flatbuffers::uoffset_t>(i16++)));
    } else {
      if (i64 >= u64->size()) { ok = false; return; }
      x = static_cast<T>(u64->Get(static_cast<flatbuffers::uoffset_t>(i64++)));
    }
  }
  // Refuses an id out of order or unknown, a value out of range, or a value
  // equal to the default (the writer never writes one: not canonical).
  void rulings(const char* name, Rulings& r) {
    r = ruling_defaults();
    uint8_t n = 0;
    (*this)(name, -1, n);
    int last = -1;
    for (int k = 0; ok && k < n; ++k) {
      uint8_t id = 0, value = 0;
      (*this)(name, -1, id);
      (*this)(name, -1, value);
      if (!ok) return;
      if (id <= last || id >= kNumRulings || value >= ruling_info(static_cast<RulingId>(id)).values.size() ||
          value == r.value[id]) {
        ok = false;
        return;
      }
      r.value[id] = value;
      last = id;
    }
  }
  template <int N>
  void pile(const char* name, int idx, Pile<N>& p) {
    p.clear();
    uint8_t n = 0;
    (*this)(name, idx, n);
    if (!ok || n > N) { ok = false; return; }
    p.n = n;
    for (int i = 0; i < n; ++i) (*this)(name, idx, p.ids[i]);
  }
};

}  // namespace

namespace {

// The canonical encoding of `s`, finished in `b` (paid once per stored event:
// the streams are reserved up front, the hash reads the builder's buffer).
void build_state(const GameState& s, flatbuffers::FlatBufferBuilder& b) {
  thread_local Writer w;  // large: kept off the stack, reused
  w.n8 = w.n16 = w.n64 = 0;
  visit_fields(s, w);
  auto enc = fb::CreateStateEncoding(b, kStateFormat, b.CreateVector(w.u8, w.n8), b.CreateVector(w.u16, w.n16),
                                     b.CreateVector(w.u64, w.n64));
  fb::FinishStateEncodingBuffer(b, enc);
}

}  // namespace

std::string encode_state(const GameState& s) {
  flatbuffers::FlatBufferBuilder b(4096);
  build_state(s, b);
  return std::string(reinterpret_cast<const char*>(b.GetBufferPointer()), b.GetSize());
}

bool decode_state(std::string_view bytes, GameState* out, std::string* error) {
  if (bytes.size() < 8 || !fb::StateEncodingBufferHasIdentifier(bytes.data())) {
    *error = "not a Mentat state encoding";
    return false;
  }
  flatbuffers::Verifier verifier(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  if (!fb::VerifyStateEncodingBuffer(verifier)) {
    *error = "state bytes failed FlatBuffers verification";
    return false;
  }
  const auto* enc = fb::GetStateEncoding(bytes.data());
  if (enc->format() != kStateFormat) {
    *error = "state encoding format " + std::to_string(enc->format()) + " is not " + std::to_string(kStateFormat);
    return false;
  }
  if (!enc->u8() || !enc->u16() || !enc->u64()) {
    *error = "state encoding is missing a stream";
    return false;
  }
  Reader r{enc->u8(), enc->u16(), enc->u64()};
  GameState s;
  visit_fields(s, r);
  if (!r.ok || r.i8 != enc->u8()->size() || r.i16 != enc->u16()->size() || r.i64 != enc->u64()->size()) {
    *error = "state encoding has the wrong length for this format";
    return false;
  }
  *out = s;
  return true;
}

uint64_t hash_bytes(std::string_view bytes) { return XXH3_64bits(bytes.data(), bytes.size()); }

uint64_t state_hash(const GameState& s) {
  flatbuffers::FlatBufferBuilder b(4096);
  build_state(s, b);
  return XXH3_64bits(b.GetBufferPointer(), b.GetSize());  // == hash_bytes(encode_state(s))
}

}  // namespace mentat::codec
