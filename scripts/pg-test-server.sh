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
#   scripts/pg-test-server.sh kill9 STATE   kill -9 its postmaster (the crash test)
#   scripts/pg-test-server.sh restart STATE start it again on its data
# initdb and postgres refuse to run as root: as root the server runs as the
# `postgres` system user (Debian's postgresql package creates it). Its
# superuser is `mentat`, trusted on the socket; the data lives in /tmp and
# goes with the server. fsync is off: the server dies with the tests, and a
# process kill loses nothing the OS has (MENTAT_PG_FSYNC=on for benchmarks:
# docs/PERFORMANCE.md).
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
         -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=${MENTAT_PG_FSYNC:-off} -c max_connections=200" start >/dev/null; then
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
  kill9)
    # kill -9 of the server's postmaster (its backends then exit), for the
    # crash test; `restart` brings it back on the same data.
    dir=$(sed -n 's/.*host=\([^&]*\).*/\1/p' "$state")
    pid=$(head -1 "$dir/data/postmaster.pid")
    kill -9 "$pid"
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
    ;;
  restart)
    dir=$(sed -n 's/.*host=\([^&]*\).*/\1/p' "$state")
    # The killed server's backends may hold its shared memory for a moment.
    for _ in $(seq 1 100); do
      if "${as_server[@]}" "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
           -o "-c listen_addresses='' -c unix_socket_directories='$dir' -c fsync=${MENTAT_PG_FSYNC:-off} -c max_connections=200" start >/dev/null 2>&1; then
        exit 0
      fi
      sleep 0.1
    done
    tail -20 "$dir/server.log" >&2
    exit 1
    ;;
  *)
    echo "usage: $0 start|stop|kill9|restart STATE" >&2
    exit 2
    ;;
esac
