#!/usr/bin/env bash
# Makes the upgrade test's fixture of one version of Aviary: its store, on SQLite and on PostgreSQL, as
# that version's own code made it, with data in every table (packages/server/test/store/upgrade.test.ts).
#
#   packages/server/scripts/upgrade-fixture/make.sh <git ref> [<fixture name>]
#
# Run it from the repository root for every release (the name is then the version, e.g. 0.11.0), after
# recording the release's migrations (docs/testing.md, "Releasing"). It needs git, sqlite3, pg_dump and a
# PostgreSQL server that lets it create a database (PGHOST, PGUSER as for psql; default 127.0.0.1 and
# postgres). It writes packages/server/test/store/fixtures/<name>/:
#   aviary.sqlite    the SQLite store (its -wal folded in)
#   sqlite.json      what the test needs to know about it: the demo logins and tokens, a session, madeAt
#   postgres.sql     a plain pg_dump (inserts, no owner) of the PostgreSQL store
#   postgres.json    the same as sqlite.json for that store
set -euo pipefail
ref=${1:?usage: make.sh <git ref> [<fixture name>]}
name=${2:-$(git rev-parse --short "$ref")}
root=$(git rev-parse --show-toplevel)
out="$root/packages/server/test/store/fixtures/$name"
export PGHOST=${PGHOST:-127.0.0.1} PGUSER=${PGUSER:-postgres}
work=$(mktemp -d)
database="aviary_fixture_$(date +%s)_$$"
cleanup() {
  psql -q -d postgres -c "drop database if exists $database with (force)" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

# The version's sources, with this checkout's installed packages (hard links: nothing is copied).
git -C "$root" archive "$ref" | tar -x -C "$work"
cp -al "$root/node_modules" "$work/node_modules"
for package in "$root"/packages/*; do
  [ -d "$package/node_modules" ] && [ -d "$work/packages/$(basename "$package")" ] &&
    cp -al "$package/node_modules" "$work/packages/$(basename "$package")/node_modules"
done
mkdir -p "$work/packages/server/scripts/upgrade-fixture"
cp "$root/packages/server/scripts/upgrade-fixture/fill.ts" "$work/packages/server/scripts/upgrade-fixture/fill.ts"

# seed <data dir> [<database url>]: the version's demo seed, then fill.ts; prints fill.ts's JSON.
seed() {
  local store=(--data "$1")
  [ $# -gt 1 ] && store+=(--database-url "$2")
  (cd "$work" && node packages/server/bin/aviary.js seed --demo "${store[@]}" --json |
    npx tsx packages/server/scripts/upgrade-fixture/fill.ts "$@")
}

mkdir -p "$out"
seed "$work/sqlite" >"$out/sqlite.json"
sqlite3 "$work/sqlite/aviary.sqlite" 'pragma wal_checkpoint(truncate); vacuum;' >/dev/null
cp "$work/sqlite/aviary.sqlite" "$out/aviary.sqlite"

psql -q -d postgres -c "create database $database"
seed "$work/postgres" "postgres://$PGUSER@$PGHOST/$database" >"$out/postgres.json"
# Without psql's meta-commands (\restrict): the test loads the dump as plain SQL.
pg_dump --no-owner --no-privileges --inserts "$database" | sed '/^\\/d' >"$out/postgres.sql"

echo "wrote $out"
ls -l "$out"
