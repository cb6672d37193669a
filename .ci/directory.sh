#!/usr/bin/env bash
# A newsroom directory for the directory sign-in tests: a private OpenLDAP server (slapd) with a
# small newsroom (people, a group, a disabled person), this machine's PAM asking it through nslcd
# (libpam-ldapd), and the PAM service `copydesk` that MariaDB's auth_pam uses. The database server
# is Debian's MariaDB from .ci/mariadb-debian.sh, started with the PAM plugin and TLS by `start`.
#
# Usage: .ci/directory.sh install   installs slapd, ldap-utils and libpam-ldapd with apt-get (root only)
#        .ci/directory.sh start     starts slapd on a free port, loads the newsroom, points nslcd and
#                                   /etc/pam.d/copydesk at it, starts the MariaDB server with PAM + TLS
#        .ci/directory.sh stop      stops slapd, nslcd and that MariaDB server
#        .ci/directory.sh env       prints export lines: the test database (as mariadb-debian.sh env)
#                                   plus COPYDESK_TEST_DIRECTORY_URL / _ADMIN / _PASSWORD_FILE / _PID_FILE
#                                   (a test freezes slapd with SIGSTOP to play a directory that does not answer)
#
# Root only: nslcd and PAM are the machine's own (/etc/nslcd.conf and /etc/pam.d/copydesk are
# written; the former is kept as /etc/nslcd.conf.copydesk-saved and put back by `stop`).
# The people (uid, password; names no other test uses, as database accounts are the server's):
# dxdana / dxdana-directory-1 (member of copydesk), dxeli (member), dxfay (member, shadowExpire in
# 1970: disabled), dxgus (not a member: the directory knows him, Copydesk's PAM service does not let
# him in); for the sync test, which changes its own group newsroom-sync: dxpia and dxquin (members
# of both groups) and dxray (both, disabled). Each password is the uid followed by -directory-1.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
dir=${COPYDESK_DIRECTORY_DIR:-$repo/target/directory}
base="dc=newsroom,dc=example"
admin="cn=admin,$base"

say() { echo "directory: $*" >&2; }
die() { say "FAILED: $*"; exit 1; }

source "$(dirname "${BASH_SOURCE[0]}")/private-server-lib.sh"

cmd_install() {
    if command -v slapd >/dev/null && command -v nslcd >/dev/null && command -v ldapadd >/dev/null; then
        return 0
    fi
    [ "${COPYDESK_APT:-1}" != 0 ] || die "slapd/nslcd missing and COPYDESK_APT=0 forbids installing them; run: apt-get install -y slapd ldap-utils libpam-ldapd"
    [ "$(id -u)" = 0 ] || die "slapd/nslcd missing; as root: apt-get install -y slapd ldap-utils libpam-ldapd"
    export DEBIAN_FRONTEND=noninteractive
    # no system directory of the package's own: this script runs a private one
    echo "slapd slapd/no_configuration boolean true" | debconf-set-selections
    apt-get update -q >&2 || die "apt-get update failed"
    apt-get install -y -q slapd ldap-utils libpam-ldapd >&2 || die "apt-get install failed"
}

slapd_running() { [ -f "$dir/slapd.pid" ] && kill -0 "$(cat "$dir/slapd.pid")" 2>/dev/null; }

start_slapd() {
    # a fresh newsroom each start: the entries below are added, and a second start would find them
    rm -rf "$dir/db"
    mkdir -p "$dir/db"
    local port
    port=$(free_port)
    echo "$port" >"$dir/port"
    # no newline: ldapadd -y sends the file's bytes as they are
    printf '%s' "$(head -c 18 /dev/urandom | base64 | tr -d '/+=')" >"$dir/admin.password"
    chmod 600 "$dir/admin.password"
    cat >"$dir/slapd.conf" <<EOF
include /etc/ldap/schema/core.schema
include /etc/ldap/schema/cosine.schema
include /etc/ldap/schema/inetorgperson.schema
include /etc/ldap/schema/nis.schema
pidfile $dir/slapd.pid
modulepath /usr/lib/ldap
moduleload back_mdb
database mdb
suffix "$base"
rootdn "$admin"
rootpw $(slappasswd -s "$(cat "$dir/admin.password")")
directory $dir/db
maxsize 104857600
access to attrs=userPassword by self write by anonymous auth by * none
access to * by * read
EOF
    slapd -f "$dir/slapd.conf" -h "ldap://127.0.0.1:$port/" >"$dir/slapd.log" 2>&1 || die "slapd did not start ($dir/slapd.log)"
    for _ in $(seq 50); do
        ldapsearch -x -H "ldap://127.0.0.1:$port/" -b "" -s base >/dev/null 2>&1 && break
        sleep 0.1
    done
    ldapadd -x -H "ldap://127.0.0.1:$port/" -D "$admin" -y "$dir/admin.password" >/dev/null <<EOF
dn: $base
objectClass: dcObject
objectClass: organization
o: Newsroom
dc: newsroom

dn: ou=people,$base
objectClass: organizationalUnit
ou: people

dn: ou=groups,$base
objectClass: organizationalUnit
ou: groups

$(person dxdana "Dana Directory" 20001)

$(person dxeli "Eli Directory" 20002)

$(person dxfay "Fay Directory" 20003 "shadowExpire: 1")

$(person dxgus "Gus Directory" 20004)

$(person dxpia "Pia Directory" 20005)

$(person dxquin "Quin Directory" 20006)

$(person dxray "Ray Directory" 20007 "shadowExpire: 1")

dn: cn=copydesk,ou=groups,$base
objectClass: posixGroup
cn: copydesk
gidNumber: 20000
memberUid: dxdana
memberUid: dxeli
memberUid: dxfay
memberUid: dxpia
memberUid: dxquin
memberUid: dxray

dn: cn=newsroom-sync,ou=groups,$base
objectClass: posixGroup
cn: newsroom-sync
gidNumber: 20010
memberUid: dxpia
memberUid: dxquin
memberUid: dxray
EOF
    say "slapd runs on 127.0.0.1:$port ($base)"
}

# one person's entry; $4, if given, is one more attribute line
person() {
    cat <<EOF
dn: uid=$1,ou=people,$base
objectClass: inetOrgPerson
objectClass: posixAccount
objectClass: shadowAccount
uid: $1
cn: $2
sn: ${2#* }
uidNumber: $3
gidNumber: 20000
homeDirectory: /nonexistent
loginShell: /usr/sbin/nologin
userPassword: $(slappasswd -s "$1-directory-1")
EOF
    if [ -n "${4:-}" ]; then echo "$4"; fi
}

start_nslcd() {
    if [ -f /etc/nslcd.conf ] && [ ! -f /etc/nslcd.conf.copydesk-saved ]; then
        cp -p /etc/nslcd.conf /etc/nslcd.conf.copydesk-saved
    fi
    cat >/etc/nslcd.conf <<EOF
# written by Copydesk's .ci/directory.sh (the system's own is /etc/nslcd.conf.copydesk-saved)
uid nslcd
gid nslcd
uri ldap://127.0.0.1:$(cat "$dir/port")/
base $base
# a directory that does not answer refuses a sign-in within seconds, not minutes
bind_timelimit 3
timelimit 3
reconnect_retrytime 1
# only members of the directory's copydesk group may sign in through PAM
pam_authz_search (&(objectClass=posixGroup)(cn=copydesk)(memberUid=\$username))
EOF
    chmod 640 /etc/nslcd.conf
    chgrp nslcd /etc/nslcd.conf 2>/dev/null || true
    pkill -x nslcd 2>/dev/null || true
    sleep 0.2
    mkdir -p /run/nslcd && chown nslcd:nslcd /run/nslcd 2>/dev/null || true
    nslcd || die "nslcd did not start"
    cat >/etc/pam.d/copydesk <<'EOF'
# Copydesk's database accounts identified through the directory (MariaDB auth_pam, service copydesk)
auth    required pam_ldap.so
account required pam_ldap.so
EOF
    say "nslcd asks the directory; PAM service copydesk written"
}

tls_files() {
    [ -f "$dir/server.key" ] && return 0
    openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj "/CN=127.0.0.1" \
        -keyout "$dir/server.key" -out "$dir/server.crt" >/dev/null 2>&1 || die "openssl failed"
}

cmd_start() {
    [ "$(id -u)" = 0 ] || die "root only (nslcd and PAM are the machine's own)"
    cmd_install
    mkdir -p "$dir"
    slapd_running || start_slapd
    start_nslcd
    tls_files
    COPYDESK_MARIADB_DIR=${COPYDESK_MARIADB_DIR:-$dir/mariadb} \
    COPYDESK_MARIADB_ARGS="--plugin-load-add=auth_pam --pam-use-cleartext-plugin=ON --ssl-cert=$dir/server.crt --ssl-key=$dir/server.key ${COPYDESK_MARIADB_ARGS:-}" \
        "$repo/.ci/mariadb-debian.sh" start >/dev/null
}

cmd_stop() {
    COPYDESK_MARIADB_DIR=${COPYDESK_MARIADB_DIR:-$dir/mariadb} "$repo/.ci/mariadb-debian.sh" stop || true
    if slapd_running; then
        local pid
        pid=$(cat "$dir/slapd.pid")
        kill -CONT "$pid" 2>/dev/null || true # a test may have left it frozen
        kill "$pid"
        # gone before a new one opens the same database
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    fi
    pkill -x nslcd 2>/dev/null || true
    if [ -f /etc/nslcd.conf.copydesk-saved ]; then
        mv /etc/nslcd.conf.copydesk-saved /etc/nslcd.conf
    fi
    rm -f /etc/pam.d/copydesk
}

cmd_env() {
    COPYDESK_MARIADB_DIR=${COPYDESK_MARIADB_DIR:-$dir/mariadb} "$repo/.ci/mariadb-debian.sh" env
    echo "export COPYDESK_TEST_DIRECTORY_URL=ldap://127.0.0.1:$(cat "$dir/port")/"
    echo "export COPYDESK_TEST_DIRECTORY_ADMIN='$admin'"
    echo "export COPYDESK_TEST_DIRECTORY_PASSWORD_FILE=$dir/admin.password"
    echo "export COPYDESK_TEST_DIRECTORY_PID_FILE=$dir/slapd.pid"
}

case "${1:-}" in
    install) cmd_install ;;
    start) cmd_start ;;
    stop) cmd_stop ;;
    env) cmd_env ;;
    *) echo "usage: $0 install|start|stop|env" >&2; exit 2 ;;
esac
