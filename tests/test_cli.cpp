// The mentat CLI end to end, in a temporary store.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "support/run_command.h"

namespace fs = std::filesystem;

namespace {

using testrun::Run;
Run run(const std::string& args) { return testrun::run_mentat(args); }

}  // namespace

TEST_CASE("CLI: new, act, log, show, actions, verify", "[cli]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();

  auto r = run(data + " new --factions atreides,harkonnen,bene_gesserit --seed 4 --room cli1");
  REQUIRE(r.code == 0);
  CHECK(r.out == "cli1\n");

  r = run(data + " new --factions atreides,atreides --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("appears twice"));

  r = run(data + " actions cli1 --seat bene_gesserit");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("Predict"));

  // Illegal: the Bene Gesserit cannot predict themselves. Nothing is stored.
  r = run(data + R"( act cli1 --seat bene_gesserit --expect 0 '{"action_type":"Predict","action":{"faction":"BeneGesserit","turn":3}}')");
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("rejected"));
  // Malformed JSON.
  r = run(data + R"( act cli1 --seat 2 --expect 0 '{"action_type":"Predict","action":{"turn":"soon"}}')");
  CHECK(r.code == 2);
  // Legal.
  r = run(data + R"( act cli1 --seat bene_gesserit --expect 0 '{"action_type":"Predict","action":{"faction":"Harkonnen","turn":3}}')");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("v1"));
  // Stale expected version.
  r = run(data + R"( act cli1 --seat bene_gesserit --expect 0 '{"action_type":"Predict","action":{"faction":"Atreides","turn":2}}')");
  CHECK(r.code == 1);
  CHECK_THAT(r.out, Catch::Contains("conflict"));

  r = run(data + " log cli1");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("v0"));
  CHECK_THAT(r.out, Catch::Contains("makes the prediction"));
  CHECK_THAT(r.out, !Catch::Contains("Harkonnen on turn 3"));  // secret without --hidden
  CHECK_THAT(r.out, !Catch::Contains("seed 4"));               // the seed decides every draw
  r = run(data + " log cli1 --hidden");
  CHECK_THAT(r.out, Catch::Contains("seed 4"));
  CHECK_THAT(r.out, Catch::Contains("Harkonnen on turn 3"));

  r = run(data + " log cli1 --json");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"action_type\": \"Predict\""));

  r = run(data + " show cli1 --as atreides");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"viewer\": \"atreides\""));
  CHECK_THAT(r.out, !Catch::Contains("\"prediction_turn\": 3"));
  r = run(data + " show cli1 --as bene_gesserit");
  CHECK_THAT(r.out, Catch::Contains("\"prediction_turn\": 3"));
  r = run(data + " show cli1 --at 0");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"version\": 0"));

  r = run(data + " play cli1 --seed 2 --max-events 200");
  REQUIRE(r.code == 0);
  r = run(data + " verify cli1");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("0 failed"));
  r = run(data + " verify --all");
  CHECK(r.code == 0);
  r = run(data + " verify nosuchroom");
  CHECK(r.code == 1);
  r = run(data + " rooms");
  CHECK_THAT(r.out, Catch::Contains("cli1"));
  fs::remove_all(dir);
}

TEST_CASE("CLI: new refuses factions and modules whose rules are not implemented, and records modules", "[cli][modules]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-modules-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();

  auto r = run(data + " new --factions atreides,choam --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("choam (CHOAM) is not implemented"));
  CHECK_THAT(r.out, Catch::Contains("playable factions: atreides, bene_gesserit, emperor, fremen, harkonnen, spacing_guild"));

  r = run(data + " new --factions atreides,fremen --modules choam_richese,leader_skills,stronghold_cards --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("module choam_richese (CHOAM & Richese) is not implemented"));

  r = run(data + " new --factions atreides,fremen --modules spice_harvest --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("unknown module 'spice_harvest'"));

  // A base game records no module and the state format it was created under.
  r = run(data + " new --factions atreides,fremen --seed 4 --room m1");
  REQUIRE(r.code == 0);
  r = run(data + " log m1 --json --to 0");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"state_format\": 3"));
  CHECK_THAT(r.out, !Catch::Contains("\"modules\""));
  fs::remove_all(dir);
}
