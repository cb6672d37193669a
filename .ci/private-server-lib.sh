# Shared by .ci/mariadb-debian.sh and .ci/mysql-maven.sh: a private test server's life by its pid,
# port and password files. The sourcing script defines say, die, admin_sql, pidfile, portfile, pwfile,
# log and test_user.

# server_pid: prints the pid in the pid file if that process is alive AND is this server (its
# command line names the pid file's folder). A pid file outlives its server when the server is
# SIGKILLed; once the kernel hands that pid to another process, a plain `kill $(cat pidfile)` kills
# a stranger (a galera pass once hung with its test JVM's parent gone).
server_pid() {
    local pid
    pid=$(cat "$pidfile" 2>/dev/null) || return 1
    [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 1
    if [ -r "/proc/$pid/cmdline" ]; then
        tr '\0' ' ' <"/proc/$pid/cmdline" | grep -qF -- "$(dirname "$pidfile")" || return 1
    fi
    echo "$pid"
}

running() {
    server_pid >/dev/null
}

# free_port: a loopback port nothing listens on, below the kernel's range for outgoing connections'
# own ports (32768-60999 by default): a port picked inside it was once taken, between the pick and
# the bind, by one of the cluster's own connections ("Bind on TCP/IP port ... Address already in use").
free_port() {
    local p tries=0 low=32768 span
    read -r low _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || low=32768
    span=$(( low - 20000 ))
    [ "$span" -ge 2000 ] || span=30000 # an unusual range: the old choice
    while [ $tries -lt 200 ]; do
        p=$(( 20000 + RANDOM % span ))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
            echo "$p"
            return 0
        fi
        tries=$((tries + 1))
    done
    die "no free port found"
}

cmd_stop() {
    if ! running; then
        say "not running"
        rm -f "$pidfile"
        return 0
    fi
    local pid
    pid=$(server_pid)
    kill -TERM "$pid"
    local waited=0
    while kill -0 "$pid" 2>/dev/null; do
        sleep 0.5
        waited=$((waited + 1))
        if [ $waited -gt 120 ]; then
            say "pid $pid did not stop within 60 s; killing it"
            kill -KILL "$pid" 2>/dev/null || true
            break
        fi
    done
    rm -f "$pidfile"
    say "stopped (pid $pid)"
}

cmd_url() {
    [ -f "$portfile" ] || die "not started (no $portfile)"
    echo "jdbc:mysql://127.0.0.1:$(cat "$portfile")/"
}

cmd_env() {
    running || die "not running; start it first"
    echo "export COPYDESK_TEST_DB_URL='$(cmd_url)'"
    echo "export COPYDESK_TEST_DB_USER='$test_user'"
    echo "export COPYDESK_TEST_DB_PASSWORD='$(cat "$pwfile")'"
}

cmd_status() {
    if running; then
        say "running (pid $(cat "$pidfile"), $(cmd_url))"
    else
        say "not running"
        return 1
    fi
}

# wait_until_answers PID NAME: waits (60 s at most) until admin_sql answers; dies if PID exits first.
wait_until_answers() {
    local launched=$1 name=$2 waited=0
    until admin_sql -e 'SELECT 1' >/dev/null 2>&1; do
        if ! kill -0 "$launched" 2>/dev/null; then
            tail -30 "$log" >&2
            die "$name exited while starting (log: $log)"
        fi
        sleep 0.5
        waited=$((waited + 1))
        if [ $waited -gt 120 ]; then
            tail -30 "$log" >&2
            kill "$launched" 2>/dev/null || true
            die "$name did not answer within 60 s (log: $log)"
        fi
    done
}

# create_test_account: the test account with every privilege and a random password kept in $pwfile
# (mode 600). The password goes through stdin, never a command line. On MySQL, ALL includes
# SYSTEM_USER and SET_USER_ID, which creating routines and triggers with definers needs.
create_test_account() {
    if [ ! -s "$pwfile" ]; then
        (umask 077; head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$pwfile")
    fi
    admin_sql <<SQL || die "cannot create the test account"
CREATE USER IF NOT EXISTS '$test_user'@'%' IDENTIFIED BY '$(cat "$pwfile")';
ALTER USER '$test_user'@'%' IDENTIFIED BY '$(cat "$pwfile")';
GRANT ALL PRIVILEGES ON *.* TO '$test_user'@'%' WITH GRANT OPTION;
SQL
}
