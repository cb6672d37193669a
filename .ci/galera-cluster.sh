#!/usr/bin/env bash
# A private three-node MariaDB Galera cluster on loopback ports, from Debian's `mariadb-server` and
# `galera-4` packages, for the cluster run (src/test/java/org/copydesk/cluster) and the `galera`
# pass of .ci/run. It never touches the system's server: each node has its own data directory,
# socket, pid file, log and option file under target/galera/nodeN (or COPYDESK_GALERA_DIR), and
# reads no other option file (--defaults-file names the one this script writes; the SST scripts
# read the same file).
#
# Usage: .ci/galera-cluster.sh install        installs mariadb-server, galera-4 and rsync with apt-get
#                                              when missing (root only; COPYDESK_APT=0 forbids it)
#        .ci/galera-cluster.sh start          a fresh cluster: bootstraps node 1 (--wsrep-new-cluster),
#                                              joins nodes 2 and 3 (state transfer by rsync), waits
#                                              until wsrep_cluster_size=3, creates the test account
#        .ci/galera-cluster.sh start-node N   starts node N again (after a kill) and waits until it
#                                              has caught up with the others (incremental transfer)
#        .ci/galera-cluster.sh kill N         SIGKILLs node N (a host dying, not a clean shutdown)
#        .ci/galera-cluster.sh stop           stops every node (by its pid file)
#        .ci/galera-cluster.sh url            jdbc:mysql://127.0.0.1:P1,127.0.0.1:P2,127.0.0.1:P3/
#        .ci/galera-cluster.sh env            export lines: COPYDESK_GALERA_URL (all three nodes),
#                                              COPYDESK_GALERA_DIR, COPYDESK_GALERA_USER, _PASSWORD
#        .ci/galera-cluster.sh status         each node's pid, port and wsrep state (exit 1 if any is down)
#        .ci/galera-cluster.sh versions       one line: the running server's version, Galera's (the provider
#                                              as loaded, and the galera-4 package when dpkg knows it)
#
# Ports: each node takes four free loopback ports: SQL, group communication (gcomm), incremental
# state transfer (IST) and full state transfer (SST).
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${COPYDESK_GALERA_DIR:-$repo/target/galera}
pwfile=$dir/password
test_user=copydesk_test
nodes=(1 2 3)
provider=${COPYDESK_GALERA_PROVIDER:-/usr/lib/galera/libgalera_smm.so}

say() { echo "galera-cluster: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# Per-node paths; the shared library's functions read these globals.
use_node() {
    node=$1
    ndir=$dir/node$node
    data=$ndir/data
    sock=$ndir/mysqld.sock
    pidfile=$ndir/mysqld.pid
    portfile=$ndir/port
    log=$ndir/error.log
}
use_node 1

# running, free_port, cmd_stop, wait_until_answers, create_test_account
source "$(dirname "${BASH_SOURCE[0]}")/private-server-lib.sh"

os_user() { id -un; }
# The account the nodes run as. As root: `mysql` (Debian's package creates it), because the joiner's
# rsync daemon, started by mariadbd, would otherwise drop to `nobody` and could not write the data.
server_user() {
    if [ "$(id -u)" = 0 ] && id mysql >/dev/null 2>&1; then echo mysql; else id -un; fi
}
admin_sql() {
    mariadb --no-defaults --protocol=socket --socket="$sock" -u "$(os_user)" "$@"
}

cmd_install() {
    local missing=()
    command -v mariadbd >/dev/null || [ -x /usr/sbin/mariadbd ] || missing+=(mariadb-server)
    [ -f "$provider" ] || missing+=(galera-4)
    command -v rsync >/dev/null || missing+=(rsync)
    [ ${#missing[@]} -eq 0 ] && return 0
    [ "${COPYDESK_APT:-1}" != 0 ] || die "missing ${missing[*]} and COPYDESK_APT=0 forbids installing; run: apt-get install -y ${missing[*]}"
    [ "$(id -u)" = 0 ] || die "missing ${missing[*]}; only root may install: apt-get install -y ${missing[*]}"
    say "installing ${missing[*]} (apt-get)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2 || die "apt-get update failed"
    apt-get install -y -q "${missing[@]}" >&2 || die "apt-get install ${missing[*]} failed"
}

mariadbd_bin() { command -v mariadbd || echo /usr/sbin/mariadbd; }

# port_of N KIND: the port node N uses for KIND (sql, gcomm, ist, sst).
port_of() { cat "$dir/node$1/$2.port"; }

cluster_address() {
    local list=() n
    for n in "${nodes[@]}"; do list+=("127.0.0.1:$(port_of "$n" gcomm)"); done
    (IFS=,; echo "gcomm://${list[*]}")
}

# write_config N: node N's option file, the only one it reads.
write_config() {
    use_node "$1"
    local user_line="user=$(server_user)"
    cat >"$ndir/my.cnf" <<CNF
[mysqld]
$user_line
datadir=$data
socket=$sock
pid-file=$pidfile
log-error=$log
port=$(port_of "$node" sql)
bind-address=127.0.0.1
skip-name-resolve
character-set-server=utf8mb4
collation-server=utf8mb4_general_ci
innodb-lock-wait-timeout=10
max-connections=500
innodb-buffer-pool-size=128M
# Galera: row-based replication, InnoDB, interleaved auto-increment locks (required)
binlog-format=ROW
default-storage-engine=InnoDB
innodb-autoinc-lock-mode=2
wsrep-on=ON
wsrep-provider=$provider
wsrep-cluster-name=copydesk_test
wsrep-cluster-address=$(cluster_address)
wsrep-node-name=node$node
wsrep-node-address=127.0.0.1:$(port_of "$node" gcomm)
wsrep-node-incoming-address=127.0.0.1:$(port_of "$node" sql)
wsrep-provider-options=gmcast.listen_addr=tcp://127.0.0.1:$(port_of "$node" gcomm);ist.recv_addr=127.0.0.1:$(port_of "$node" ist);gcache.size=128M;evs.suspect_timeout=PT3S;evs.inactive_timeout=PT6S;evs.install_timeout=PT6S
wsrep-sst-method=rsync
wsrep-sst-receive-address=127.0.0.1:$(port_of "$node" sst)
# one applier thread (ordered, easy to read in the log). MariaDB 10.11.18's applier crashed (signal
# 11 in Rows_log_event::find_row) with one as with two when editors wrote through every node; see
# docs/servers.md
wsrep-slave-threads=1
[client]
socket=$sock
CNF
}

# launch N [extra mariadbd options]: starts node N in the background; sets $launched.
launch() {
    use_node "$1"
    shift
    : >"$log"
    [ "$(server_user)" = "$(os_user)" ] || chown "$(server_user)" "$ndir" "$log"
    # The SST scripts run mysqld's helpers from the PATH.
    PATH="/usr/sbin:/usr/bin:$PATH" "$(mariadbd_bin)" --defaults-file="$ndir/my.cnf" "$@" \
        >>"$log" 2>&1 </dev/null &
    launched=$!
}

wsrep_value() { admin_sql -N -e "SHOW GLOBAL STATUS LIKE '$1'" 2>/dev/null | awk '{print $2}'; }

# wait_synced N: until node N answers and says it is Synced (state transfer done), 180 s at most.
wait_synced() {
    use_node "$1"
    local waited=0
    until [ "$(wsrep_value wsrep_local_state_comment)" = Synced ]; do
        if ! running && ! kill -0 "${launched:-0}" 2>/dev/null; then
            tail -40 "$log" >&2
            die "node $1 exited while joining (log: $log)"
        fi
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 360 ] || { tail -40 "$log" >&2; die "node $1 did not reach Synced within 180 s (log: $log)"; }
    done
}

wait_cluster_size() {
    use_node 1
    local want=$1 waited=0
    until [ "$(wsrep_value wsrep_cluster_size)" = "$want" ]; do
        sleep 0.5
        waited=$((waited + 1))
        [ $waited -lt 120 ] || die "wsrep_cluster_size stayed $(wsrep_value wsrep_cluster_size), not $want"
    done
}

cmd_start() {
    cmd_install
    cmd_stop_all quiet
    rm -rf "$dir"
    mkdir -p "$dir"
    local n kind
    for n in "${nodes[@]}"; do
        mkdir -p "$dir/node$n/data"
        for kind in sql gcomm ist sst; do
            local p
            until p=$(free_port) && ! grep -qx "$p" "$dir"/node*/*.port 2>/dev/null; do :; done
            echo "$p" >"$dir/node$n/$kind.port"
        done
        cp "$dir/node$n/sql.port" "$dir/node$n/port"
    done
    for n in "${nodes[@]}"; do write_config "$n"; done
    use_node 1
    say "initialising node 1 ($("$(mariadbd_bin)" --version | sed 's/^.*Ver //'))"
    [ "$(server_user)" = "$(os_user)" ] || chown -R "$(server_user)" "$dir"
    mariadb-install-db --no-defaults --datadir="$data" --user="$(server_user)" --skip-test-db \
        --auth-root-authentication-method=socket --auth-root-socket-user="$(os_user)" \
        >"$ndir/install-db.log" 2>&1 || { cat "$ndir/install-db.log" >&2; die "mariadb-install-db failed"; }
    launch 1 --wsrep-new-cluster
    wait_until_answers "$launched" "node 1"
    wait_synced 1
    # Nodes 2 and 3 start from an empty data directory and receive node 1's by rsync (SST).
    for n in 2 3; do
        launch "$n"
        wait_synced "$n"
    done
    wait_cluster_size 3
    use_node 1
    create_test_account
    say "three nodes synced: $(cmd_url) (cluster size $(wsrep_value wsrep_cluster_size))"
    cmd_url
}

cmd_start_node() {
    local n=${1:?node number}
    use_node "$n"
    running && { say "node $n already runs"; return 0; }
    # A killed node keeps its data; recovering its last committed position from InnoDB (what
    # mysqld_safe does with --wsrep-recover) lets it rejoin by incremental transfer (IST) from
    # another node's cache rather than copying everything (SST).
    local position=""
    : >"$ndir/recover.log"
    [ "$(server_user)" = "$(os_user)" ] || chown "$(server_user)" "$ndir/recover.log"
    if "$(mariadbd_bin)" --defaults-file="$ndir/my.cnf" --wsrep-recover --log-error="$ndir/recover.log" >/dev/null 2>&1; then
        position=$(sed -n 's/.*WSREP: Recovered position: *//p' "$ndir/recover.log" | tail -1)
    fi
    if [ -n "$position" ]; then
        launch "$n" --wsrep-start-position="$position"
    else
        launch "$n"
    fi
    wait_synced "$n"
    say "node $n rejoined (cluster size $(use_node 1; wsrep_value wsrep_cluster_size))"
}

cmd_kill() {
    local n=${1:?node number}
    use_node "$n"
    running || die "node $n is not running"
    local pid
    pid=$(server_pid)
    kill -KILL "$pid"
    while kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    rm -f "$pidfile"
    say "node $n killed (pid $pid)"
}

cmd_stop_all() {
    local n
    for n in 3 2 1; do
        use_node "$n"
        if [ "${1:-}" = quiet ]; then cmd_stop >/dev/null 2>&1 || true; else cmd_stop; fi
    done
}

cmd_url() {
    local list=() n
    for n in "${nodes[@]}"; do list+=("127.0.0.1:$(port_of "$n" sql)"); done
    (IFS=,; echo "jdbc:mysql://${list[*]}/")
}

cmd_env() {
    use_node 1
    running || die "node 1 is not running; start the cluster first"
    echo "export COPYDESK_GALERA_URL='$(cmd_url)'"
    echo "export COPYDESK_GALERA_DIR='$dir'"
    echo "export COPYDESK_GALERA_USER='$test_user'"
    echo "export COPYDESK_GALERA_PASSWORD='$(cat "$pwfile")'"
}

cmd_status() {
    local n code=0
    for n in "${nodes[@]}"; do
        use_node "$n"
        if running; then
            say "node $n: pid $(cat "$pidfile"), port $(port_of "$n" sql), $(wsrep_value wsrep_local_state_comment), cluster size $(wsrep_value wsrep_cluster_size)"
        else
            say "node $n: not running"
            code=1
        fi
    done
    return $code
}

# The versions of what runs, asked of the first node that answers (for the CI log).
cmd_versions() {
    local n server provider package
    for n in "${nodes[@]}"; do
        use_node "$n"
        running || continue
        server=$(admin_sql -N -e 'SELECT VERSION()' 2>/dev/null) || continue
        provider=$(wsrep_value wsrep_provider_version)
        package=$(dpkg-query -W -f='${Version}' galera-4 2>/dev/null || true)
        echo "mariadbd ${server}, galera ${provider:-?} (wsrep_provider_version)${package:+, package galera-4 $package}"
        return 0
    done
    die "no node answers; start the cluster first"
}

case "${1:-}" in
    install) cmd_install ;;
    start) cmd_start ;;
    start-node) cmd_start_node "${2:-}" ;;
    kill) cmd_kill "${2:-}" ;;
    stop) cmd_stop_all ;;
    url) cmd_url ;;
    env) cmd_env ;;
    status) cmd_status ;;
    versions) cmd_versions ;;
    *) echo "usage: $0 install|start|start-node N|kill N|stop|url|env|status|versions" >&2; exit 2 ;;
esac
