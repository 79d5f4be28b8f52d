// A small strict JSON reader and writing helpers for the room server.
//
// Contract:
//  * parse() accepts exactly RFC 8259 JSON (one value, surrounding white
//    space allowed), nesting at most 64 deep; on failure it returns false and
//    sets *error to one sentence with the byte offset.
//  * Every Value keeps `raw`, its exact text in the parsed document, so that
//    a sub-document (an action) can be handed on unchanged to another parser
//    (codec::parse_action_json). `raw` points into the caller's text: the
//    text must outlive the Value.
//  * Numbers are kept as text; as_int64/as_uint64 accept integers only (no
//    fraction or exponent) and check the range, so 64-bit seeds are exact.
//  * Pure functions; thread-safe.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/engine.h"

namespace mentat::server::json {

struct Value {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  std::string text;             // String: decoded; Number: as written
  std::string_view raw;         // the value as written in the document
  std::vector<Value> items;     // Array
  std::vector<std::string> keys;  // Object: keys[i] names values[i], in document order
  std::vector<Value> values;

  bool is(Type t) const { return type == t; }
  // The member named `key` (the last one if repeated), or null.
  const Value* get(std::string_view key) const;
  bool as_int64(int64_t* out) const;
  bool as_uint64(uint64_t* out) const;
};

bool parse(std::string_view text, Value* out, std::string* error);

// `s` as a JSON string literal (quotes included; control characters, '"'
// and '\\' escaped; other bytes passed through).
std::string quote(std::string_view s);

// {"action_type": "...", "action": {...}}: the request form of `a` that
// codec::parse_action_json reads back to an equal Action (built through the
// event codec and its JSON printer). For bots and tests.
bool action_request_json(const Action& a, std::string* out, std::string* error);

}  // namespace mentat::server::json
