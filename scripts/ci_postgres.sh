#!/usr/bin/env bash
# A throwaway PostgreSQL server for the store's tests (tests/test_store.py), from Debian's
# packages, in a directory of its own.
#
#   dir=$(mktemp -d)
#   export VIGILE_TEST_PG_URL=$(scripts/ci_postgres.sh start "$dir")
#   ...
#   scripts/ci_postgres.sh stop "$dir"     # stops the server, removes the directory
#
# start: installs the 'postgresql' package if no initdb/pg_ctl is found under
# /usr/lib/postgresql/*/bin (as root only), creates a cluster in DIR (owned by the postgres
# user when run as root: initdb refuses root), starts it on a free loopback port with its unix
# socket in DIR, creates the role 'vigile' (a random password, CREATEDB) and the database
# 'vigile_test' it owns, and prints the URL (postgresql+psycopg://vigile:...@127.0.0.1:PORT/
# vigile_test) on stdout; everything else goes to stderr. Over TCP the server asks for the
# password (scram-sha-256); over the socket in DIR the postgres superuser needs none.
# The cluster runs with fsync off: it is for tests only.
set -euo pipefail

usage() { echo "usage: $0 start DIR | stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
action=$1
dir=$(cd "$2" && pwd)

pg_bin() {
  local bin
  for bin in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ]; then echo "$bin"; return 0; fi
  done
  return 1
}

# Run a command as the cluster's owner: the postgres user when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$action" in
  start)
    if ! bin=$(pg_bin); then
      if [ "$(id -u)" -ne 0 ]; then
        echo "ci_postgres: no PostgreSQL under /usr/lib/postgresql and not root to install it" >&2
        exit 1
      fi
      echo "ci_postgres: installing PostgreSQL from Debian's packages" >&2
      apt-get update -qq >&2
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >&2
      bin=$(pg_bin)
    fi
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    password=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth-local=trust \
      --auth-host=scram-sha-256 -E UTF8 --locale=C.UTF-8 --no-sync > /dev/null
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
      start >&2
    as_owner "$bin/psql" -h "$dir" -p "$port" -U postgres -d postgres -v ON_ERROR_STOP=1 -q \
      -c "CREATE ROLE vigile LOGIN CREATEDB PASSWORD '$password'" \
      -c "CREATE DATABASE vigile_test OWNER vigile" >&2
    echo "postgresql+psycopg://vigile:$password@127.0.0.1:$port/vigile_test"
    ;;
  stop)
    if [ -f "$dir/data/postmaster.pid" ] && bin=$(pg_bin); then
      as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >&2 || true
    fi
    rm -rf "$dir"
    ;;
  *) usage ;;
esac
