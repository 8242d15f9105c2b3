#!/usr/bin/env python3
"""Writes benchmark workloads: a long multi-DRM media playlist, as packagers produce for key rotation.

    generate.py media SEGMENTS OUT.m3u8
    generate.py library TITLES SEGMENTS OUT_DIR
    generate.py cpix PERIODS OUT.xml
    generate.py init OUT.mp4

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


def key_lines(period: int, rotating_uri: bool = True) -> list[str]:
    """The three keys of key period `period`. With `rotating_uri` the FairPlay URI names the period's key
    (`&kid=`), as a key-rotating title's must; without, it is the title's one URI, as packagers write it for
    a title whose FairPlay key does not rotate: then the other systems' KEYIDs do not rotate either (one key,
    its tags repeated each period), since one URI may stand for one key only."""
    kid = f"{period if rotating_uri else 0:032x}"
    fairplay_uri = f"skd://old-license.example.com/fps?cid=title-0001&kid={kid}" if rotating_uri else \
        "skd://old-license.example.com/fps?cid=title-0001"
    pssh = base64.b64encode(bytes.fromhex("000000347073736800000000" + kid)).decode()
    return [
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;base64,{pssh}",KEYID=0x{kid},'
        f'KEYFORMAT="{WIDEVINE}",KEYFORMATVERSIONS="1"',
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="data:text/plain;charset=UTF-16;base64,{pssh}",KEYID=0x{kid},'
        f'KEYFORMAT="{PLAYREADY}",KEYFORMATVERSIONS="1"',
        f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="{fairplay_uri}",'
        f'KEYFORMAT="{FAIRPLAY}",KEYFORMATVERSIONS="1"',
    ]


def media(segments: int, out, rotating_uri: bool = True) -> None:
    out.write("#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:7\n#EXT-X-MEDIA-SEQUENCE:0\n")
    out.write('#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-INDEPENDENT-SEGMENTS\n#EXT-X-MAP:URI="init.mp4"\n')
    lines = []
    for index in range(segments):
        if index % PERIOD == 0:
            lines.extend(key_lines(index // PERIOD, rotating_uri))
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


def cpix(periods: int, out) -> None:
    """The key server's CPIX document for the media playlist: a key per key period (the period's KEYID),
    each with FairPlay signaling for the new license server, a ContentKeyPeriod and a usage rule, as a
    key-rotating SPEKE v2 server answers."""
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n<cpix:CPIX xmlns:cpix="urn:dashif:org:cpix" '
              'contentId="title-0001" version="2.3">\n<cpix:ContentKeyList>\n')
    uuids = []
    # No periods: one key for the whole title and every track (no usage rules), as a VOD answer has.
    for period in range(max(periods, 1)):
        kid = f"{period:032x}"
        uuid = f"{kid[:8]}-{kid[8:12]}-{kid[12:16]}-{kid[16:20]}-{kid[20:]}"
        uuids.append((kid, uuid))
        out.write(f'<cpix:ContentKey kid="{uuid}" commonEncryptionScheme="cbcs"/>\n')
    out.write("</cpix:ContentKeyList>\n<cpix:DRMSystemList>\n")
    for kid, uuid in uuids:
        line = (f'#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://new-license.example.com/fps?cid=title-0001&kid={kid}",'
                f'KEYFORMAT="{FAIRPLAY}",KEYFORMATVERSIONS="1"')
        signaling = base64.b64encode(line.encode()).decode()
        out.write(f'<cpix:DRMSystem kid="{uuid}" systemId="94ce86fb-07ff-4f43-adb8-93d2fa968ca2">'
                  f'<cpix:HLSSignalingData playlist="media">{signaling}</cpix:HLSSignalingData></cpix:DRMSystem>\n')
    if periods == 0:
        out.write("</cpix:DRMSystemList>\n</cpix:CPIX>\n")
        return
    out.write("</cpix:DRMSystemList>\n<cpix:ContentKeyPeriodList>\n")
    for period in range(periods):
        out.write(f'<cpix:ContentKeyPeriod id="p{period}" index="{period}"/>\n')
    out.write("</cpix:ContentKeyPeriodList>\n<cpix:ContentKeyUsageRuleList>\n")
    for period, (kid, uuid) in enumerate(uuids):
        out.write(f'<cpix:ContentKeyUsageRule kid="{uuid}" intendedTrackType="ALL-{period}">'
                  f'<cpix:KeyPeriodFilter periodId="p{period}"/></cpix:ContentKeyUsageRule>\n')
    out.write("</cpix:ContentKeyUsageRuleList>\n</cpix:CPIX>\n")


def init_segment(kid: bytes) -> bytes:
    """A small fMP4 init segment: one 1280x720 video track, cbcs, default KID `kid`."""
    import struct

    def box(kind: str, payload: bytes) -> bytes:
        return struct.pack(">I", 8 + len(payload)) + kind.encode() + payload

    tenc = box("tenc", bytes([1, 0, 0, 0, 0, 0x19, 1, 0]) + kid + bytes([16]) + kid)
    sinf = box("sinf", box("frma", b"avc1") + box("schm", bytes(4) + b"cbcs" + struct.pack(">I", 0x10000)) + box("schi", tenc))
    entry = box("encv", bytes(6) + struct.pack(">H", 1) + bytes(16) + struct.pack(">HH", 1280, 720) + bytes(50) + sinf)
    hdlr = box("hdlr", bytes(8) + b"vide" + bytes(13))
    stsd = box("stsd", bytes(4) + struct.pack(">I", 1) + entry)
    trak = box("trak", box("tkhd", bytes([0, 0, 0, 7]) + bytes(8) + struct.pack(">I", 1) + bytes(68))
               + box("mdia", hdlr + box("minf", box("stbl", stsd))))
    return box("ftyp", b"iso6" + bytes(4) + b"iso6cmfc") + box("moov", box("mvhd", bytes(100)) + trak)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "cpix":
        with open(sys.argv[3], "w", encoding="utf-8", newline="\n") as handle:
            cpix(int(sys.argv[2]), handle)
    elif len(sys.argv) == 3 and sys.argv[1] == "init":
        with open(sys.argv[2], "wb") as handle:
            handle.write(init_segment(bytes(16)))
    elif len(sys.argv) == 4 and sys.argv[1] == "media":
        with open(sys.argv[3], "w", encoding="utf-8", newline="\n") as handle:
            media(int(sys.argv[2]), handle)
    elif len(sys.argv) == 5 and sys.argv[1] == "library":
        library(int(sys.argv[2]), int(sys.argv[3]), sys.argv[4])
    else:
        sys.exit(__doc__)
