#!/usr/bin/env bash
# Brings what the test suite needs beyond node_modules, so that `npm install && npm test` passes on a
# fresh Debian machine: Debian's chromium (the tests that open /documentation and the web app in a browser) and a Redis
# server answering on 127.0.0.1:6379. Installs with apt-get when run as root; otherwise, or without
# apt-get, says what to install and fails, since the suite would fail later and less clearly.
set -euo pipefail

chromium=${CHROMIUM_PATH:-/usr/bin/chromium}
redis_host=127.0.0.1
redis_port=6379

missing() {
  echo "test-deps: $1 is missing; $2" >&2
  exit 1
}

# apt-get waits up to 10 minutes for a dpkg lock another apt holds (an install already running in the
# background) instead of failing at once.
apt() {
  DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 -y -qq "$@"
}

# The package lists' lock is not covered by DPkg::Lock::Timeout, so `update` is retried while it is held.
apt_update() {
  local log
  log=$(mktemp)
  for _ in $(seq 1 120); do
    if apt update >"$log" 2>&1; then rm -f "$log"; return 0; fi
    grep -qi 'lock' "$log" || break
    sleep 5
  done
  cat "$log" >&2
  rm -f "$log"
  return 1
}

# Installs Debian packages as root; a fresh image has no package lists, so they are fetched first when
# the package has no install candidate.
install() {
  local package=$1 hint=$2
  command -v apt-get >/dev/null || missing "$package" "install it with your system's package manager ($hint)"
  [ "$(id -u)" -eq 0 ] || missing "$package" "install it with: sudo apt-get update && sudo apt-get install -y $package ($hint)"
  if ! apt-cache policy "$package" 2>/dev/null | grep -q 'Candidate: [^(]'; then apt_update; fi
  echo "test-deps: installing $package with apt-get" >&2
  local log
  log=$(mktemp)
  if ! apt install --no-install-recommends "$package" >"$log" 2>&1; then
    cat "$log" >&2
    rm -f "$log"
    missing "$package" "apt-get install $package failed (output above)"
  fi
  rm -f "$log"
}

redis_answers() {
  if command -v redis-cli >/dev/null; then
    [ "$(redis-cli -h "$redis_host" -p "$redis_port" ping 2>/dev/null)" = PONG ]
  else
    # Without redis-cli, a PING over bash's /dev/tcp, in a subshell that a refused connection only ends.
    (
      exec 3<>"/dev/tcp/$redis_host/$redis_port"
      printf 'PING\r\n' >&3
      read -r -t 2 reply <&3
      [ "${reply%$'\r'}" = +PONG ]
    ) 2>/dev/null
  fi
}

if [ ! -x "$chromium" ]; then
  [ -z "${CHROMIUM_PATH:-}" ] || missing "$chromium" "CHROMIUM_PATH must name a Chromium executable"
  install chromium "or set CHROMIUM_PATH to a Chromium executable"
  [ -x "$chromium" ] || missing "$chromium" "the chromium package did not provide it; set CHROMIUM_PATH"
fi

if ! redis_answers; then
  command -v redis-server >/dev/null || install redis-server "or start any Redis on $redis_host:$redis_port"
  echo "test-deps: starting redis-server on $redis_host:$redis_port" >&2
  # Test data only: nothing is saved to disk.
  redis-server --daemonize yes --bind "$redis_host" --port "$redis_port" --save '' --appendonly no >/dev/null
  for _ in $(seq 1 100); do redis_answers && break; sleep 0.1; done
  redis_answers || missing "Redis on $redis_host:$redis_port" "redis-server was started but does not answer"
fi
