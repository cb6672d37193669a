#!/usr/bin/env python3
"""Prints, NUL-separated, the command a systemd unit's Exec line runs, as systemd would expand it:
KEY=VALUE pairs of its environment (Environment=, then EnvironmentFile=), then the argv of the
line ("$VAR" splits into words, "${VAR}" stays one word). For CI machines where systemd is not
running: the job then runs the installed unit's own command as its User=.

Usage: unit-command.py UNIT-FILE ExecStart|ExecStartPre|User
"""
import re
import shlex
import sys

unit, key = sys.argv[1], sys.argv[2]
env, lines, user = {}, {}, None
for raw in open(unit, encoding="utf-8"):
    line = raw.strip()
    if not line or line.startswith("#") or "=" not in line:
        continue
    name, value = line.split("=", 1)
    if name == "Environment":
        for pair in shlex.split(value):
            k, v = pair.split("=", 1)
            env[k] = v
    elif name == "EnvironmentFile":
        path = value.lstrip("-")
        for entry in open(path, encoding="utf-8"):
            entry = entry.strip()
            if entry and not entry.startswith("#") and "=" in entry:
                k, v = entry.split("=", 1)
                env[k] = v.strip().strip('"')
    elif name == "User":
        user = value
    else:
        lines[name] = value

if key == "User":
    print(user)
    sys.exit(0)
words = []
for word in shlex.split(lines[key].lstrip("-")):
    whole = re.fullmatch(r"\$\{(\w+)\}", word)
    split = re.fullmatch(r"\$(\w+)", word)
    if whole:
        words.append(env.get(whole.group(1), ""))
    elif split:
        words.extend(env.get(split.group(1), "").split())
    else:
        words.append(re.sub(r"\$\{(\w+)\}", lambda m: env.get(m.group(1), ""), word))
sys.stdout.write("\0".join([f"{k}={v}" for k, v in env.items()] + ["--"] + words))
