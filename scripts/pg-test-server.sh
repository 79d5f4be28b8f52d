#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests (ctest's "pg:" fixture; see
# tests/CMakeLists.txt):
#   scripts/pg-test-server.sh start STATE   initdb into a new temporary directory,
#                                           start a server listening only on a unix
#                                           socket in it (no TCP), write its base URL
#                                           (postgresql://mentat@/postgres?host=DIR) to STATE
#   scripts/pg-test-server.sh stop STATE    stop that server (immediate) and remove
#                                           its directory and STATE; nothing to do
#                                           when STATE is absent
# initdb and postgres refuse to run as root: as root the server runs as the
# `postgres` system user (Debian's postgresql package creates it). Its
# superuser is `mentat`, trusted on the socket; the data lives in /tmp and
# goes with the server. fsync is off: the server dies with the tests, and a
# process kill (all the crash tests do) loses nothing the OS has.
set -euo pipefail
cmd=${1:?start or stop}
state=${2:?state file}

bindir=""
for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
  if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then bindir=$d; break; fi
done

as_server=()
if [ "$(id -u)" -eq 0 ]; then as_server=(runuser -u postgres --); fi

stop() {
  [ -f "$state" ] || return 0
  local dir
  dir=$(sed -n 's/.*host=\([^&]*\).*/\1/p' "$state")
  if [ -n "$dir" ] && [ -d "$dir/data" ]; then
    "${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
  fi
  case "$dir" in /tmp/mentat-pg.*) rm -rf "$dir" ;; esac
  rm -f "$state"
}

case "$cmd" in
  start)
    if [ -z "$bindir" ]; then
      echo "no PostgreSQL server binaries under /usr/lib/postgresql (scripts/install-deps.sh --test installs them)" >&2
      exit 1
    fi
    stop  # a server a killed run left behind
    dir=$(mktemp -d /tmp/mentat-pg.XXXXXX)
    chmod 755 "$dir"
    if [ ${#as_server[@]} -gt 0 ]; then
      if ! id postgres >/dev/null 2>&1; then
        echo "running as root, and there is no postgres user to run the server as (Debian's postgresql package creates it)" >&2
        rm -rf "$dir"
        exit 1
      fi
      chown postgres: "$dir"
    fi
    if ! "${as_server[@]}" "$bindir/initdb" -D "$dir/data" -U mentat --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1; then
      cat "$dir/initdb.log" >&2
      rm -rf "$dir"
      exit 1
    fi
    if ! "${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
         -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=off -c max_connections=200" start >/dev/null; then
      cat "$dir/server.log" >&2 || true
      rm -rf "$dir"
      exit 1
    fi
    echo "postgresql://mentat@/postgres?host=$dir" >"$state"
    echo "PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') for the tests at $dir (socket only)"
    ;;
  stop)
    stop
    ;;
  *)
    echo "usage: $0 start|stop STATE" >&2
    exit 2
    ;;
esac
