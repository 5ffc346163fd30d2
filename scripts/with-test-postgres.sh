#!/usr/bin/env bash
# Run a command against a throwaway PostgreSQL 15 + pgvector cluster.
#
#   bash scripts/with-test-postgres.sh <command> [args...]
#   bash scripts/with-test-postgres.sh npm test
#   bash scripts/with-test-postgres.sh bash -c 'psql "$TEST_DATABASE_URL" -c "select 1"'
#
# What it does:
#   * initdb into a fresh mktemp dir (as the `postgres` user when run as root),
#   * listens on 127.0.0.1 only, on a free port chosen by the OS, unix socket in the
#     temp dir, trust auth, fsync/synchronous_commit/full_page_writes off (test speed),
#   * creates database `graft_test` and runs `CREATE EXTENSION vector` in it,
#   * exports TEST_DATABASE_URL=postgres://postgres@127.0.0.1:PORT/graft_test (and the
#     matching PGHOST/PGPORT/PGUSER/PGDATABASE, so a bare `psql` connects there too),
#   * runs the command, then ALWAYS stops the cluster and deletes the dir (trap EXIT),
#     exiting with the command's exit code. The command runs in the foreground (it keeps
#     stdin), so a SIGTERM sent to this script alone is acted on once the command ends;
#     SIGKILL skips the cleanup (the temp dir then needs removing by hand).
# If pgvector is not installed it runs scripts/install-pgvector.sh first (needs root).
#
# Environment knobs (all optional):
#   PG_MAJOR=15                  PostgreSQL major version (binaries in /usr/lib/postgresql/$PG_MAJOR/bin)
#   GRAFT_TEST_PG_TMPDIR=/tmp    parent dir for the throwaway cluster
#   GRAFT_TEST_PG_KEEP_LOG=path  copy the server log there before deleting the cluster
set -euo pipefail

if (($# == 0)); then
  echo "usage: $0 <command> [args...]" >&2
  exit 2
fi

PG_MAJOR="${PG_MAJOR:-15}"
PG_BINDIR="/usr/lib/postgresql/${PG_MAJOR}/bin"
DB_NAME=graft_test
DB_SUPERUSER=postgres
script_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

log() { printf '[with-test-postgres] %s\n' "$*" >&2; }
die() { printf '[with-test-postgres] ERROR: %s\n' "$*" >&2; exit 1; }

# --- pgvector present? ------------------------------------------------------------------
ext_dir="/usr/share/postgresql/${PG_MAJOR}/extension"
[[ -x "$PG_BINDIR/pg_config" ]] && ext_dir="$("$PG_BINDIR/pg_config" --sharedir)/extension"
if [[ ! -x "$PG_BINDIR/initdb" || ! -f "$ext_dir/vector.control" ]]; then
  log "PostgreSQL ${PG_MAJOR} and/or pgvector missing; running install-pgvector.sh"
  [[ "$(id -u)" == 0 ]] || die "pgvector is not installed and installing it needs root: sudo bash $script_dir/install-pgvector.sh"
  bash "$script_dir/install-pgvector.sh"
fi
for b in initdb pg_ctl psql createdb pg_isready; do
  [[ -x "$PG_BINDIR/$b" ]] || die "$PG_BINDIR/$b not found"
done

# --- who runs the server ----------------------------------------------------------------
# PostgreSQL refuses to run as root: when we are root, run it as the `postgres` system user.
if [[ "$(id -u)" == 0 ]]; then
  id postgres >/dev/null 2>&1 || die "running as root but there is no 'postgres' user (is postgresql-${PG_MAJOR} installed?)"
  command -v runuser >/dev/null || die "runuser not found (util-linux)"
  as_pg() { (cd "$pgdir" && runuser -u postgres -- "$@"); }
else
  as_pg() { (cd "$pgdir" && "$@"); }
fi

# --- throwaway dir + cleanup ------------------------------------------------------------
parent="${GRAFT_TEST_PG_TMPDIR:-${TMPDIR:-/tmp}}"
[[ "$(id -u)" == 0 && -z "${GRAFT_TEST_PG_TMPDIR:-}" ]] && parent=/tmp  # must be reachable by `postgres`
pgdir="$(mktemp -d "${parent%/}/graft-pg.XXXXXX")"
datadir="$pgdir/data"
logfile="$pgdir/server.log"
started=""

# Alive = exists and is not a zombie. The postmaster is reparented to PID 1 once pg_ctl
# exits; an init that reaps lazily leaves a short-lived <defunct> entry, which is not a
# running server.
pid_alive() {
  kill -0 "$1" 2>/dev/null || return 1
  local state
  state="$(awk '{print $3}' "/proc/$1/stat" 2>/dev/null || true)"
  [[ "$state" != Z && "$state" != X ]]
}

cleanup() {
  local status=$?
  trap - EXIT INT TERM HUP
  if [[ -n "$started" && -f "$datadir/postmaster.pid" ]]; then
    local pid
    pid="$(head -n1 "$datadir/postmaster.pid" 2>/dev/null || true)"
    as_pg "$PG_BINDIR/pg_ctl" -D "$datadir" -m fast -w -t 30 stop >/dev/null 2>&1 \
      || as_pg "$PG_BINDIR/pg_ctl" -D "$datadir" -m immediate -w -t 30 stop >/dev/null 2>&1 \
      || true
    if [[ -n "$pid" ]] && pid_alive "$pid"; then
      log "postmaster $pid still alive after pg_ctl stop; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
      sleep 0.5
    fi
  fi
  if [[ -n "${GRAFT_TEST_PG_KEEP_LOG:-}" && -f "$logfile" ]]; then
    cp "$logfile" "$GRAFT_TEST_PG_KEEP_LOG" 2>/dev/null || true
  fi
  rm -rf "$pgdir" 2>/dev/null || true
  [[ -n "$started" ]] && log "cluster stopped, $pgdir removed"
  exit "$status"
}
trap cleanup EXIT
# Turn signals into a normal exit so the EXIT trap runs (128+signal, as a shell would).
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

[[ "$(id -u)" == 0 ]] && chown postgres: "$pgdir"
chmod 700 "$pgdir"

# --- pick a free loopback port ----------------------------------------------------------
free_port() {
  if command -v node >/dev/null; then
    node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close();});'
  elif command -v python3 >/dev/null; then
    python3 -c 'import socket;s=socket.socket();s.bind(("127.0.0.1",0));print(s.getsockname()[1]);s.close()'
  else
    die "need node or python3 to pick a free port"
  fi
}

# --- initdb -----------------------------------------------------------------------------
as_pg "$PG_BINDIR/initdb" -D "$datadir" -U "$DB_SUPERUSER" --auth=trust --encoding=UTF8 --locale=C --no-sync \
  >"$pgdir/initdb.log" 2>&1 || { cat "$pgdir/initdb.log" >&2; die "initdb failed"; }

# --- start (retry if another process grabbed the port between probe and bind) -----------
port=""
for attempt in 1 2 3 4 5; do
  port="$(free_port)"
  [[ "$port" =~ ^[0-9]+$ ]] || die "could not pick a free port (got '$port')"
  cat >"$datadir/postgresql.auto.conf" <<EOF
# written by with-test-postgres.sh: throwaway test cluster, durability off on purpose
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$pgdir'
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
logging_collector = off
EOF
  [[ "$(id -u)" == 0 ]] && chown postgres: "$datadir/postgresql.auto.conf"
  started=1
  if as_pg "$PG_BINDIR/pg_ctl" -D "$datadir" -l "$logfile" -w -t 60 start >/dev/null 2>&1; then
    break
  fi
  if grep -qiE 'could not (bind|create listen socket)|address already in use' "$logfile" 2>/dev/null && ((attempt < 5)); then
    log "port $port taken before postgres could bind it; retrying with another port"
    as_pg "$PG_BINDIR/pg_ctl" -D "$datadir" -m immediate -w stop >/dev/null 2>&1 || true
    : >"$logfile"
    continue
  fi
  cat "$logfile" >&2 || true
  die "postgres failed to start (see log above)"
done

export TEST_DATABASE_URL="postgres://${DB_SUPERUSER}@127.0.0.1:${port}/${DB_NAME}"
# libpq defaults too, so plain `psql` (or a connection string left empty because the caller's
# shell expanded "$TEST_DATABASE_URL" before this script set it) reaches the throwaway cluster.
export PGHOST=127.0.0.1 PGPORT="$port" PGUSER="$DB_SUPERUSER" PGDATABASE="$DB_NAME"
unset PGPASSWORD PGSERVICE PGSSLMODE PGHOSTADDR 2>/dev/null || true

# --- database + extension (over TCP, proving the URL works) -----------------------------
"$PG_BINDIR/createdb" -h 127.0.0.1 -p "$port" -U "$DB_SUPERUSER" "$DB_NAME" \
  || { cat "$logfile" >&2; die "createdb $DB_NAME failed"; }
vector_version="$("$PG_BINDIR/psql" "$TEST_DATABASE_URL" -X -q -v ON_ERROR_STOP=1 -At \
  -c 'CREATE EXTENSION IF NOT EXISTS vector' \
  -c "SELECT extversion FROM pg_extension WHERE extname = 'vector'")" \
  || { cat "$logfile" >&2; die "CREATE EXTENSION vector failed"; }

log "PostgreSQL $("$PG_BINDIR/postgres" -V | awk '{print $3}') + pgvector $vector_version on 127.0.0.1:$port (data in $pgdir)"
log "TEST_DATABASE_URL=$TEST_DATABASE_URL"

# --- run the command --------------------------------------------------------------------
set +e
"$@"
rc=$?
set -e
exit "$rc"
