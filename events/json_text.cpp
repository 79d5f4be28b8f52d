#include "events/json_text.h"

#include <flatbuffers/idl.h>

#include <algorithm>
#include <cstdint>

namespace mentat::codec {

namespace {

// The length of the valid UTF-8 sequence at p (at most n bytes), 0 when it
// is not one: overlong forms, surrogates and values above U+10FFFF are not.
size_t utf8_sequence(const unsigned char* p, size_t n, uint32_t* cp) {
  const unsigned char c = p[0];
  size_t len;
  uint32_t v, min;
  if (c < 0x80) {
    *cp = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    len = 2, v = c & 0x1Fu, min = 0x80;
  } else if ((c & 0xF0) == 0xE0) {
    len = 3, v = c & 0x0Fu, min = 0x800;
  } else if ((c & 0xF8) == 0xF0) {
    len = 4, v = c & 0x07u, min = 0x10000;
  } else {
    return 0;
  }
  if (n < len) return 0;
  for (size_t i = 1; i < len; ++i) {
    if ((p[i] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (p[i] & 0x3Fu);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return len;
}

bool must_escape(uint32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || cp == 0x2028 || cp == 0x2029; }

void append_u(std::string* out, uint32_t cp) {
  static const char* hex = "0123456789abcdef";
  *out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) *out += hex[(cp >> shift) & 0xF];
}

// Appends `s` as the content of a JSON string, escaping what must be (and
// '<', '>', '&' when `html`).
void append_escaped(std::string* out, std::string_view s, bool html) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(p + i, s.size() - i, &cp);
    if (len == 0) {
      *out += "\\ufffd";
      ++i;
      continue;
    }
    if (cp == '"') *out += "\\\"";
    else if (cp == '\\') *out += "\\\\";
    else if (cp == '\n') *out += "\\n";
    else if (cp == '\t') *out += "\\t";
    else if (cp == '\r') *out += "\\r";
    else if (must_escape(cp) || (html && (cp == '<' || cp == '>' || cp == '&'))) append_u(out, cp);
    else out->append(s.data() + i, len);
    i += len;
  }
}

int hex4(std::string_view s, size_t at) {
  if (at + 4 > s.size()) return -1;
  int v = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char h = s[i];
    v <<= 4;
    if (h >= '0' && h <= '9') v |= h - '0';
    else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
    else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
    else return -1;
  }
  return v;
}

// Makes GenerateText's output (printed with allow_non_utf8) valid JSON:
// inside strings, "\xNN" (a byte that is not UTF-8) and lone surrogate
// escapes become \ufffd, raw control characters and invalid sequences are
// escaped; outside strings, nan and inf (doubles) become null.
std::string make_valid(std::string_view in) {
  std::string out;
  out.reserve(in.size() + 16);
  const auto* p = reinterpret_cast<const unsigned char*>(in.data());
  bool in_str = false;
  // A byte copied as it is: printable ASCII that starts nothing (no quote,
  // backslash, or the n, i or - of a nan or inf outside strings).
  const auto plain = [](unsigned char c, bool str) {
    return c >= 0x20 && c < 0x7F && c != '"' && c != '\\' && (str || (c != 'n' && c != 'i' && c != '-'));
  };
  for (size_t i = 0; i < in.size();) {
    if (plain(p[i], in_str)) {  // a run of them at once
      size_t j = i + 1;
      while (j < in.size() && plain(p[j], in_str)) ++j;
      out.append(in.data() + i, j - i);
      i = j;
      continue;
    }
    const char c = in[i];
    if (!in_str) {
      if (c == '"') in_str = true;
      const size_t neg = c == '-' ? 1 : 0;
      if (in.compare(i + neg, 3, "nan") == 0 || in.compare(i + neg, 3, "inf") == 0) {
        out += "null";
        i += neg + 3;
        continue;
      }
      out += c;
      ++i;
      continue;
    }
    if (c == '"') {
      in_str = false;
      out += c;
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < in.size()) {
      const char e = in[i + 1];
      if (e == 'x') {  // allow_non_utf8: "\xNN"
        out += "\\ufffd";
        i += 4;
        continue;
      }
      if (e == 'u') {
        const int u = hex4(in, i + 2);
        if (u >= 0xD800 && u <= 0xDBFF && in.compare(i + 6, 2, "\\u") == 0) {
          const int lo = hex4(in, i + 8);
          if (lo >= 0xDC00 && lo <= 0xDFFF) {
            out.append(in.data() + i, 12);
            i += 12;
            continue;
          }
        }
        if (u < 0 || (u >= 0xD800 && u <= 0xDFFF)) {
          out += "\\ufffd";
          i += u < 0 ? 2 : 6;
          continue;
        }
        out.append(in.data() + i, 6);
        i += 6;
        continue;
      }
      out.append(in.data() + i, 2);
      i += 2;
      continue;
    }
    uint32_t cp = 0;
    const size_t len = utf8_sequence(p + i, in.size() - i, &cp);
    if (len == 0) {
      out += "\\ufffd";
      ++i;
    } else {
      if (must_escape(cp)) append_u(&out, cp);
      else out.append(in.data() + i, len);
      i += len;
    }
  }
  return out;
}

}  // namespace

bool print_json(flatbuffers::Parser& parser, const void* buffer, std::string* out) {
  const bool allow = parser.opts.allow_non_utf8;
  const int indent = parser.opts.indent_step;
  parser.opts.allow_non_utf8 = true;  // invalid bytes come out as \xNN, replaced below
  parser.opts.indent_step = -1;
  std::string text;
  const bool ok = flatbuffers::GenerateText(parser, buffer, &text);
  parser.opts.allow_non_utf8 = allow;
  parser.opts.indent_step = indent;
  out->clear();
  if (!ok) return false;
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  *out = make_valid(text);
  return true;
}

std::string json_quote(std::string_view text) {
  std::string out = "\"";
  append_escaped(&out, text, true);
  return out + "\"";
}

std::string printable(std::string_view text) {
  static const char* hex = "0123456789abcdef";
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    const size_t len = utf8_sequence(p + i, text.size() - i, &cp);
    if (len != 0 && !must_escape(cp)) {
      out.append(text.data() + i, len);
      i += len;
      continue;
    }
    if (cp == '\n' && len == 1) out += "\\n";
    else if (cp == '\t' && len == 1) out += "\\t";
    else
      for (size_t k = 0; k < std::max<size_t>(len, 1); ++k) {
        out += "\\x";
        out += hex[p[i + k] >> 4];
        out += hex[p[i + k] & 0xF];
      }
    i += std::max<size_t>(len, 1);
  }
  return out;
}

}  // namespace mentat::codec
