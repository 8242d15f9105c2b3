"""The Python m3u8 package doing the library migration of skdpack's benchmark, file by file in one process:
load each playlist, edit its FairPlay key URIs (and a master's session keys), dump it in place."""
import os
import re
import sys

import m3u8

OLD = re.compile(r"skd://old-license\.example\.com/fps\?cid=([^&]+)&kid=([0-9a-f]+)")
NEW = r"skd://new-license.example.com/fps?cid=\1&kid=\2"

for directory, _, files in sorted(os.walk(sys.argv[1])):
    for name in sorted(files):
        if not name.endswith(".m3u8"):
            continue
        path = os.path.join(directory, name)
        playlist = m3u8.load(path)
        for key in list(playlist.keys) + list(getattr(playlist, "session_keys", [])):
            if key is not None and key.keyformat == "com.apple.streamingkeydelivery" and key.uri:
                key.uri = OLD.sub(NEW, key.uri)
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(playlist.dumps())
