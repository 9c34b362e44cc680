#!/bin/sh
# Remakes the demo pictures: draw.py writes the SVGs, Chromium rasterises
# each at 960x720 (avatars at 480x480), and the image package's variant
# code writes the JPEG and WebP variants here (the files the server
# embeds). Run from anywhere.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$here"
python3 draw.py
# With names (./render.sh avatar-fish ...) only those pictures are remade.
if [ $# -eq 0 ]; then set -- $(cd svg && ls *.svg | sed 's/\.svg$//'); fi
for n in "$@"; do
	size=960,720
	case $n in avatar-*) size=480,480 ;; esac # avatars: square, shown small
	chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=$size \
		--screenshot="$tmp/$n.png" "file://$here/svg/$n.svg" >/dev/null 2>&1
done
cd "$here/.."
HMDP_RENDER_DEMO=$tmp go test -count=1 -run 'TestRenderDemoPictures$' .
