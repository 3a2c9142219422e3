#!/bin/sh
# The image's entrypoint (Dockerfile): runs `aviary <command>`, `serve` when none is given (or when the
# first argument is an option: `docker run aviary --seed-demo`). It replaces itself with node (exec), so
# SIGTERM from `docker stop` reaches the server, which drains and exits 0.
# Before serving on SQLite it checks that the data directory can be written: the image runs as the
# unprivileged user `node` (uid 1000), and a volume owned by root would otherwise fail deep in the start.
set -eu

app_dir="${AVIARY_APP_DIR:-/app}"

if [ "$#" -eq 0 ] || [ "${1#-}" != "$1" ]; then
  set -- serve "$@"
fi

if [ "$1" = "serve" ] && [ -z "${DATABASE_URL:-}" ]; then
  data_dir="${AVIARY_DATA_DIR:-/data}"
  if ! mkdir -p "$data_dir" 2>/dev/null || [ ! -w "$data_dir" ]; then
    echo "aviary: AVIARY_DATA_DIR ($data_dir) cannot be written by uid $(id -u): mount a volume that user owns, or set DATABASE_URL to use PostgreSQL." >&2
    exit 1
  fi
fi

exec node "$app_dir/packages/server/bin/aviary.js" "$@"
