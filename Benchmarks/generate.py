#!/usr/bin/env python3
"""Writes benchmark workloads: a long multi-DRM media playlist, as packagers produce for key rotation.

    generate.py media SEGMENTS OUT.m3u8
    generate.py library TITLES SEGMENTS OUT_DIR

Every 100 segments a new key period starts with three EXT-X-KEY tags: Widevine, PlayReady and FairPlay,
all METHOD=SAMPLE-AES (cbcs), the FairPlay one pointing at a legacy license server, the thing a migration
rewrites.
"""
import base64
import sys

WIDEVINE = "urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
PLAYREADY = "com.microsoft.playready"
FAIRPLAY = "com.apple.streamingkeydelivery"
PERIOD = 100


def key_lines(period: int) -> list[str]:
    kid = f"{period:032x}"
    pssh = base64.b64encode(bytes.fromhex("000000347073736800000000" + kid)).decode()
    return [
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,{pssh}",KEYID=0x{kid},'
        f'KEYFORMAT="{WIDEVINE}",KEYFORMATVERSIONS="1"',
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;charset=UTF-16;base64,{pssh}",KEYID=0x{kid},'
        f'KEYFORMAT="{PLAYREADY}",KEYFORMATVERSIONS="1"',
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://old-license.example.com/fps?cid=title-0001&kid={kid}",'
        f'KEYFORMAT="{FAIRPLAY}",KEYFORMATVERSIONS="1"',
    ]


def media(segments: int, out) -> None:
    out.write("#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:7\n#EXT-X-MEDIA-SEQUENCE:0\n")
    out.write('#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI="init.mp4"\n')
    lines = []
    for index in range(segments):
        if index % PERIOD == 0:
            lines.extend(key_lines(index // PERIOD))
        lines.append("#EXTINF:6.006,")
        lines.append(f"segment-{index:07d}.m4s")
        if len(lines) > 10000:
            out.write("\n".join(lines) + "\n")
            lines = []
    if lines:
        out.write("\n".join(lines) + "\n")
    out.write("#EXT-X-ENDLIST\n")


RENDITIONS = ["video-360p", "video-540p", "video-720p", "video-1080p", "audio-en", "iframes"]


def library(titles: int, segments: int, root) -> None:
    """A content library: per title a master and six media playlists (four video, one audio, one I-frame),
    `segments` segments each with keys in every period, and the master's FairPlay session key."""
    import os

    for number in range(titles):
        directory = os.path.join(root, f"title-{number:04d}")
        os.makedirs(directory, exist_ok=True)
        session = key_lines(0)[2].replace("#EXT-X-KEY:", "#EXT-X-SESSION-KEY:")
        master = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-INDEPENDENT-SEGMENTS", session,
                  '#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aac",NAME="English",LANGUAGE="en",DEFAULT=YES,URI="audio-en.m3u8"']
        for index, name in enumerate(RENDITIONS[:4]):
            master.append(f'#EXT-X-STREAM-INF:BANDWIDTH={(index + 1) * 1000000},CODECS="avc1.64001f,mp4a.40.2",AUDIO="aac"')
            master.append(f"{name}.m3u8")
        master.append('#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.64001f",URI="iframes.m3u8"')
        with open(os.path.join(directory, "master.m3u8"), "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(master) + "\n")
        for name in RENDITIONS:
            with open(os.path.join(directory, f"{name}.m3u8"), "w", encoding="utf-8", newline="\n") as handle:
                media(segments, handle)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "media":
        with open(sys.argv[3], "w", encoding="utf-8", newline="\n") as handle:
            media(int(sys.argv[2]), handle)
    elif len(sys.argv) == 5 and sys.argv[1] == "library":
        library(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
