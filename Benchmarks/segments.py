"""The workloads of validate --segments: real media from ffmpeg (Debian's package), 4-second segments of
320x180 H.264 at about 800 kbit/s and AAC, in three forms (fMP4 files, fMP4 byte ranges of one file, MPEG-TS),
each made once and then linked (hard links: the bytes are the same file) into as many titles as a library
of the size asked needs.

Imported by run.py (`--only segments`).
"""
import os
import shutil
import subprocess
from pathlib import Path

FORMS = {
    # name: (segment type, extra ffmpeg options)
    "fmp4": ("fmp4", []),
    "byterange": ("fmp4", ["-hls_flags", "single_file"]),
    "ts": ("mpegts", []),
}
SEGMENTS_PER_TITLE = 10


def source_titles(work: Path) -> dict[str, Path] | None:
    """One title of each form, made by ffmpeg once (kept under work/segment-sources); None without ffmpeg."""
    if shutil.which("ffmpeg") is None:
        return None
    sources = {}
    for form, (kind, extra) in FORMS.items():
        folder = work / "segment-sources" / form
        sources[form] = folder
        if (folder / "title.m3u8").exists():
            continue
        folder.mkdir(parents=True, exist_ok=True)
        suffix = "m4s" if kind == "fmp4" else "ts"
        naming = [] if "single_file" in extra else ["-hls_segment_filename", f"segment-%d.{suffix}"]
        subprocess.run(
            ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x180:rate=25", "-f", "lavfi",
             "-i", "sine=frequency=440:sample_rate=48000", "-t", str(4 * SEGMENTS_PER_TITLE), "-c:v", "libx264",
             "-preset", "ultrafast", "-b:v", "800k", "-maxrate", "800k", "-bufsize", "1600k", "-g", "100",
             "-keyint_min", "100", "-sc_threshold", "0", "-pix_fmt", "yuv420p", "-c:a", "aac", "-b:a", "64k", "-f", "hls",
             "-hls_time", "4", "-hls_playlist_type", "vod", "-hls_segment_type", kind] + naming + extra + ["title.m3u8"],
            cwd=folder, check=True)
    return sources


def segment_library(work: Path, sources: dict[str, Path], segments: int) -> Path:
    """A library of about `segments` segments: titles of each form in turn, each a folder with its playlist
    and hard links to its source's media files."""
    root = work / f"segments-{segments}"
    if root.exists():
        return root
    titles = max(1, segments // SEGMENTS_PER_TITLE)
    forms = list(FORMS)
    for index in range(titles):
        form = forms[index % len(forms)]
        folder = root / f"title-{index:05d}-{form}"
        folder.mkdir(parents=True)
        for file in sources[form].iterdir():
            if file.is_file():
                os.link(file, folder / file.name)
    return root


def media_files(root: Path) -> list[Path]:
    """Every media file of a library (segments, init segments, single files), as `cat` of every byte reads them."""
    return sorted(path for path in root.rglob("*") if path.is_file() and path.suffix in (".ts", ".m4s", ".mp4"))
