// The HTML replay in headless Chromium (Debian's /usr/bin/chromium). This file
// is compiled into mentat_tests only where chromium is installed
// (tests/CMakeLists.txt; `scripts/install-deps.sh --test` installs it): no
// network (the page loads nothing, and the browser may resolve no host),
// screenshots at a few versions at 1024x768, #v=N opening a version, an
// out-of-range #v saying so, and the observer's replay by default.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace fs = std::filesystem;

namespace {

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return out;
  std::array<char, 65536> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  pclose(p);
  return out;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

TEST_CASE("the HTML replay steps through the game in headless Chromium", "[tools][browser]") {
  const std::string browser = MENTAT_CHROMIUM;
  const fs::path dir = fs::temp_directory_path() / ("mentat-html-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const std::string data = "--data " + (dir / "data").string();
  const std::string bin = MENTAT_BINARY;
  REQUIRE(run(bin + " " + data + " new --factions atreides,harkonnen --seed 12 --room h1 2>&1").find("h1") != std::string::npos);
  run(bin + " " + data + " play h1 --seed 3 --max-events 60");
  const fs::path html = dir / "replay.html";
  run(bin + " " + data + " replay h1 --html " + html.string() + " 2>/dev/null");
  REQUIRE(fs::exists(html));
  const std::string page = slurp(html);
  // Nothing to fetch: no external resources of any kind.
  for (const char* net : {"src=", "href=", "url(", "@import", "fetch(", "XMLHttpRequest", "http://", "https://"})
    if (std::string(net).find("http") == 0) {
      size_t at = 0;
      while ((at = page.find(net, at)) != std::string::npos) {
        CHECK(page.compare(at, 26, "http://www.w3.org/2000/svg") == 0);  // the SVG namespace is a name, not a request
        at += 1;
      }
    } else {
      CHECK(page.find(net) == std::string::npos);
    }
  // The observer's replay by default: no seed, no secret choices.
  CHECK(page.find("seed 12") == std::string::npos);
  CHECK(page.find("keeps traitor") == std::string::npos);

  const std::string flags = " --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking"
                            " --disable-component-update --disable-sync --host-resolver-rules='MAP * ~NOTFOUND'"
                            " --window-size=1024,768 --user-data-dir=" + (dir / "profile").string() + " --virtual-time-budget=3000 ";
  // Opening at #v=17 shows version 17 (slider, caption, log, "what changed").
  const std::string dom = run(browser + flags + "--dump-dom 'file://" + html.string() + "#v=17' 2>/dev/null");
  CHECK_THAT(dom, Catch::Contains("data-version=\"17\""));
  CHECK_THAT(dom, Catch::Contains("version 17 / "));
  CHECK_THAT(dom, Catch::Contains("id=\"storm\""));
  CHECK_THAT(dom, Catch::Contains("class=\"cur\""));
  CHECK_THAT(dom, Catch::Contains("what changed:"));
  const std::string first = run(browser + flags + "--dump-dom 'file://" + html.string() + "' 2>/dev/null");
  CHECK_THAT(first, Catch::Contains("data-version=\"0\""));
  const std::string bad = run(browser + flags + "--dump-dom 'file://" + html.string() + "#v=9999' 2>/dev/null");
  CHECK_THAT(bad, Catch::Contains("no version 9999 in this replay"));
  // Screenshots at 1024x768 at a few versions (left in the temp folder when MENTAT_KEEP_SCREENSHOTS is set).
  for (int v : {0, 17, 40}) {
    const fs::path png = dir / ("v" + std::to_string(v) + ".png");
    run("cd '" + dir.string() + "' && " + browser + flags + "--screenshot=" + png.string() + " 'file://" + html.string() + "#v=" +
        std::to_string(v) + "' >/dev/null 2>&1");
    REQUIRE(fs::exists(png));
    const std::string bytes = slurp(png);
    REQUIRE(bytes.size() > 24);
    CHECK(bytes.compare(1, 3, "PNG") == 0);
    // The PNG header's width and height (big-endian at 16 and 20).
    auto be32 = [&](size_t at) {
      return (uint32_t(uint8_t(bytes[at])) << 24) | (uint32_t(uint8_t(bytes[at + 1])) << 16) | (uint32_t(uint8_t(bytes[at + 2])) << 8) |
             uint32_t(uint8_t(bytes[at + 3]));
    };
    CHECK(be32(16) == 1024);
    CHECK(be32(20) == 768);
  }
  if (!std::getenv("MENTAT_KEEP_SCREENSHOTS")) fs::remove_all(dir);
}
