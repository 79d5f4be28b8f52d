// The JSON printers (events/codec.cpp) load their parsers from the binary
// schemas compiled into the program (events/schema_binary.h, made by flatc
// --schema at build time); they must print exactly what parsers of the
// schema text print, for every kind of event and every viewer's view.
#include <catch2/catch.hpp>
#include <flatbuffers/idl.h>

#include <memory>
#include <string>

#include "bots/selfplay.h"
#include "core/engine.h"
#include "events/codec.h"
#include "events/json_text.h"
#include "events/schema_text.h"
#include "inspect/view.h"

using namespace mentat;

namespace {

// A parser of the schema text, set up as the printers' own.
std::unique_ptr<flatbuffers::Parser> text_parser(const char* schema, const char* root) {
  flatbuffers::IDLOptions opts;
  opts.strict_json = true;
  opts.indent_step = -1;
  opts.output_default_scalars_in_json = true;
  auto p = std::make_unique<flatbuffers::Parser>(opts);
  REQUIRE(p->Parse(schema));
  REQUIRE(p->SetRootType(root));
  return p;
}

std::string text_json(flatbuffers::Parser& p, const std::string& bytes) {
  std::string out;
  REQUIRE(codec::print_json(p, bytes.data(), &out));
  return out;
}

}  // namespace

TEST_CASE("json: printers loaded from the binary schemas print what the schema text's parsers print", "[json]") {
  auto events = text_parser(codec::schema::kEventSchema, "Event");
  auto views = text_parser(codec::schema::kViewSchema, "View");
  int compared_events = 0, compared_views = 0;
  // Every module's tables appear: CHOAM, Richese, skills, stronghold cards.
  bots::GameSpec spec;
  spec.setup.seed = 5;
  spec.setup.advanced = true;
  spec.setup.factions = {Faction::Richese, Faction::Choam, Faction::BeneGesserit, Faction::Atreides, Faction::Fremen,
                         Faction::Harkonnen};
  spec.setup.modules = data::module_bit(data::Module::ChoamRichese) | data::module_bit(data::Module::LeaderSkills) |
                       data::module_bit(data::Module::StrongholdCards);
  spec.bot_seed = 9;
  for (int k = 0; k < 6; ++k) spec.profiles.push_back(static_cast<bots::Profile>(k % bots::kNumProfiles));
  const auto same_event_json = [&](const codec::Event& e) {
    const std::string bytes = codec::encode_event(e);
    std::string json, error;
    REQUIRE(codec::event_to_json(bytes, &json, &error));
    CHECK(json == text_json(*events, bytes));
    ++compared_events;
  };
  codec::Event create;
  create.action = action::CreateGame{};
  create.setup = spec.setup;
  create.state_hash = codec::state_hash(create_game(spec.setup, &create.draws));
  same_event_json(create);
  const auto r = bots::play_in_memory(spec, [&](const GameState& s, const bots::Step& step) {
    codec::Event e;
    e.version = s.version;
    e.seat = step.seat;
    e.action = step.action;
    e.state_hash = codec::state_hash(s);
    same_event_json(e);
    if (s.version % 7 != 0) return;
    std::string error;
    for (int w = -2; w < s.num_seats; ++w) {
      const inspect::Viewer who = w == -2 ? inspect::Viewer::state() : w == -1 ? inspect::Viewer::observer() : inspect::Viewer::of(static_cast<Seat>(w));
      const std::string view = inspect::build_view(s, who);
      std::string vjson;
      REQUIRE(codec::view_to_json(view, &vjson, &error));
      CHECK(vjson == text_json(*views, view));
      ++compared_views;
    }
  });
  REQUIRE(r.ok);
  CHECK(compared_events > 300);
  CHECK(compared_views > 300);
}
