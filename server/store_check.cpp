// The record check shared by `mentat recover` and `mentat verify --checksums`,
// and `mentat backup`.
#include <cstdio>
#include <string>
#include <vector>

#include "server/server.h"

namespace mentat::server {

int print_integrity(store::EventStore& st) {
  std::vector<std::string> problems;
  std::string error;
  if (!st.check_integrity(&problems, &error)) {
    std::printf("store %s: the record check could not run: %s\n", st.dir().c_str(), error.c_str());
    return 1;
  }
  for (const auto& p : problems) std::printf("%s\n", p.c_str());
  if (problems.empty())
    std::printf("store %s: every record of every kind read and checked (checksums, links to rooms, client action ids)\n",
                st.dir().c_str());
  else
    std::printf("store %s: %zu damaged or inconsistent record(s)\n", st.dir().c_str(), problems.size());
  return static_cast<int>(problems.size());
}

int run_backup(store::EventStore& st, const std::string& dest) {
  std::string error;
  int64_t records = 0;
  if (!st.copy_to(dest, &records, &error)) {
    std::fprintf(stderr, "mentat: %s\n", error.c_str());
    return 3;
  }
  store::Options o;
  o.read_only = true;
  o.create_if_missing = false;
  auto copy = store::EventStore::open(dest, o, &error);
  if (!copy) {
    std::fprintf(stderr, "mentat: the backup does not open: %s\n", error.c_str());
    return 1;
  }
  const auto rooms = copy->rooms(&error);
  std::printf("backup of %s written to %s: %lld records, %zu room(s)\n", st.dir().c_str(), dest.c_str(),
              static_cast<long long>(records), rooms.size());
  return print_integrity(*copy) ? 1 : 0;
}

}  // namespace mentat::server
