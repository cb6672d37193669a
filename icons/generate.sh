#!/usr/bin/env bash
# Regenerates every icon file in this folder from copydesk.svg (see README.md).
#
#   PNG  copydesk-{16,24,32,48,64,128,256,512,1024}.png   window icons, Linux packages, docs
#   ICO  copydesk.ico   Windows (16-256 px in one file; jpackage --icon on Windows)
#   ICNS copydesk.icns  macOS (16-1024 px; jpackage --icon on macOS)
#
# Tools: rsvg-convert (Debian: librsvg2-bin) renders the SVG; without it ImageMagick's
# /usr/bin/convert does (its built-in renderer is cruder). ImageMagick writes the .ico;
# png2icns (Debian: icnsutils) writes the .icns, with ImageMagick as a fallback where it has ICNS.
# /usr/bin/convert is used by full path: some machines put a different `convert` first on the PATH.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")"
SOURCE=copydesk.svg
SIZES=(16 24 32 48 64 128 256 512 1024)
ICO_SIZES=(16 24 32 48 64 128 256)          # ICO tops out at 256
ICNS_SIZES=(16 32 48 128 256 512 1024)      # the sizes png2icns knows
CONVERT=${CONVERT:-/usr/bin/convert}

need() {
    echo "generate.sh: $1" >&2
    exit 1
}

[ -x "$CONVERT" ] || need "ImageMagick not found at $CONVERT (Debian: apt-get install imagemagick; or set CONVERT=...)"

render() { # size output
    if command -v rsvg-convert >/dev/null; then
        rsvg-convert --width "$1" --height "$1" --keep-aspect-ratio "$SOURCE" --output "$2"
    else
        "$CONVERT" -background none -density "$(( 72 * $1 / 1024 + 1 ))" "$SOURCE" -resize "${1}x${1}" "$2"
    fi
    # Drop ancillary chunks (timestamps, text) so regenerating an unchanged SVG changes no file.
    "$CONVERT" "$2" -strip -define png:exclude-chunks=date,time,tEXt,zTXt,iTXt "PNG32:$2"
}

for size in "${SIZES[@]}"; do
    render "$size" "copydesk-$size.png"
done

ico_inputs=()
for size in "${ICO_SIZES[@]}"; do ico_inputs+=("copydesk-$size.png"); done
"$CONVERT" "${ico_inputs[@]}" copydesk.ico

icns_inputs=()
for size in "${ICNS_SIZES[@]}"; do icns_inputs+=("copydesk-$size.png"); done
if command -v png2icns >/dev/null; then
    png2icns copydesk.icns "${icns_inputs[@]}" >/dev/null
elif "$CONVERT" -list format | grep -q '^ *ICNS'; then
    "$CONVERT" "${icns_inputs[@]}" copydesk.icns
else
    need "cannot write copydesk.icns: install png2icns (Debian: apt-get install icnsutils)"
fi

echo "generate.sh: wrote ${#SIZES[@]} PNGs, copydesk.ico (${#ICO_SIZES[@]} sizes), copydesk.icns (${#ICNS_SIZES[@]} sizes)"
