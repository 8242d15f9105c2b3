#!/usr/bin/env bash
# A license-server migration over a content library: every FairPlay key URI is rewritten for the new
# entitlement server, keeping each title's content id, which --match reads out of the key's URI: the
# bare id of an old skd://{content_id} key, or the cid of a key already migrated (so that a second run
# changes nothing). --session-keys gives each master the FairPlay session keys its media playlists use
# (what lets a player request the key before the first segment; validate warns of a master that announces
# some session keys but not all its media playlists' FairPlay keys).
# First a diff to review, then the run, then a check that nothing is left to do.
#
#   examples/migrate.sh [LIBRARY]
set -euo pipefail
cd "$(dirname "$0")/.."
skdpack=${SKDPACK:-$(swift build --show-bin-path)/skdpack}
library=${1:-examples/library}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$library" "$work/library"

migrate=(apply --template entitlement-rotation --var entitlement_url=https://new-lic.example.com/fps
         --match '(?:.*[?&]cid=|^skd://)(?<content_id>[^/?&]+)' --session-keys)

echo "== what would change (the first lines of the diff)"
"$skdpack" "${migrate[@]}" --diff "$work/library" > "$work/migration.diff"
head -24 "$work/migration.diff"
echo "... $(grep -c '^+#EXT' "$work/migration.diff") lines change in all"
echo "== migrating"
"$skdpack" "${migrate[@]}" --in-place "$work/library"
echo "== checking"
"$skdpack" "${migrate[@]}" --check "$work/library" && echo "nothing left to migrate"
echo "== validating the migrated library before it is published: every key from the template, on the new server"
"$skdpack" validate --template entitlement-rotation --var entitlement_url=https://new-lic.example.com/fps \
    --allow-host new-lic.example.com "$work/library"
