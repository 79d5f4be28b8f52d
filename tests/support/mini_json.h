// A minimal JSON reader for tests only: objects, arrays, strings (with the
// standard escapes, \uXXXX decoded to UTF-8), numbers, booleans and null.
// Strict as RFC 8259 and JSON.parse are: raw control characters (U+0000 to
// U+001F) in strings, bytes that are not UTF-8 (overlong forms and encoded
// surrogates included), lone surrogate escapes, numbers outside the JSON
// grammar (leading zeros, "1.", ".5", "+1", nan) and trailing text are errors.
// Errors throw std::runtime_error. Not for production use: no streaming, no
// duplicate-key detection, numbers held as double.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace mini_json {

struct Value {
  enum class Type { Null, Bool, Number, String, Array, Object };
  Type type = Type::Null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<Value> array;
  // Object members in document order: keys[i] names values[i]. (Two vectors
  // rather than a vector of pairs, which would need Value to be complete.)
  std::vector<std::string> keys;
  std::vector<Value> values;

  bool is_null() const { return type == Type::Null; }
  bool is_array() const { return type == Type::Array; }
  bool is_object() const { return type == Type::Object; }
  bool is_string() const { return type == Type::String; }

  const Value* find(std::string_view key) const {
    if (type != Type::Object) return nullptr;
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &values[i];
    }
    return nullptr;
  }
  const Value& operator[](std::string_view key) const {
    expect(Type::Object, "object");
    const Value* v = find(key);
    if (v == nullptr) throw std::runtime_error("mini_json: missing key '" + std::string(key) + "'");
    return *v;
  }
  const Value& operator[](std::size_t i) const {
    expect(Type::Array, "array");
    if (i >= array.size()) throw std::runtime_error("mini_json: index out of range");
    return array[i];
  }
  std::size_t size() const { return type == Type::Object ? values.size() : array.size(); }
  const std::string& str() const { expect(Type::String, "string"); return string; }
  bool as_bool() const { expect(Type::Bool, "bool"); return boolean; }
  double num() const { expect(Type::Number, "number"); return number; }
  int as_int() const {
    const double d = num();
    const int i = static_cast<int>(d);
    if (static_cast<double>(i) != d) throw std::runtime_error("mini_json: not an integer");
    return i;
  }

 private:
  void expect(Type t, const char* what) const {
    if (type != t) throw std::runtime_error(std::string("mini_json: value is not a ") + what);
  }
};

namespace detail {

class Parser {
 public:
  explicit Parser(std::string_view text) : s_(text) {}

  Value parse_document() {
    Value v = parse_value();
    skip_ws();
    if (pos_ != s_.size()) fail("trailing characters");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& why) const {
    throw std::runtime_error("mini_json: " + why + " at offset " + std::to_string(pos_));
  }
  void skip_ws() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  char peek() {
    skip_ws();
    if (pos_ >= s_.size()) fail("unexpected end of input");
    return s_[pos_];
  }
  void expect_char(char c) {
    if (peek() != c) fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  bool consume_literal(std::string_view lit) {
    if (s_.substr(pos_, lit.size()) != lit) return false;
    pos_ += lit.size();
    return true;
  }

  Value parse_value() {
    Value v;
    const char c = peek();
    if (c == '{') {
      v.type = Value::Type::Object;
      ++pos_;
      if (peek() == '}') { ++pos_; return v; }
      for (;;) {
        if (peek() != '"') fail("expected object key");
        std::string key = parse_string();
        expect_char(':');
        v.keys.push_back(std::move(key));
        v.values.push_back(parse_value());
        if (peek() == ',') { ++pos_; continue; }
        expect_char('}');
        return v;
      }
    }
    if (c == '[') {
      v.type = Value::Type::Array;
      ++pos_;
      if (peek() == ']') { ++pos_; return v; }
      for (;;) {
        v.array.push_back(parse_value());
        if (peek() == ',') { ++pos_; continue; }
        expect_char(']');
        return v;
      }
    }
    if (c == '"') {
      v.type = Value::Type::String;
      v.string = parse_string();
      return v;
    }
    if (consume_literal("true")) { v.type = Value::Type::Bool; v.boolean = true; return v; }
    if (consume_literal("false")) { v.type = Value::Type::Bool; return v; }
    if (consume_literal("null")) return v;
    if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t start = pos_;
      auto digits = [&] {
        const std::size_t from = pos_;
        while (pos_ < s_.size() && s_[pos_] >= '0' && s_[pos_] <= '9') ++pos_;
        if (pos_ == from) fail("a number needs digits");
        return pos_ - from;
      };
      if (s_[pos_] == '-') ++pos_;
      const bool zero = pos_ < s_.size() && s_[pos_] == '0';
      if (digits() > 1 && zero) fail("a number with a leading zero");
      if (pos_ < s_.size() && s_[pos_] == '.') {
        ++pos_;
        digits();
      }
      if (pos_ < s_.size() && (s_[pos_] == 'e' || s_[pos_] == 'E')) {
        ++pos_;
        if (pos_ < s_.size() && (s_[pos_] == '+' || s_[pos_] == '-')) ++pos_;
        digits();
      }
      const std::string token(s_.substr(start, pos_ - start));
      char* end = nullptr;
      v.type = Value::Type::Number;
      v.number = std::strtod(token.c_str(), &end);
      if (end != token.c_str() + token.size()) fail("bad number '" + token + "'");
      return v;
    }
    fail(std::string("unexpected character '") + c + "'");
  }

  // One UTF-8 sequence starting at pos_ (a byte >= 0x80), copied to out.
  void append_raw_utf8(std::string& out) {
    const auto b = [&](std::size_t i) { return static_cast<unsigned char>(s_[i]); };
    const unsigned char c = b(pos_);
    std::size_t len = 0;
    unsigned cp = 0, min = 0;
    if ((c & 0xE0) == 0xC0) len = 2, cp = c & 0x1Fu, min = 0x80;
    else if ((c & 0xF0) == 0xE0) len = 3, cp = c & 0x0Fu, min = 0x800;
    else if ((c & 0xF8) == 0xF0) len = 4, cp = c & 0x07u, min = 0x10000;
    else fail("a byte that does not start UTF-8");
    if (pos_ + len > s_.size()) fail("truncated UTF-8");
    for (std::size_t i = 1; i < len; ++i) {
      if ((b(pos_ + i) & 0xC0) != 0x80) fail("bad UTF-8 continuation byte");
      cp = (cp << 6) | (b(pos_ + i) & 0x3Fu);
    }
    if (cp < min) fail("overlong UTF-8");
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp < 0xE000)) fail("UTF-8 outside Unicode scalar values");
    out.append(s_.substr(pos_, len));
    pos_ += len;
  }

  unsigned parse_hex4() {
    if (pos_ + 4 > s_.size()) fail("truncated \\u escape");
    unsigned cp = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = s_[pos_++];
      cp <<= 4;
      if (h >= '0' && h <= '9') cp |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f') cp |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F') cp |= static_cast<unsigned>(h - 'A' + 10);
      else fail("bad hex digit");
    }
    return cp;
  }

  static void append_utf8(std::string& out, unsigned cp) {
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

  std::string parse_string() {
    expect_char('"');
    std::string out;
    for (;;) {
      if (pos_ >= s_.size()) fail("unterminated string");
      const char c = s_[pos_++];
      if (c == '"') return out;
      const auto u = static_cast<unsigned char>(c);
      if (u < 0x20) fail("a raw control character in a string");
      if (u >= 0x80) {
        --pos_;
        append_raw_utf8(out);
        continue;
      }
      if (c != '\\') { out += c; continue; }
      if (pos_ >= s_.size()) fail("unterminated escape");
      const char e = s_[pos_++];
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = parse_hex4();
          if (cp >= 0xD800 && cp < 0xDC00) {
            if (!consume_literal("\\u")) fail("a lone high surrogate");
            const unsigned lo = parse_hex4();
            if (lo < 0xDC00 || lo >= 0xE000) fail("bad surrogate pair");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC00 && cp < 0xE000) {
            fail("a lone low surrogate");
          }
          append_utf8(out, cp);
          break;
        }
        default: fail("bad escape");
      }
    }
  }

  std::string_view s_;
  std::size_t pos_ = 0;
};

}  // namespace detail

inline Value parse(std::string_view text) { return detail::Parser(text).parse_document(); }

inline Value parse_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("mini_json: cannot open " + path);
  std::ostringstream buf;
  buf << in.rdbuf();
  return parse(buf.str());
}

}  // namespace mini_json
