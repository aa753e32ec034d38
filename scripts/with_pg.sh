#!/usr/bin/env bash
# Usage: scripts/with_pg.sh <command…>
# Starts a throwaway PostgreSQL cluster on a loopback port, exports DATABASE_URL, runs the
# command, and always tears the cluster down. The exit code of the command passes through.
set -euo pipefail
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
if [ -z "$PGBIN" ]; then echo "PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 1; fi
PGPORT=${PGPORT:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
PGTMP=$(mktemp -d /tmp/ctc-pg.XXXXXX)
AS=()
if [ "$(id -u)" = 0 ]; then chown postgres: "$PGTMP"; AS=(runuser -u postgres --); fi
cleanup() {
  "${AS[@]}" "$PGBIN/pg_ctl" -D "$PGTMP/data" -m immediate -w stop >/dev/null 2>&1 || true
  rm -rf "$PGTMP"
}
trap cleanup EXIT INT TERM
"${AS[@]}" "$PGBIN/initdb" -D "$PGTMP/data" -U app --auth=trust -E UTF8 --locale=C.UTF-8 --no-sync >/dev/null
# Tests run without durability (nothing to keep); PG_DURABLE=1 (make load) keeps PostgreSQL's
# own durable defaults — fsync, synchronous_commit and full_page_writes on — as production runs.
DURABILITY="-F -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
if [ "${PG_DURABLE:-}" = 1 ]; then DURABILITY="-c fsync=on -c synchronous_commit=on -c full_page_writes=on"; fi
"${AS[@]}" "$PGBIN/pg_ctl" -D "$PGTMP/data" -l "$PGTMP/log" -w -t 30 start \
  -o "-h 127.0.0.1 -p $PGPORT -k $PGTMP $DURABILITY" >/dev/null
"${AS[@]}" "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U app appdb
export DATABASE_URL="postgresql+psycopg://app@127.0.0.1:$PGPORT/appdb"
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PGPORT ($([ "${PG_DURABLE:-}" = 1 ] && echo "durable: fsync and synchronous_commit on" || echo "test settings: fsync off"))"
"$@"
