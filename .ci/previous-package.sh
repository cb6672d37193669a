#!/usr/bin/env bash
# The previous release's Linux .deb packages, for the upgrade test of .ci/installed-package.sh:
# built from git (PREVIOUS_RELEASE_COMMIT, default 99512e1, the last commit before the packages
# became services) with that commit's own packaging/build-installer.sh, in a scratch folder (git
# archive: no worktree is added to the repository). Cached by commit under
# ${XDG_CACHE_HOME:-~/.cache}/copydesk-ci; prints the folder holding the two packages as its last line.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
commit=$(git rev-parse "${PREVIOUS_RELEASE_COMMIT:-99512e1}^{commit}")
cache=${XDG_CACHE_HOME:-$HOME/.cache}/copydesk-ci/previous-$commit
if ls "$cache"/copydesk_*.deb "$cache"/copydesk-standalone_*.deb >/dev/null 2>&1; then
    echo "previous-package: using the packages of $commit built earlier"
    echo "$cache"
    exit 0
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
git archive "$commit" | tar -x -C "$scratch"
echo "previous-package: building the packages of $commit in $scratch"
# that script's jpackage compresses its .deb with xz (minutes for jars that are compressed already):
# a light gzip here instead, through a dpkg-deb first on the PATH
mkdir -p "$scratch/ci-bin"
dpkg_deb=$(command -v dpkg-deb)
printf '#!/bin/sh\ncase " $* " in *" -b "*|*" --build "*) exec %s -Zgzip -z1 "$@" ;; esac\nexec %s "$@"\n' \
    "$dpkg_deb" "$dpkg_deb" >"$scratch/ci-bin/dpkg-deb"
chmod +x "$scratch/ci-bin/dpkg-deb"
(cd "$scratch" && PATH="$scratch/ci-bin:$PATH" packaging/build-installer.sh --type deb)
mkdir -p "$cache"
cp "$scratch"/target/installer/dist/*.deb "$cache/"
echo "$cache"
