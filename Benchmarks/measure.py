#!/usr/bin/env python3
"""Runs whole commands: pairs of them in turns (wall time, judged on the median ratio), and the peak
resident set of one, as GNU time reports it.

Imported by run.py; every figure it prints is measured in the same run as the figures it is compared with.
"""
import os
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path


TIME = "/usr/bin/time"


def peak_rss_kib(argv, stdout_path=None, runs=1) -> int | None:
    """The largest peak resident set of `runs` runs of `argv` (a list, or a shell string), in KiB, as GNU
    time reports it for the command it starts; None where GNU time is not installed.

    Not os.wait4's ru_maxrss of a child of this process: at exec, Linux folds the resident set the child
    had before it (a copy of this Python process's) into that figure, so every command measured 15 MiB
    or more that way, /bin/true included, and no memory target could fail. time is a small process: what
    it reports has a floor of about 1 MiB."""
    if not os.access(TIME, os.X_OK):
        return None
    command = argv if isinstance(argv, list) else ["sh", "-c", argv]
    peak = 0
    with tempfile.NamedTemporaryFile() as report:
        for _ in range(runs):
            with open(stdout_path or os.devnull, "wb") as stdout:
                result = subprocess.run([TIME, "-f", "%M", "-o", report.name] + command, stdout=stdout,
                                        stderr=subprocess.DEVNULL)
            if result.returncode not in (0, 1):
                raise SystemExit(f"{argv} failed with exit status {result.returncode}")
            # A command that exits 1 gets a line of its own before the figure.
            peak = max(peak, int(Path(report.name).read_text().split()[-1]))
    return peak


@dataclass
class Pairing:
    """Two commands timed in turns: the median, least and greatest of the ratios second/first of each
    pair, and each command's median time."""
    ratio: float
    least: float
    greatest: float
    first_seconds: float
    second_seconds: float


def paired(first, second, pairs=21, stdout_path=None) -> Pairing:
    """Runs `first` and `second` (argument lists, started without a shell) one after the other, `pairs`
    times, and judges on the median of the per-pair ratios: a slow moment of the machine falls on both
    runs of a pair, and the median does not flatter as the best run does."""
    import statistics

    # Each command writes a file of its own (the first `stdout_path` + ".first"), as a user's two commands
    # would, so that neither rewrites the file the other has just written and closed.
    first_path = None if stdout_path is None else f"{stdout_path}.first"

    def once(argv, path) -> float:
        with open(path or os.devnull, "wb") as stdout:
            start = time.perf_counter()
            process = subprocess.Popen(argv, stdout=stdout, stderr=subprocess.DEVNULL)
            _, status, _ = os.wait4(process.pid, 0)
            elapsed = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) not in (0, 1):
            raise SystemExit(f"{argv} failed with exit status {os.waitstatus_to_exitcode(status)}")
        return elapsed

    firsts, seconds, ratios = [], [], []
    for _ in range(pairs):
        a = once(first, first_path)
        b = once(second, stdout_path)
        firsts.append(a)
        seconds.append(b)
        ratios.append(b / a)
    if first_path is not None:
        os.unlink(first_path)
    return Pairing(statistics.median(ratios), min(ratios), max(ratios), statistics.median(firsts), statistics.median(seconds))
