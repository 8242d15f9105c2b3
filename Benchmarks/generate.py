#!/usr/bin/env python3
"""Writes benchmark workloads: a long multi-DRM media playlist, as packagers produce for key rotation.

    generate.py media SEGMENTS OUT.m3u8

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


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] != "media":
        sys.exit(__doc__)
    with open(sys.argv[3], "w", encoding="utf-8", newline="\n") as handle:
        media(int(sys.argv[2]), handle)
