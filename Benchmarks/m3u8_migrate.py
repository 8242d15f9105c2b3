"""The Python m3u8 package doing the migration skdpack's benchmark does: load, edit the FairPlay key URIs,
dump. (The package keeps one EXT-X-KEY per segment, so the other systems' keys are lost on the way: a
correctness gap the benchmark reports but does not count against it.)"""
import re
import sys

import m3u8

OLD = re.compile(r"skd://old-license\.example\.com/fps\?cid=([^&]+)&kid=([0-9a-f]+)")
NEW = r"skd://new-license.example.com/fps?cid=\1&kid=\2"

playlist = m3u8.load(sys.argv[1])
for key in playlist.keys:
    if key is not None and key.keyformat == "com.apple.streamingkeydelivery" and key.uri:
        key.uri = OLD.sub(NEW, key.uri)
sys.stdout.write(playlist.dumps())
