// libFuzzer target: the names pre-pass (events/names.h resolve_action_json),
// the first reader of every action a client sends (`mentat act`, POST
// /rooms/{id}/actions), before the FlatBuffers parser and its depth check.
//
// Input: any bytes, up to 1 MiB (the server's body limit), read as the JSON
// of an action. Seeds: tests/fuzz/corpus/names/ (deep and wide JSON, long
// keys, escapes, junk in names) and those mentat_fuzz_seeds writes.
//
// Properties (a violation aborts; libFuzzer's -timeout and -rss_limit_mb
// catch work or memory that grows faster than the input):
//  * it returns, with a sentence in *error whenever it refuses;
//  * a refusal for nesting happens only where the input's brackets, counted
//    outside strings, pass kMaxJsonDepth;
//  * what it accepts it accepts again: the output read a second time is
//    accepted and comes back unchanged (every name became an id once);
//  * the output parses as an action or is refused with a sentence.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "events/codec.h"
#include "events/names.h"

namespace {

using namespace mentat;

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_names: %s: %s\n", what, detail.substr(0, 400).c_str());
  std::abort();
}

// The deepest nesting of [ and { outside strings.
int raw_depth(std::string_view t) {
  int depth = 0, deepest = 0;
  bool in_string = false;
  for (size_t i = 0; i < t.size(); ++i) {
    const char c = t[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > (1u << 20)) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string out, error;
  const bool ok = names::resolve_action_json(text, names::Context{}, &out, &error);
  if (!ok) {
    if (error.empty()) fail("a refusal without a sentence", std::string(text));
    if (error.find("nests deeper") != std::string::npos && raw_depth(text) <= names::kMaxJsonDepth)
      fail("refused for a depth it does not have", std::string(text));
    return 0;
  }
  if (!error.empty()) fail("accepted with an error sentence", error);
  std::string again, error2;
  if (!names::resolve_action_json(out, names::Context{}, &again, &error2)) fail("its own output refused", error2);
  if (again != out) fail("its own output changed by a second pass", out);
  Action a;
  GameSetup setup;
  std::string perror;
  if (!codec::parse_action_json(out, &a, &setup, &perror) && perror.empty()) fail("the parser refused without a sentence", out);
  return 0;
}
