#!/bin/bash
# A working day in the real app: a team server (copydesk server), three editors and a supervisor
# added with the documented commands, four app windows (each its own JVM) under Xvfb and openbox,
# driven with xdotool as people use them. Screenshots and logs go to $DAY (default
# target/working-day). Not part of `mvn verify`: run it by hand on a machine with
# `xvfb xauth libgtk-3-0 openbox xdotool imagemagick` after `mvn -o -q -DskipTests package`.
#
#   .ci/working-day.sh setup           Xvfb :57, openbox, the server, desks, people, 90 articles, 4 windows signed in
#   .ci/working-day.sh drive SECONDS   editors open, type notes, approve/reject/send back/release (pause: touch $DAY/pause)
#   .ci/working-day.sh freeze SECONDS  SIGSTOP the database while one editor types; screenshots and timings; SIGCONT
#   .ci/working-day.sh restart SECONDS the team server stopped as the docs say (server --stop) and started again
#                                      after SECONDS, the windows open; screenshots every 2 s until 40 s after
#   .ci/working-day.sh revise NAME     NAME approves the selected article (Ctrl+1, Ctrl+Enter) and, inside the 5 s
#                                      Undo window, a newer revision of every article NAME holds arrives (import)
#   .ci/working-day.sh stop            closes the windows, stops the server, Xvfb and openbox
#
# Window placement: edna 1278x775 (the app's default), eli 1024x640, eve at 150 % scaling
# (-Dglass.gtk.uiScale=1.5), sam (supervisor) with the dashboard. The supervisor's acts (force
# release, reassign, hold in the Queue tab) depend on where the dashboard lies: do them with the
# drive paused (touch $DAY/pause), by xdotool clicks on a screenshot's coordinates, as
# docs/reliability.md ("A working day in the real app") describes. The day there ran with
# DAY=target/dayrun.
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
DAY=${DAY:-$ROOT/target/working-day}
export DISPLAY=${WORKING_DAY_DISPLAY:-:57}
export COPYDESK_HOME=$DAY/home
PORT=${WORKING_DAY_PORT:-3399}
mkdir -p "$DAY"/{home,logs,shots,prefs}
CP_FILE=$DAY/classpath.txt

log() { echo "$(date -u +%T.%3N) $*" | tee -a "$DAY/logs/day.log"; }
classpath() {
    [[ -s $CP_FILE ]] || mvn -o -q dependency:build-classpath -Dmdep.outputFile="$CP_FILE" -Dmdep.includeScope=runtime >/dev/null
    echo "$ROOT/target/classes:$(cat "$CP_FILE")"
}
copydesk() { java -Djavafx.cachedir="$ROOT/target/javafx-cache" -classpath "$(classpath)" org.copydesk.ui.app.Launcher "$@"; }
window_jvm() { # NAME [JVM options…]: one app window in its own JVM, with preferences of its own
    local name=$1; shift
    mkdir -p "$DAY/prefs/$name"
    java -Djava.util.prefs.userRoot="$DAY/prefs/$name" -Djavafx.cachedir="$ROOT/target/javafx-cache" "$@" \
        -classpath "$(classpath)" org.copydesk.ui.app.Launcher >"$DAY/logs/$name.log" 2>&1 &
    echo $! >"$DAY/$name.pid"
}
win() { xdotool search --onlyvisible --pid "$(cat "$DAY/$1.pid")" 2>/dev/null | head -1; }
wait_win() { local w; for _ in $(seq 60); do w=$(win "$1"); [[ -n $w ]] && { echo "$w"; return; }; sleep 1; done; }
act() { xdotool windowactivate --sync "$1" >/dev/null 2>&1; sleep 0.3; }
shot() { import -window root "$DAY/shots/$1.png"; }
shot_window() { import -window "$2" "$DAY/shots/$1.png"; }
db_pid() { cat "$COPYDESK_HOME/server/run/"*.pid 2>/dev/null | head -1; }

sign_in() { # NAME PASSWORD [supervisor|copy-edit]: the sign-in form, then (editors) Start with the desks ticked
    local w; w=$(wait_win "$1"); sleep 4; act "$w"
    xdotool type --delay 30 "$1"; xdotool key Tab; xdotool type --delay 30 "$2"; xdotool key Return
    sleep 6
    # copy-edit: from Start back past Sport and Sign-off to News's Copy edit, ticked: work from that stage only
    [[ ${3:-} == copy-edit ]] && { act "$w"; xdotool key shift+Tab shift+Tab shift+Tab space; }
    # a supervisor goes straight to the dashboard: a second Enter would press Get articles
    [[ ${3:-} == supervisor ]] || { act "$w"; xdotool key Return; }
    log "signed in $1 (window $w)"
}

start_server() { # as docs/servers.md starts a team server
    copydesk server --bind 127.0.0.1 --port "$PORT" >>"$DAY/logs/server.log" 2>&1 & echo $! >"$DAY/server.pid"
    copydesk server --status --wait 3m
}

setup() {
    pgrep -f "Xvfb $DISPLAY " >/dev/null || { Xvfb "$DISPLAY" -screen 0 1920x1200x24 -nolisten tcp >"$DAY/logs/xvfb.log" 2>&1 & echo $! >"$DAY/xvfb.pid"; sleep 2; }
    openbox >"$DAY/logs/openbox.log" 2>&1 & echo $! >"$DAY/openbox.pid"
    start_server
    copydesk desks add news News --lease 30m
    copydesk desks add sport Sport --lease 30m
    for e in edna eli eve; do
        printf '%s\n' "$e-pass-2026" | copydesk editors add "$e" --role editor --capacity 5 --desks news,sport --password-stdin
    done
    printf '%s\n' "sam-pass-2026" | copydesk editors add sam --display-name "Sam Super" --role supervisor --desks news,sport --password-stdin
    # News has a review chain (docs/workflow.md): copy edit by anyone on the desk, Legal when asked (eve),
    # sign-off by someone other than whoever copy-edited it (four eyes); Sport has none, as before
    copydesk stages add news copy "Copy edit"
    copydesk stages add news legal Legal --when-asked --takers eve --lease 1h
    copydesk stages add news signoff Sign-off --four-eyes --lease 15m
    python3 - "$DAY/articles.json" <<'PY'
import json, random, sys
random.seed(7)
words = ("council budget vote harbour stadium coach transfer season rain flood bridge school teacher strike museum "
         "festival match goal injury election mayor river train delay market prices").split()
arts = []
for i in range(1, 91):
    paras = [" ".join(random.choice(words) for _ in range(60)).capitalize() + "." for _ in range(4)]
    arts.append({"external_id": f"day-{i:03d}", "desk": "news" if i % 3 else "sport",
                 "title": f"{random.choice(words).capitalize()} {random.choice(words)} {random.choice(words)} ({i})",
                 "byline": random.choice(["A. Writer", "B. Reporter", "C. Stringer"]),
                 "priority": random.choice([1, 2, 3, 3, 3, 4]), "body": "\n\n".join(paras)})
json.dump(arts, open(sys.argv[1], "w"), indent=1)
PY
    copydesk import "$DAY/articles.json"
    window_jvm edna; sign_in edna edna-pass-2026; xdotool windowmove "$(win edna)" 0 0
    window_jvm eli; sign_in eli eli-pass-2026 copy-edit; xdotool windowsize "$(win eli)" 1024 640; xdotool windowmove "$(win eli)" 890 40
    window_jvm eve -Dglass.gtk.uiScale=1.5; sign_in eve eve-pass-2026
    window_jvm sam; sign_in sam sam-pass-2026 supervisor
}

# Where the notes box is inside each editor's window (client-area pixels, for the sizes above).
notes_at() { case $1 in edna) echo "1117 286";; eli) echo "877 335";; eve) echo "1583 580";; esac; }

editor_step() { # NAME: type a note on the selected article, then decide, release or reload
    local name=$1 w r what; w=$(win "$name"); [[ -z $w ]] && return
    act "$w"
    ((RANDOM % 2)) && { xdotool key F5; sleep 2; } # Get articles: tops the list up to capacity
    read -r nx ny < <(notes_at "$name")
    xdotool mousemove --window "$w" "$nx" "$ny" click 1
    xdotool type --delay 20 "$name $(date -u +%T): facts and names checked. "
    sleep $((2 + RANDOM % 4))
    r=$((RANDOM % 100))
    if ((r < 8)); then what=release; xdotool key ctrl+shift+r
    elif ((r < 58)); then what=approve; xdotool key ctrl+1 ctrl+Return
    elif ((r < 73)); then what=reject; xdotool key ctrl+2 ctrl+Return
    elif ((r < 88)); then what=send_back; xdotool key ctrl+3 ctrl+Return
    elif ((r < 93)); then what=unreviewable; xdotool key ctrl+4 ctrl+Return
    else what=reload; xdotool key F5
    fi
    log "$name $what"
}

drive() { # SECONDS
    local until=$(($(date +%s) + $1)) n=0
    while (($(date +%s) < until)); do
        while [[ -e $DAY/pause ]]; do sleep 1; done
        for e in edna eli eve; do
            [[ -e $DAY/pause ]] && break
            editor_step "$e"; sleep $((3 + RANDOM % 5))
        done
        n=$((n + 1))
        ((n % 4 == 0)) && shot "drive-$(date -u +%H%M%S)"
        copydesk status --json >"$DAY/logs/status-$(date -u +%H%M%S).json" 2>&1
    done
}

freeze() { # SECONDS: the database stopped (SIGSTOP) while eli types; a screenshot of the screen every second or so
    local pid w secs=$1 t0; pid=$(db_pid); w=$(win eli); act "$w"
    read -r nx ny < <(notes_at eli)
    xdotool mousemove --window "$w" "$nx" "$ny" click 1
    xdotool key ctrl+a BackSpace
    t0=$(date +%s.%N); kill -STOP "$pid"; log "SIGSTOP database pid $pid"
    xdotool type --delay 60 "Typed while the database is frozen. "
    log "typed the first sentence"
    local i=0
    while (($(date +%s) - ${t0%.*} < secs)); do
        i=$((i + 1)); sleep 0.5; shot "freeze-$(printf %02d "$i")"
        if ((i == 15)); then xdotool type --delay 60 "Second sentence, still frozen. "; log "typed the second sentence"; fi
    done
    kill -CONT "$pid"; log "SIGCONT database pid $pid after $(echo "$(date +%s.%N) - $t0" | bc) s"
    for i in $(seq 1 20); do sleep 0.5; shot "thaw-$(printf %02d "$i")"; done
}

restart() { # SECONDS down
    local t0 i
    shot "restart-before"
    t0=$(date +%s.%N); copydesk server --stop; log "server stopped (copydesk server --stop)"
    for i in $(seq 1 $(($1 / 2))); do sleep 2; shot "restart-down-$(printf %02d "$i")"; done
    start_server; log "server back after $(echo "$(date +%s.%N) - $t0" | bc) s"
    for i in $(seq 1 20); do sleep 2; shot "restart-back-$(printf %02d "$i")"; done
}

revise() { # NAME
    local name=$1 w held
    held=$(copydesk status --json | python3 -c '
import json, re, sys
s = json.load(sys.stdin)
ids = [re.search(r"\((\d+)\)$", l["title"]).group(1) for l in s.get("leases", []) if l["editor"] == sys.argv[1]]
print(" ".join(ids))' "$name")
    [[ -z $held ]] && { log "revise: $name holds nothing"; return 1; }
    python3 - "$DAY/articles.json" "$DAY/revisions.json" $held <<'PY'
import json, sys
arts = {a["external_id"]: a for a in json.load(open(sys.argv[1]))}
out = []
for n in sys.argv[3:]:
    a = dict(arts[f"day-{int(n):03d}"])
    a["body"] = "A corrected first paragraph, sent by the writer.\n\n" + a["body"]
    out.append(a)
json.dump(out, open(sys.argv[2], "w"), indent=1)
PY
    w=$(win "$name"); act "$w"
    shot_window "revise-before" "$w"
    xdotool key ctrl+1 ctrl+Return; log "$name approved the selected article (Undo window open)"
    sleep 1.5
    copydesk import "$DAY/revisions.json"; log "revisions of articles ($held) imported"
    for i in $(seq 1 8); do sleep 1; shot_window "revise-$(printf %02d "$i")" "$w"; done
}

stop() {
    for n in edna eli eve sam; do [[ -s $DAY/$n.pid ]] && kill "$(cat "$DAY/$n.pid")" 2>/dev/null; done
    sleep 5
    copydesk server --stop
    for n in server openbox xvfb; do [[ -s $DAY/$n.pid ]] && kill "$(cat "$DAY/$n.pid")" 2>/dev/null; done
}

"$@"
