// The libFuzzer targets' properties (tests/fuzz/, README there) checked on
// their committed seed corpora in the ordinary gcc build, so that a
// regression input added to tests/fuzz/corpus/ is replayed by every test
// run, not only where clang is installed. Each target's source is compiled
// here with its entry point renamed; a violated property aborts, as under
// libFuzzer.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <string_view>

// Every header the two sources include, first: the renaming macros below
// then touch only the sources' own code.
#include "events/codec.h"
#include "events/names.h"
#include "fuzz/fuzz_states.h"
#include "inspect/custody.h"
#include "server/api.h"
#include "store/event_store.h"
#include "store/room.h"

#define LLVMFuzzerTestOneInput mentat_fuzz_action_one
#define fail fuzz_action_fail
#include "fuzz/fuzz_action.cpp"
#undef fail
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput mentat_fuzz_event_one
#define fail fuzz_event_fail
#include "fuzz/fuzz_event.cpp"
#undef fail
#undef LLVMFuzzerTestOneInput
#define LLVMFuzzerTestOneInput mentat_fuzz_names_one
#define fail fuzz_names_fail
#define raw_depth fuzz_names_raw_depth
#include "fuzz/fuzz_names.cpp"
#undef raw_depth
#undef fail
#undef LLVMFuzzerTestOneInput

namespace {

int run_corpus(const std::string& target, int (*one)(const uint8_t*, size_t)) {
  const std::filesystem::path dir = std::filesystem::path(MENTAT_SOURCE_DIR) / "tests" / "fuzz" / "corpus" / target;
  int files = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(dir)) {
    if (!entry.is_regular_file()) continue;
    std::ifstream f(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    INFO(entry.path());
    CHECK(one(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()) == 0);
    ++files;
  }
  return files;
}

}  // namespace

TEST_CASE("fuzz corpus: action decoding - accepted or rejected, never a partial write", "[fuzz]") {
  CHECK(run_corpus("action", mentat_fuzz_action_one) >= 100);
}

TEST_CASE("fuzz corpus: the names pre-pass - linear, idempotent, a sentence for every refusal", "[fuzz]") {
  CHECK(run_corpus("names", mentat_fuzz_names_one) >= 14);
}

TEST_CASE("fuzz corpus: stored-event decoding and the store reader", "[fuzz]") {
  CHECK(run_corpus("event", mentat_fuzz_event_one) >= 2);
}
