// The mentat CLI end to end, in a temporary store.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

#include "support/mini_json.h"
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
  r = run(data + " verify nosuchroom");  // an input error (docs/CLI.md), with the nearest room
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("no room nosuchroom"));
  r = run(data + " rooms");
  CHECK_THAT(r.out, Catch::Contains("cli1"));
  fs::remove_all(dir);
}

TEST_CASE("CLI: new refuses factions and modules whose rules are not implemented, and records modules", "[cli][modules]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-modules-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();

  auto r = run(data + " new --factions atreides,ixians --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("ixians (Ixians) is not implemented"));
  CHECK_THAT(r.out, Catch::Contains("playable factions: atreides, bene_gesserit, emperor, fremen, harkonnen, spacing_guild, choam, richese"));
  r = run(data + " new --factions atreides,choam --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("faction choam needs the module choam_richese (CHOAM & Richese), which this game does not use"));
  // CHOAM sits with its module (issue 15).
  r = run(data + " new --factions atreides,choam --modules choam_richese --seed 4 --room c1");
  CHECK(r.code == 0);

  r = run(data + " new --factions atreides,fremen --modules choam_richese,leader_skills,stronghold_cards,homeworlds --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("module homeworlds (Homeworlds) is not implemented"));
  // Leader Skills sit (issue 16).
  r = run(data + " new --factions atreides,fremen --modules choam_richese,leader_skills,stronghold_cards --seed 4 --room s1");
  CHECK(r.code == 0);

  r = run(data + " new --factions atreides,fremen --modules spice_harvest --seed 4");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("unknown module 'spice_harvest'"));

  // A base game records no module and the state format it was created under.
  r = run(data + " new --factions atreides,fremen --seed 4 --room m1");
  REQUIRE(r.code == 0);
  r = run(data + " log m1 --json --to 0");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("\"state_format\": 4"));
  CHECK_THAT(r.out, !Catch::Contains("\"modules\""));
  fs::remove_all(dir);
}

TEST_CASE("CLI: names in actions, labelled choices, --expect head", "[cli][names]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-names-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();
  REQUIRE(run(data + " new --factions atreides,harkonnen,fremen --seed 7 --room n1").code == 0);

  // The Fremen are asked for a traitor and their placement, labelled.
  auto r = run(data + " actions n1 --seat fremen");
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("traitor (leader): "));
  r = run(data + " actions n1 --seat fremen --json");
  REQUIRE(r.code == 0);
  CHECK(r.out.rfind("{", 0) == 0);
  CHECK_THAT(r.out, Catch::Contains("\"choices\""));
  CHECK_THAT(r.out, Catch::Contains("\"role\": \"traitor\""));

  // The first traitor offered to the Fremen, by name.
  const auto at = r.out.find("\"role\": \"traitor\"");
  const auto nm = r.out.rfind("\"name\": \"", at);
  REQUIRE(nm != std::string::npos);
  const std::string leader = r.out.substr(nm + 9, r.out.find('"', nm + 9) - nm - 9);
  r = run(data + " act n1 --seat fremen --expect head '{\"action_type\":\"SelectTraitor\",\"action\":{\"leader\":\"" + leader + "\"}}'");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("v1"));
  // Once every traitor is chosen, the Fremen place their forces.
  r = run(data + R"( act n1 --seat atreides --expect head '{"action_type":"SelectTraitor","action":{"leader":"jamis"}}')");
  CHECK(r.code == 0);
  r = run(data + " actions n1 --seat fremen");
  CHECK_THAT(r.out, Catch::Contains("location (placements[].location): 65 Sietch Tabr"));

  // Unknown and ambiguous names: exit 2, a sentence with suggestions, nothing stored.
  r = run(data + R"( act n1 --seat fremen --expect head '{"action_type":"PlaceForces","action":{"placements":[{"location":"Sietch Tabor","forces":10}]}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'Sietch Tabr'"));
  r = run(data + R"( act n1 --seat fremen --expect head '{"action_type":"PlaceForces","action":{"placements":[{"location":"False Wall South","forces":10}]}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("pieces"));
  r = run(data + R"( act n1 --seat fremen --expect 1 '{"action_type":"Mve","action":{}}')");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'Move'"));
  r = run(data + " act n1 --seat fremn --expect head '{\"action_type\":\"Pass\",\"action\":{}}'");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'fremen'"));
  r = run(data + " act n1 --seat fremen --expect soon '{\"action_type\":\"Pass\",\"action\":{}}'");
  CHECK(r.code == 2);
  r = run(data + " log n1");
  CHECK_THAT(r.out, Catch::Contains("v2"));
  CHECK_THAT(r.out, !Catch::Contains("v3"));
  fs::remove_all(dir);
}

TEST_CASE("CLI: the contract (exit codes, --version, did you mean, no store created by readers)", "[cli]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-contract-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();
  auto r = run("--version");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("mentat engine"));
  r = run(data + " neww --seed 1");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'new'"));
  r = run(data + " new --no-such-option");
  CHECK(r.code == 2);
  // A read command on a path with no store says so and creates nothing.
  r = run(data + " verify --all");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("no store at"));
  CHECK_FALSE(fs::exists(dir));
  // Options after the subcommand; a random seed when none is given.
  r = run("new --factions atreides,harkonnen --room c1 " + data);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("seed "));
  r = run("rooms --json " + data);
  CHECK(r.code == 0);
  CHECK(r.out == "[{\"room\":\"c1\",\"head\":0}]\n");
  r = run(data + " new --factions atreides,harkonnen --seed 1 --ruling storm_on_markr=that_player");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'storm_on_marker'"));
  r = run(data + " verify c2");
  CHECK(r.code == 2);
  CHECK_THAT(r.out, Catch::Contains("did you mean 'c1'"));
  r = run(data + " verify c1 --json");
  CHECK(r.code == 0);
  CHECK_THAT(r.out, Catch::Contains("{\"rooms\":[{\"room\":\"c1\",\"events\":1,\"ok\":true}],\"verified\":1,\"failed\":0}\n"));
  // An unknown room is an input error (exit 2) for every command that takes
  // one, named with a did you mean; nothing is created.
  for (const std::string cmd : {"log c2", "show c2", "actions c2 --seat atreides", "replay c2", "render c2 --svg -",
                                "fork c2 --at 0 --name f", "rerun c2 --ruling storm_on_marker=that_player", "diff c2 c1",
                                "diff c1 c2@0", "bisect c2 --invariant any", "play c2 --max-events 1",
                                "act c2 --seat atreides --expect 0 '{\"action_type\":\"Pass\",\"action\":{}}'"}) {
    INFO(cmd);
    r = run(data + " " + cmd);
    CHECK(r.code == 2);
    CHECK_THAT(r.out, Catch::Contains("no room c2, did you mean 'c1'"));
  }
  r = run(data + " rooms --json");
  CHECK(r.out == "[{\"room\":\"c1\",\"head\":0}]\n");
  fs::remove_all(dir);
}

TEST_CASE("CLI: a bribe's choices name the factions", "[cli][names]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-bribe-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();
  REQUIRE(run(data + " new --factions atreides,harkonnen,fremen --seed 7 --room b").code == 0);
  // Past the setup, the seat asked (with spice) may bribe any other faction:
  // its choices are labelled by faction, never bare numbers.
  int seen = 0;
  for (int round = 0; round < 12 && seen == 0; ++round) {
    REQUIRE(run(data + " play b --seed 1 --max-events 10").code == 0);
    for (const char* seat : {"atreides", "harkonnen", "fremen"}) {
      const auto r = run(data + " actions b --seat " + seat);
      const auto at = r.out.find("Bribe: ");
      if (at == std::string::npos) continue;
      const std::string lines = r.out.substr(at);
      const std::string choices = lines.substr(lines.find('\n') + 1, lines.find('\n', lines.find('\n') + 1) - lines.find('\n') - 1);
      INFO(r.out);
      CHECK_THAT(choices, Catch::StartsWith("  faction (to): "));
      CHECK_THAT(choices, Catch::Matches(".*[0-9] (Atreides|Harkonnen|Fremen).*"));
      ++seen;
    }
  }
  CHECK(seen > 0);
  fs::remove_all(dir);
}

TEST_CASE("CLI: the log names each battle's winner and the game's end", "[cli]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-battles-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();
  // The game of docs/CLI.md's worked example: it ends at version 189, the Fremen win.
  REQUIRE(run(data + " new --factions atreides,harkonnen,fremen --seed 7 --room g").code == 0);
  REQUIRE(run(data + " play g --seed 1 --max-events 400").code == 0);
  auto r = run(data + " log g");
  REQUIRE(r.code == 0);
  auto count = [&](const std::string& needle) {
    int n = 0;
    for (size_t at = r.out.find(needle); at != std::string::npos; at = r.out.find(needle, at + 1)) ++n;
    return n;
  };
  // One outcome line per battle fought: each battle has two plans.
  const int plans = count("submits a battle plan"), battles = count("battle in ");
  INFO(plans << " plans, " << battles << " battle lines");
  REQUIRE(plans > 0);
  CHECK(battles * 2 == plans);
  CHECK(count(" wins against ") + count("nobody wins") == battles);
  {  // the first battle's line, whole: "battle in T: W wins against L (7 to 5)" or "(traitor)"
    const auto at = r.out.find("battle in ");
    REQUIRE(at != std::string::npos);
    std::string line = r.out.substr(at, r.out.find_first_of(";\n", at) - at);
    CHECK_THAT(line, Catch::Matches(R"(battle in [A-Z][^:]*: ((Atreides|Harkonnen|Fremen) wins against (Atreides|Harkonnen|Fremen) \((\d+(\.5)? to \d+(\.5)?|traitor)\)|.*nobody wins))"));
  }
  // The end: the winners and the victory kind, once.
  CHECK(count("game over: ") == 1);
  CHECK_THAT(r.out, Catch::Contains("game over: Fremen wins (Fremen default victory)"));
  // The HTML replay's "what changed" and `replay` carry the same lines.
  r = run(data + " replay g --json");
  CHECK_THAT(r.out, Catch::Contains("battle in "));
  CHECK_THAT(r.out, Catch::Contains("game over: Fremen wins"));
  fs::remove_all(dir);
}

TEST_CASE("CLI: --json on selfplay, tournament and recover is valid JSON alone on stdout", "[cli][json]") {
  const fs::path dir = fs::temp_directory_path() / ("mentat-cli-json-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::string data = "--data " + dir.string();
  auto stdout_of = [](const std::string& args) {  // stderr (progress) dropped
    return testrun::run_shell("(" + std::string(MENTAT_BINARY) + " " + args + " 2>/dev/null)");
  };
  auto r = stdout_of(data + " selfplay --games 2 --factions atreides,harkonnen --turns 2 --seed 5 --no-sync --json");
  REQUIRE(r.code == 0);
  {
    const auto j = mini_json::parse(r.out);
    CHECK(j["games"].num() == 2);
    CHECK(j["complete"].num() == 2);
    CHECK(j["failed"].num() == 0);
    REQUIRE(j["results"].size() == 2);
    CHECK(j["results"][0]["room"].str() == "sp-5-0");
    CHECK(j["results"][0]["ok"].as_bool());
    CHECK(j["results"][0]["winners"].size() >= 1);
    CHECK(j["results"][0]["seats"].size() == 2);
    CHECK(j["winners_by_profile"].is_object());
  }
  r = stdout_of(data + " tournament --games 1 --seed 3 --turns 1 --no-sync --json");
  REQUIRE(r.code == 0);
  {
    const auto j = mini_json::parse(r.out);
    CHECK(j["games"].num() == 1);
    REQUIRE(j["profiles"].size() == 4);
    CHECK(j["profiles"][0]["profile"].str() == "brutal");
    CHECK(j["profiles"][0]["wilson95"].size() == 2);
    CHECK(j["results"][0]["room"].str() == "tour-3-0");
  }
  r = stdout_of("recover " + dir.string() + " --json");
  REQUIRE(r.code == 0);
  {
    const auto j = mini_json::parse(r.out);
    CHECK(j["failed"].num() == 0);
    CHECK(j["lost"].size() == 0);
    CHECK(j["record_problems"].size() == 0);
    REQUIRE(j["rooms"].size() == 3);
    CHECK(j["rooms"][0]["ok"].as_bool());
    CHECK(j["rooms"][0]["events"].num() > 10);
  }
  fs::remove_all(dir);
}

#ifdef MENTAT_WITH_POSTGRES
TEST_CASE("CLI: the PostgreSQL backend is a module, loaded only for a postgresql:// location", "[cli][pg]") {
  // The binary does not link libpq or libpqxx (store/event_store.h,
  // set_postgres_opener): a command on a RocksDB store never loads them.
  auto l = testrun::run_shell(std::string("ldd ") + MENTAT_BINARY);
  REQUIRE(l.code == 0);
  CHECK(l.out.find("libstdc++") != std::string::npos);  // ldd listed the libraries
  CHECK(l.out.find("libpq.so") == std::string::npos);
  CHECK(l.out.find("libpqxx") == std::string::npos);
  // A postgresql:// location loads mentat_pg.so: what fails is the connection
  // (nothing listens on port 1), not the module.
  auto r = run("--data postgresql://127.0.0.1:1/none rooms");
  CHECK(r.code != 0);
  CHECK_THAT(r.out, Catch::Contains("cannot connect to the store at postgresql://127.0.0.1:1/none"));
  CHECK_THAT(r.out, !Catch::Contains("mentat_pg.so"));
  // MENTAT_PG_MODULE naming something that is not the module: the next place
  // is tried (the binary's directory), so the open still reaches the server.
  r = testrun::run_shell("MENTAT_PG_MODULE=/nonexistent/mentat_pg.so " + std::string(MENTAT_BINARY) +
                         " --data postgresql://127.0.0.1:1/none rooms");
  CHECK_THAT(r.out, Catch::Contains("cannot connect to the store"));
}
#endif
