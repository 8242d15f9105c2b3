#!/usr/bin/env bash
# Key truth on a copy of examples/key-truth: what the key server's CPIX document says, what an init
# segment says, the title packaged from the document (each track its own key), validated against the
# document and the media; then one init segment swapped, as a packaging mistake would, and caught.
set -euo pipefail
cd "$(dirname "$0")"
skdpack=${SKDPACK:-skdpack}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R key-truth/title key-truth/keys.xml "$work/"

echo "-- cpix show: the keys, their FairPlay signaling and the usage rules"
"$skdpack" cpix show "$work/keys.xml" | sed 's/^/   /'
echo "-- inspect: the HD init segment's protection"
"$skdpack" inspect "$work/title/video-1080-init.mp4" | grep -E '"(scheme|defaultKID|pattern|width|height)"' | sed 's/^/   /'
echo "-- apply --cpix: the packager wrote no keys (--assume-encrypted): each playlist gets the key of its track, the master its session keys"
"$skdpack" apply --template cpix --cpix "$work/keys.xml" --assume-encrypted --session-keys --in-place --no-progress "$work/title"
grep -h '^#EXT-X-KEY\|^#EXT-X-SESSION-KEY' "$work"/title/*.m3u8 | sed 's/^/   /'
echo "-- validate --media --cpix: every key against the document and the init segments"
"$skdpack" validate --media --cpix "$work/keys.xml" --no-progress "$work/title"
echo "-- the SD and HD init segments swapped: validate names both playlists (exit status 1 expected)"
mv "$work/title/video-480-init.mp4" "$work/swap.mp4"
mv "$work/title/video-1080-init.mp4" "$work/title/video-480-init.mp4"
mv "$work/swap.mp4" "$work/title/video-1080-init.mp4"
if NO_COLOR=1 "$skdpack" validate --media --cpix "$work/keys.xml" --no-progress "$work/title"; then
    echo "   the swap went unnoticed" >&2
    exit 1
fi
echo "   (as expected: validate caught the swap and exited 1; the demo goes on)"
