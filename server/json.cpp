#include "server/json.h"

#include <charconv>
#include <cstdio>

#include "events/codec.h"

namespace mentat::server::json {

namespace {

constexpr int kMaxDepth = 64;

struct Reader {
  std::string_view s;
  size_t i = 0;
  std::string error;

  bool fail(const std::string& what) {
    if (error.empty()) error = what + " at byte " + std::to_string(i);
    return false;
  }
  void ws() {
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
  }
  bool literal(std::string_view word) {
    if (s.substr(i, word.size()) != word) return fail("invalid literal");
    i += word.size();
    return true;
  }
  static void put_utf8(std::string& out, uint32_t cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }
  bool hex4(uint32_t* out) {
    if (i + 4 > s.size()) return fail("truncated \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const char c = s[i++];
      v <<= 4;
      if (c >= '0' && c <= '9') v |= static_cast<uint32_t>(c - '0');
      else if (c >= 'a' && c <= 'f') v |= static_cast<uint32_t>(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= static_cast<uint32_t>(c - 'A' + 10);
      else return fail("bad \\u escape");
    }
    *out = v;
    return true;
  }
  bool string(std::string* out) {
    ++i;  // opening quote
    out->clear();
    while (true) {
      if (i >= s.size()) return fail("unterminated string");
      const char c = s[i];
      if (c == '"') {
        ++i;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20) return fail("control character in string");
      if (c != '\\') {
        *out += c;
        ++i;
        continue;
      }
      if (++i >= s.size()) return fail("unterminated string");
      const char e = s[i++];
      switch (e) {
        case '"': *out += '"'; break;
        case '\\': *out += '\\'; break;
        case '/': *out += '/'; break;
        case 'b': *out += '\b'; break;
        case 'f': *out += '\f'; break;
        case 'n': *out += '\n'; break;
        case 'r': *out += '\r'; break;
        case 't': *out += '\t'; break;
        case 'u': {
          uint32_t cp;
          if (!hex4(&cp)) return false;
          if (cp >= 0xD800 && cp < 0xDC00) {
            uint32_t lo;
            if (s.substr(i, 2) != "\\u") return fail("unpaired surrogate");
            i += 2;
            if (!hex4(&lo)) return false;
            if (lo < 0xDC00 || lo >= 0xE000) return fail("unpaired surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            return fail("unpaired surrogate");
          }
          put_utf8(*out, cp);
          break;
        }
        default: return fail("bad escape");
      }
    }
  }
  bool number(Value* v) {
    const size_t start = i;
    if (i < s.size() && s[i] == '-') ++i;
    if (i >= s.size()) return fail("bad number");
    if (s[i] == '0') {
      ++i;
    } else if (s[i] >= '1' && s[i] <= '9') {
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    } else {
      return fail("bad number");
    }
    if (i < s.size() && s[i] == '.') {
      ++i;
      if (i >= s.size() || !(s[i] >= '0' && s[i] <= '9')) return fail("bad number");
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
      ++i;
      if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
      if (i >= s.size() || !(s[i] >= '0' && s[i] <= '9')) return fail("bad number");
      while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
    }
    v->type = Value::Type::Number;
    v->text.assign(s.substr(start, i - start));
    return true;
  }
  bool value(Value* v, int depth) {
    if (depth > kMaxDepth) return fail("nesting too deep");
    ws();
    if (i >= s.size()) return fail("unexpected end of input");
    const size_t start = i;
    const char c = s[i];
    bool ok = true;
    if (c == '{') {
      v->type = Value::Type::Object;
      ++i;
      ws();
      if (i < s.size() && s[i] == '}') {
        ++i;
      } else {
        while (true) {
          ws();
          if (i >= s.size() || s[i] != '"') return fail("expected a member name");
          std::string key;
          if (!string(&key)) return false;
          ws();
          if (i >= s.size() || s[i] != ':') return fail("expected ':'");
          ++i;
          Value member;
          if (!value(&member, depth + 1)) return false;
          v->keys.push_back(std::move(key));
          v->values.push_back(std::move(member));
          ws();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == '}') {
            ++i;
            break;
          }
          return fail("expected ',' or '}'");
        }
      }
    } else if (c == '[') {
      v->type = Value::Type::Array;
      ++i;
      ws();
      if (i < s.size() && s[i] == ']') {
        ++i;
      } else {
        while (true) {
          Value item;
          if (!value(&item, depth + 1)) return false;
          v->items.push_back(std::move(item));
          ws();
          if (i < s.size() && s[i] == ',') {
            ++i;
            continue;
          }
          if (i < s.size() && s[i] == ']') {
            ++i;
            break;
          }
          return fail("expected ',' or ']'");
        }
      }
    } else if (c == '"') {
      v->type = Value::Type::String;
      ok = string(&v->text);
    } else if (c == 't') {
      v->type = Value::Type::Bool;
      v->boolean = true;
      ok = literal("true");
    } else if (c == 'f') {
      v->type = Value::Type::Bool;
      ok = literal("false");
    } else if (c == 'n') {
      v->type = Value::Type::Null;
      ok = literal("null");
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      ok = number(v);
    } else {
      return fail("unexpected character");
    }
    if (!ok) return false;
    v->raw = s.substr(start, i - start);
    return true;
  }
};

bool integral(const std::string& t) {
  return !t.empty() && t.find_first_of(".eE") == std::string::npos;
}

}  // namespace

const Value* Value::get(std::string_view key) const {
  if (type != Type::Object) return nullptr;
  for (size_t k = keys.size(); k-- > 0;)
    if (keys[k] == key) return &values[k];
  return nullptr;
}

bool Value::as_int64(int64_t* out) const {
  if (type != Type::Number || !integral(text)) return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size();
}

bool Value::as_uint64(uint64_t* out) const {
  if (type != Type::Number || !integral(text) || text[0] == '-') return false;
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && p == text.data() + text.size();
}

bool parse(std::string_view text, Value* out, std::string* error) {
  Reader r;
  r.s = text;
  *out = Value{};
  if (!r.value(out, 0)) {
    *error = "invalid JSON: " + r.error;
    return false;
  }
  r.ws();
  if (r.i != text.size()) {
    r.fail("trailing characters");
    *error = "invalid JSON: " + r.error;
    return false;
  }
  return true;
}

std::string quote(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
  return out;
}

bool action_request_json(const Action& a, std::string* out, std::string* error) {
  codec::Event e;
  e.version = 1;
  e.seat = 0;
  e.action = a;
  std::string text;
  if (!codec::event_to_json(codec::encode_event(e), &text, error)) return false;
  Value v;
  if (!parse(text, &v, error)) return false;
  const Value* type = v.get("action_type");
  const Value* action = v.get("action");
  if (!type) {
    *error = "the printed event has no action_type";
    return false;
  }
  *out = "{\"action_type\":" + std::string(type->raw) + ",\"action\":" + (action ? std::string(action->raw) : "{}") + "}";
  return true;
}

}  // namespace mentat::server::json
