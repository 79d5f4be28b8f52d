// Runs a shell command (or the built mentat binary) for CLI tests and
// returns its exit code and its stdout and stderr together.
#pragma once

#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <string>

namespace testrun {

struct Run {
  int code;
  std::string out;
};

inline Run run_shell(const std::string& cmd_line) {
  const std::string cmd = cmd_line + " 2>&1";
  FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p);
  std::string out;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) out.append(buf.data(), n);
  const int status = pclose(p);
  return {WEXITSTATUS(status), out};
}

// MENTAT_BINARY with `args`.
inline Run run_mentat(const std::string& args) { return run_shell(std::string(MENTAT_BINARY) + " " + args); }

}  // namespace testrun
