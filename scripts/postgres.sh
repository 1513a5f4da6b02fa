#!/usr/bin/env bash
# Starts a throwaway PostgreSQL cluster for the tests and prints the
# SONI_TEST_POSTGRES URL on stdout; "scripts/postgres.sh stop DIR" stops
# it. The cluster lives in a fresh temporary directory, listens only on a
# unix socket there, with fsync off: for tests, never for data.
# initdb refuses to run as root, so it runs as the postgres user then.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ]; then
  PGBIN=$(dirname "$(command -v initdb)")
fi
as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}
if [ "${1:-}" = stop ]; then
  as_pg "$PGBIN/pg_ctl" -D "$2/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$2"
  exit 0
fi
D=$(mktemp -d)
if [ "$(id -u)" = 0 ]; then chown postgres "$D"; fi
chmod 700 "$D"
as_pg "$PGBIN/initdb" -D "$D/data" -U soni --auth=trust -E UTF8 --no-sync >"$D/initdb.log" 2>&1
as_pg "$PGBIN/pg_ctl" -D "$D/data" -l "$D/log" -w -t 30 \
  -o "-c listen_addresses='' -k $D -c fsync=off -c max_connections=200" start >/dev/null
echo "postgres:///postgres?host=$D&user=soni&sslmode=disable"
