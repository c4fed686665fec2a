#!/usr/bin/env bash
# FerretDB, a MongoDB-wire server over SQLite, for running the MongoDB adapter's tests without MongoDB.
#
#   scripts/ferretdb.sh build       builds FerretDB once (skipped when the binary is there), prints its path
#   scripts/ferretdb.sh start DIR   starts it on 127.0.0.1 with its data and pid in DIR, prints its URL
#   scripts/ferretdb.sh stop DIR    stops the server started in DIR (and drops its PostgreSQL database)
#   scripts/ferretdb.sh id-index DIR  gives every collection of the SQLite server in DIR the index its
#                                   finds by `_id` can use (below); run it once the collections exist
#   scripts/ferretdb.sh files       lists the test files of the MongoDB pass (they read MONGODB_URL)
#   scripts/ferretdb.sh test        the MongoDB pass: starts FerretDB in a temporary directory, runs those
#                                   files with MONGODB_URL pointing at it, stops it; tap's exit status
#
# FERRETDB_HANDLER=postgresql keeps the data in a PostgreSQL database of its own, created at the start
# on the server of FERRETDB_POSTGRESQL_SERVER (postgres://postgres@127.0.0.1:5432 by default) and
# dropped at the stop, instead of SQLite files in DIR: that backend creates the secondary indexes and
# pushes filters down to PostgreSQL, where the SQLite backend reads every document of a sorted query.
#
# FerretDB 1.24's SQLite backend sends a find by one `_id` to SQLite as `_ferretdb_sjson->'$._id' = ?`,
# while the `_id_` index it creates is on `_ferretdb_sjson->"_id"`: SQLite matches an index's expression
# as written, so that index is never used and every find by `_id` reads the whole table (90 to 300 ms
# among 41,000 people). `id-index` adds an index on the expression the query uses (sqlite3, a Debian
# package). FerretDB does not know of it and needs not: SQLite keeps it current, and a dropped
# collection's table takes it along.
#
# The module zip of FerretDB lacks build/version/version.txt, which the binary embeds and checks at start
# (a plain `go install` builds a binary that panics on "Invalid build/version/version.txt file content"),
# so the build writes that file into a copy of the module first.
set -euo pipefail

version=v1.24.2
root="$(cd "$(dirname "$0")/.." && pwd)"
bin="${ADKS_FERRETDB_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/adks/ferretdb-$version}"

go_tool() {
  if command -v go >/dev/null; then echo go
  elif [ -x /usr/local/go/bin/go ]; then echo /usr/local/go/bin/go
  else echo "ferretdb.sh: Go is needed to build FerretDB $version and none was found (PATH or /usr/local/go)" >&2; return 1
  fi
}

build() {
  if [ -x "$bin" ]; then echo "$bin"; return; fi
  local go module work
  go=$(go_tool)
  module=$("$go" mod download -json "github.com/FerretDB/FerretDB@$version" | sed -nE 's/^[[:space:]]*"Dir": "(.*)",?$/\1/p')
  [ -d "$module" ] || { echo "ferretdb.sh: go mod download gave no module directory for FerretDB $version" >&2; return 1; }
  work=$(mktemp -d)
  # A RETURN trap outlives the function that sets it in bash: it clears itself, or it would fire, with
  # `work` unset, when the next function returns.
  trap 'rm -rf "$work"; trap - RETURN' RETURN
  cp -R "$module/." "$work"
  chmod -R u+w "$work"
  echo "$version" >"$work/build/version/version.txt"
  mkdir -p "$(dirname "$bin")"
  echo "ferretdb.sh: building FerretDB $version into $bin (about a minute and a half)" >&2
  # Each build writes its own file, so two started at once (two test files) never mix their output.
  (cd "$work" && "$go" build -o "$bin.partial.$$" ./cmd/ferretdb) >&2
  mv "$bin.partial.$$" "$bin"
  echo "$bin"
}

free_port() {
  node -e "const s = require('net').createServer(); s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close() })"
}

start() {
  local dir=$1 port pid
  build >/dev/null
  mkdir -p "$dir/data"
  port=$(free_port)
  local backend=(--handler=sqlite --sqlite-url="file:$dir/data/")
  if [ "${FERRETDB_HANDLER:-sqlite}" = postgresql ]; then
    local server=${FERRETDB_POSTGRESQL_SERVER:-postgres://postgres@127.0.0.1:5432} database="adks_ferretdb_$port"
    psql -q "$server/postgres" -c "CREATE DATABASE $database" >&2
    echo "$server/$database" >"$dir/postgresql-url"
    backend=(--handler=postgresql --postgresql-url="$server/$database")
  fi
  # The debug HTTP listener is off (its fixed default port would clash between two servers); state.json
  # goes to DIR, not the working directory.
  "$bin" --listen-addr="127.0.0.1:$port" "${backend[@]}" --state-dir="$dir" \
    --debug-addr=- --telemetry=disable --log-level=warn >"$dir/ferretdb.log" 2>&1 </dev/null &
  pid=$!
  echo "$pid" >"$dir/ferretdb.pid"
  for _ in $(seq 1 100); do
    if ! kill -0 "$pid" 2>/dev/null; then
      echo "ferretdb.sh: FerretDB exited at start:" >&2
      cat "$dir/ferretdb.log" >&2
      return 1
    fi
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
      echo "mongodb://127.0.0.1:$port/"
      return
    fi
    sleep 0.1
  done
  echo "ferretdb.sh: FerretDB did not listen on 127.0.0.1:$port within 10 s" >&2
  kill "$pid" 2>/dev/null || true
  return 1
}

stop() {
  local dir=$1 pid
  [ -f "$dir/ferretdb.pid" ] || return 0
  pid=$(cat "$dir/ferretdb.pid")
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$dir/ferretdb.pid"
  if [ -f "$dir/postgresql-url" ]; then
    local url
    url=$(cat "$dir/postgresql-url")
    psql -q "${url%/*}/postgres" -c "DROP DATABASE IF EXISTS ${url##*/}" >&2 || true
    rm -f "$dir/postgresql-url"
  fi
}

id_index() {
  local dir=$1 file table
  command -v sqlite3 >/dev/null || { echo "ferretdb.sh: id-index needs sqlite3 (apt-get install sqlite3)" >&2; return 1; }
  for file in "$dir"/data/*.sqlite; do
    [ -f "$file" ] || continue
    # Table names come from FerretDB's own list; each is a lower-case name and a hex suffix.
    sqlite3 "$file" 'SELECT table_name FROM _ferretdb_collections' | while read -r table; do
      [[ "$table" =~ ^[a-z0-9_.-]+$ ]] || continue
      sqlite3 "$file" "CREATE INDEX IF NOT EXISTS \"${table}__id_path\" ON \"$table\" (_ferretdb_sjson->'\$._id')"
    done
  done
}

# The store contract, the adapter's command counts, time bound and index list, its answers with the
# server gone (on a FerretDB of that test's own), the record service's batch writes, and the HTTP suites
# of records, privacy, workflows and jobs, and the small suites of real-world feeds and works: the same
# files as the first pass, run again on the MongoDB adapter. (The other campus sync suites are left out:
# on FerretDB over SQLite they take minutes, and they write through the same store operations; the
# deactivation guard and the stored secret, which depend on what the store holds, run here too. So do
# the notification suites that write to the store; the process kill test starts embedded services of
# its own, and the digest at scale is the benchmark's to time.) The backups' refusals, their consistency
# while the service writes, and the round trips between the embedded store and this server run here too.
files() {
  (cd "$root" && shopt -s nullglob && printf '%s\n' test/store/mongodb.test.ts test/store/mongo-commands.test.ts \
    test/store/mongo-outage.test.ts test/store/indexes.test.ts test/records/*.test.ts test/routes/*.test.ts \
    test/routes/workflows/*.test.ts test/privacy/*.test.ts test/workflows/*.test.ts test/jobs/*.test.ts \
    test/campus-sync/deactivation-guard.test.ts test/routes/campus-sync/secret-at-rest.test.ts \
    test/campus-sync/real-feeds.test.ts test/publications/real-works.test.ts \
    test/notifications/in-app.test.ts test/notifications/domains.test.ts test/notifications/email.test.ts \
    test/notifications/digest.test.ts test/notifications/outcome-*.test.ts test/notifications/webhook-routes.test.ts \
    test/notifications/webhook-delivery.test.ts test/notifications/webhook-guards.test.ts test/notifications/webhook-load.test.ts \
    test/history/*.test.ts test/migrations/instances.test.ts \
    test/backups/tampering.test.ts test/backups/consistency.test.ts test/backups/round-trip.test.ts)
}

mongodb_pass() {
  local url tests status=0
  pass_dir=$(mktemp -d)
  # Global, so the trap still finds it after the function returns; it also runs on an interrupt.
  trap 'stop "$pass_dir"; rm -rf "$pass_dir"' EXIT
  url=$(start "$pass_dir")
  mapfile -t tests < <(files)
  (cd "$root" && MONGODB_URL="$url" npx tap "${tests[@]}") || status=$?
  return "$status"
}

case "${1:-}" in
  build) build ;;
  start) start "${2:?usage: ferretdb.sh start DIR}" ;;
  stop) stop "${2:?usage: ferretdb.sh stop DIR}" ;;
  id-index) id_index "${2:?usage: ferretdb.sh id-index DIR}" ;;
  files) files ;;
  test) mongodb_pass ;;
  *) echo "usage: ferretdb.sh build | start DIR | stop DIR | id-index DIR | files | test" >&2; exit 2 ;;
esac
