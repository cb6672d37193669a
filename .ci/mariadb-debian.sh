#!/usr/bin/env bash
# A private MariaDB server from Debian's `mariadb-server` package (10.11 on Debian 12) for the test
# suite's second pass. It never touches the system's server: its own data directory (under target/
# unless COPYDESK_MARIADB_DIR says otherwise), socket, pid file and log, a free loopback TCP port,
# and no option files read (--no-defaults; Debian's character-set defaults are passed explicitly).
#
# Usage: .ci/mariadb-debian.sh install   installs mariadb-server with apt-get when mariadbd is missing
#                                         (root only; COPYDESK_APT=0 forbids it)
#        .ci/mariadb-debian.sh start     initialises the data directory if needed, starts the server,
#                                         creates the test account, prints the URL
#        .ci/mariadb-debian.sh stop      stops it (by its pid file) and waits until it is gone
#        .ci/mariadb-debian.sh url       prints jdbc:mysql://127.0.0.1:PORT/
#        .ci/mariadb-debian.sh env       prints export lines for COPYDESK_TEST_DB_URL/_USER/_PASSWORD
#        .ci/mariadb-debian.sh status    says whether it runs (exit 0) or not (exit 1)
#
# COPYDESK_MARIADB_ARGS: further server options for `start`, split at spaces (a benchmark turns on
# performance_schema's statement timers this way: RoutineStatementProfile).
#
# The test account (copydesk_test, random password kept in DIR/password, mode 600) has every
# privilege WITH GRANT OPTION: the suite creates a database per test class and, in the security
# tests, database accounts with grants and triggers with definers.
#
# Run the suite against it:
#   .ci/mariadb-debian.sh start && eval "$(.ci/mariadb-debian.sh env)" && mvn verify; .ci/mariadb-debian.sh stop
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${COPYDESK_MARIADB_DIR:-$repo/target/mariadb-debian}
data=$dir/data
sock=$dir/mysqld.sock
pidfile=$dir/mysqld.pid
portfile=$dir/port
pwfile=$dir/password
log=$dir/error.log
test_user=copydesk_test

say() { echo "mariadb-debian: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# running, free_port, cmd_stop, cmd_url, cmd_env, cmd_status
source "$(dirname "${BASH_SOURCE[0]}")/private-server-lib.sh"

find_binaries() {
    MARIADBD=$(command -v mariadbd || true)
    [ -n "$MARIADBD" ] || MARIADBD=$( [ -x /usr/sbin/mariadbd ] && echo /usr/sbin/mariadbd || true)
}

cmd_install() {
    find_binaries
    if [ -n "$MARIADBD" ]; then
        return 0
    fi
    if [ "${COPYDESK_APT:-1}" = 0 ]; then
        die "mariadbd is missing and COPYDESK_APT=0 forbids installing it; run: apt-get install -y mariadb-server"
    fi
    if [ "$(id -u)" != 0 ]; then
        die "mariadbd is missing and only root may install it; run as root: apt-get install -y mariadb-server"
    fi
    command -v apt-get >/dev/null || die "mariadbd is missing and there is no apt-get here"
    say "installing Debian's mariadb-server (apt-get)"
    # The package's maintainer scripts start the system's server unless policy-rc.d denies it; we
    # do not need that server, and leave it as the system's policy says.
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2 || die "apt-get update failed"
    apt-get install -y -q mariadb-server >&2 || die "apt-get install mariadb-server failed"
    find_binaries
    [ -n "$MARIADBD" ] || die "mariadb-server installed but mariadbd not found"
}

# A free loopback port: one nobody listens on (a connect attempt is refused).

# The OS account the server runs as; mariadb-install-db gives it a unix_socket login with every
# privilege, which this script uses for administration through the private socket.
os_user() { id -un; }

admin_sql() {
    mariadb --no-defaults --protocol=socket --socket="$sock" -u "$(os_user)" "$@"
}

cmd_start() {
    cmd_install
    mkdir -p "$dir"
    if running; then
        say "already running (pid $(cat "$pidfile"), port $(cat "$portfile"))"
        cmd_url
        return 0
    fi
    local user_opt=()
    if [ "$(id -u)" = 0 ]; then
        user_opt=(--user=root)   # mariadbd refuses to run as root otherwise
    fi
    if [ ! -d "$data/mysql" ]; then
        say "initialising $data ($("$MARIADBD" --version | sed 's/^.*Ver //'))"
        rm -rf "$data"
        mariadb-install-db --no-defaults --datadir="$data" --user="$(os_user)" --skip-test-db \
            --auth-root-authentication-method=socket --auth-root-socket-user="$(os_user)" \
            >"$dir/install-db.log" 2>&1 || { cat "$dir/install-db.log" >&2; die "mariadb-install-db failed"; }
    fi
    local port
    port=$(free_port)
    echo "$port" >"$portfile"
    : >"$log"
    # Debian's mariadb.conf.d sets utf8mb4 / utf8mb4_general_ci; --no-defaults skips those files
    # (they also name the system's datadir and socket), so the character set is given here.
    # its own temporary files: a shared /tmp another session cleans took one mid-statement once
    mkdir -p "$dir/tmp"
    "$MARIADBD" --no-defaults ${user_opt[@]+"${user_opt[@]}"} \
        --datadir="$data" --tmpdir="$dir/tmp" --socket="$sock" --pid-file="$pidfile" --log-error="$log" \
        --port="$port" --bind-address=127.0.0.1 --skip-name-resolve \
        --character-set-server=utf8mb4 --collation-server=utf8mb4_general_ci \
        --innodb-lock-wait-timeout=10 --max-connections=500 ${COPYDESK_MARIADB_ARGS:-} \
        >>"$log" 2>&1 </dev/null &
    wait_until_answers $! mariadbd
    create_test_account
    say "MariaDB $(admin_sql -N -e 'SELECT VERSION()') runs on 127.0.0.1:$port (pid $(cat "$pidfile"), data $data)"
    cmd_url
}

case "${1:-}" in
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    url) cmd_url ;;
    env) cmd_env ;;
    status) cmd_status ;;
    *) echo "usage: $0 install|start|stop|url|env|status" >&2; exit 2 ;;
esac
