// The JSON forms of the room server's requests and responses: the tables of
// server/api.fbs, read by flatbuffers::Parser and printed by GenerateText
// with the schemas compiled into the program (events/schema_text.h).
//
// Contract:
//  * parse<T>(json) accepts what the FlatBuffers JSON parser accepts for
//    table T in strict mode (quoted names; unknown fields, mistyped or
//    out-of-range values, repeated fields and trailing text are errors; an
//    optional scalar may be null) and verifies the result. On failure it
//    returns null and sets *error to one sentence ending in the parser's
//    message. The table lives in *buffer (its owner).
//  * print<T>(b, nulls) prints the finished buffer of `b` (root T) as one
//    line of strict JSON, non-ASCII UTF-8 as is, made valid for any stored
//    text by codec::print_json (control characters escaped, bytes that are
//    not UTF-8 as U+FFFD). nulls: every scalar field is printed (its default
//    if unset, null for an unset optional one); otherwise only the fields
//    present in the buffer. A Builder writes every scalar it is given,
//    defaults included.
//  * Thread-safe: each thread keeps its own parser, built on its first use
//    (about 0.6 ms and 150 KB: the three schema texts), then reused.
#pragma once

#include <flatbuffers/flatbuffers.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/engine.h"
#include "events/api_generated.h"

namespace mentat::server::api {

struct Builder : flatbuffers::FlatBufferBuilder {
  Builder() : flatbuffers::FlatBufferBuilder(1024) { ForceDefaults(true); }
};

// Parses `json` with root table `table` (qualified name) into *buffer.
bool parse_json(const char* table, std::string_view json, std::string* buffer, std::string* error);
std::string print(const char* table, const uint8_t* buffer, bool nulls);

template <class T>
const T* parse(std::string_view json, std::string* buffer, std::string* error) {
  if (!parse_json(T::GetFullyQualifiedName(), json, buffer, error)) return nullptr;
  flatbuffers::Verifier v(reinterpret_cast<const uint8_t*>(buffer->data()), buffer->size());
  if (!v.VerifyBuffer<T>(nullptr)) {
    *error = std::string("the parsed ") + T::GetFullyQualifiedName() + " failed FlatBuffers verification";
    return nullptr;
  }
  return flatbuffers::GetRoot<T>(buffer->data());
}

template <class T>
std::string print(const flatbuffers::FlatBufferBuilder& b, bool nulls) {
  return print(T::GetFullyQualifiedName(), b.GetBufferPointer(), nulls);
}

// `s` with every byte that is not part of valid UTF-8 replaced by '?'
// (for error messages that quote client input).
std::string valid_utf8(std::string_view s);

// The body of POST /rooms/{id}/actions for `a`:
// {"expect": E, "id": ID, "action_type": "...", "action": {...}}.
// For clients written in C++ (tests, bots).
std::string submit_request_json(int64_t expect, std::string_view id, const Action& a);

// Whether two secrets (tokens) are equal, in time independent of where they
// differ (their lengths are not secret).
bool same_secret(std::string_view a, std::string_view b);

}  // namespace mentat::server::api
