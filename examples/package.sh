#!/usr/bin/env bash
# The packaging step of an encoding pipeline: the packager wrote a title's playlists with whatever key
# URI it knows (or none); skdpack gives every FairPlay key the entitlement URI for this title (its content
# id from the catalogue, by title directory), adds FairPlay keys next to the other systems' keys where they
# are missing, and keeps the master's session keys in step. One title, in place, then a check that the
# result is what the template says.
#
#   examples/package.sh [TITLE_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
skdpack=${SKDPACK:-$(swift build --show-bin-path)/skdpack}
title=${1:-examples/library/multi-drm-title}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/library"
cp -R "$title" "$work/library/"
title_dir="$work/library/$(basename "$title")"

package=(apply --template entitlement-rotation --catalog examples/catalog.csv --session-keys)
"$skdpack" "${package[@]}" --in-place "$title_dir"
# A second run finds nothing to change: exit 0 from --check is the proof.
echo "a second run, --check (its summary on standard error):"
"$skdpack" "${package[@]}" --check "$title_dir" 2>&1
echo "the FairPlay key lines now in the title's playlists, counted:"
grep -h 'com.apple.streamingkeydelivery' "$title_dir"/*.m3u8 | sort | uniq -c
echo "the https URL a player's resource loader requests for the first key:"
"$skdpack" resolve --allow-host lic.example.com "$(grep -ho 'skd://[^"]*' "$title_dir"/*.m3u8 | head -1)"
