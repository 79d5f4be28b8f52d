// Text that leaves the program: JSON valid for any stored bytes, and lines
// safe for a terminal.
//
// Contract:
//  * print_json is the one place FlatBuffers JSON is printed (codec's
//    event/view/table printers, server/api.h's answers). Its output is valid
//    RFC 8259 JSON and valid UTF-8 for ANY stored bytes: control characters
//    (U+0000-U+001F, U+007F-U+009F) and U+2028/U+2029 are escaped as
//    \uXXXX; bytes that are not UTF-8 (or encode a surrogate) are printed
//    as U+FFFD; a double that is nan or inf is printed as null. Free text
//    is stored as given: it is escaped here, never restricted at input.
//  * json_quote makes a JSON string literal of any bytes, escaped the same
//    way, and also '<', '>', '&' (so it is safe inside an HTML <script>).
//  * printable shows control characters (C0, DEL, C1, U+2028/9) and bytes
//    that are not UTF-8 as \xNN (\n and \t as such): a line for a terminal.
//  * Pure functions; thread-safe (print_json uses the caller's parser, which
//    it leaves as it found it).
#pragma once

#include <string>
#include <string_view>

namespace flatbuffers {
class Parser;
}

namespace mentat::codec {

// GenerateText over `buffer` (a finished buffer whose root is the parser's
// root type) on one line, made valid as above. False only when GenerateText
// itself fails.
bool print_json(flatbuffers::Parser& parser, const void* buffer, std::string* out);
std::string json_quote(std::string_view text);
std::string printable(std::string_view text);

}  // namespace mentat::codec
