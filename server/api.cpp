#include "server/api.h"

#include <flatbuffers/idl.h>
#include <flatbuffers/util.h>

#include <algorithm>
#include <memory>
#include <stdexcept>

#include "events/codec.h"
#include "events/json_text.h"
#include "events/schema_text.h"

namespace mentat::server::api {

namespace {

// api.fbs with its include lines blanked: the included schemas are parsed
// first from their own compiled-in texts, so nothing is read from disk.
std::string api_schema_without_includes() {
  std::string s = codec::schema::kApiSchema;
  size_t at = 0;
  while (at < s.size()) {
    size_t end = s.find('\n', at);
    if (end == std::string::npos) end = s.size();
    if (s.compare(at, 8, "include ") == 0) {
      const size_t semi = s.find(';', at);
      if (semi != std::string::npos && semi < end)
        for (size_t i = at; i <= semi; ++i) s[i] = ' ';
    }
    at = end + 1;
  }
  return s;
}

std::unique_ptr<flatbuffers::Parser> make_parser() {
  flatbuffers::IDLOptions o;
  o.strict_json = true;
  o.indent_step = -1;  // one line
  o.natural_utf8 = true;
  auto p = std::make_unique<flatbuffers::Parser>(o);
  const std::string api = api_schema_without_includes();
  if (!p->Parse(codec::schema::kEventSchema) || !p->Parse(codec::schema::kViewSchema) || !p->Parse(api.c_str()))
    throw std::logic_error("internal: the API schema does not parse: " + p->error_);
  return p;
}

// One parser per thread, reused: a parser holds no state between JSON
// documents except its builder, which ParseJson clears. After a failed
// parse the thread's parser is rebuilt, to start clean whatever the failure
// left behind.
thread_local std::unique_ptr<flatbuffers::Parser> t_parser;

flatbuffers::Parser& parser() {
  if (!t_parser) t_parser = make_parser();
  return *t_parser;
}

std::string short_name(const char* table) {
  std::string_view n(table);
  if (auto dot = n.rfind('.'); dot != std::string_view::npos) n.remove_prefix(dot + 1);
  return std::string(n);
}

}  // namespace

bool parse_json(const char* table, std::string_view json, std::string* buffer, std::string* error) {
  if (json.find('\0') != std::string_view::npos) {
    *error = "invalid " + short_name(table) + ": the body contains a NUL byte";
    return false;
  }
  auto& p = parser();
  if (!p.SetRootType(table)) throw std::logic_error(std::string("internal: no table ") + table + " in the API schema");
  const std::string text(json);
  if (!p.ParseJson(text.c_str())) {
    *error = valid_utf8("invalid " + short_name(table) + ": " + p.error_);
    t_parser.reset();
    return false;
  }
  buffer->assign(reinterpret_cast<const char*>(p.builder_.GetBufferPointer()), p.builder_.GetSize());
  p.builder_.Clear();
  return true;
}

std::string print(const char* table, const uint8_t* buffer, bool nulls) {
  auto& p = parser();
  if (!p.SetRootType(table)) throw std::logic_error(std::string("internal: no table ") + table + " in the API schema");
  p.opts.output_default_scalars_in_json = nulls;
  std::string out;
  const bool ok = codec::print_json(p, buffer, &out);  // escapes control characters, bytes not UTF-8 as U+FFFD
  p.opts.output_default_scalars_in_json = false;
  if (!ok) throw std::runtime_error("cannot print a " + short_name(table) + " as JSON");
  return out;
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  const char* at = s.data();
  const char* end = s.data() + s.size();
  while (at < end) {
    if (static_cast<unsigned char>(*at) < 0x80) {
      out += *at++;
      continue;
    }
    const char* start = at;
    // FromUTF8 reads at most 4 bytes and stops at a NUL; s may end anywhere.
    const std::string chunk(start, static_cast<size_t>(std::min<ptrdiff_t>(4, end - start)));
    const char* c = chunk.c_str();
    if (flatbuffers::FromUTF8(&c) < 0) {
      out += '?';
      ++at;
    } else {
      const auto n = static_cast<size_t>(c - chunk.c_str());
      out.append(start, n);
      at += n;
    }
  }
  return out;
}

bool same_secret(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  unsigned char d = 0;
  for (size_t i = 0; i < a.size(); ++i) d |= static_cast<unsigned char>(a[i] ^ b[i]);
  return d == 0;
}

std::string submit_request_json(int64_t expect, std::string_view id, const Action& a) {
  Builder b;
  const auto ids = b.CreateString(id.data(), id.size());
  const auto action = codec::action_to_table(b, a, nullptr);
  fb::SubmitRequestBuilder r(b);
  r.add_expect(expect);
  r.add_id(ids);
  r.add_action_type(static_cast<fb::Action>(a.kind()));
  if (action) r.add_action(flatbuffers::Offset<void>(action));
  b.Finish(r.Finish());
  return print<fb::SubmitRequest>(b, false);
}

}  // namespace mentat::server::api
