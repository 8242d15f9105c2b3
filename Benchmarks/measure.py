#!/usr/bin/env python3
"""Runs whole commands and reports wall time and peak RSS, each the best of several runs.

Imported by run.py; every figure it prints is measured in the same run as the figures it is compared with.
"""
import os
import subprocess
import time
from dataclasses import dataclass


@dataclass
class Measurement:
    seconds: float
    peak_rss_kib: int


def measure(argv, stdout_path=None, stdin_path=None, runs=5, env=None, budget=0.0) -> Measurement:
    """Best wall time and largest peak RSS over `runs` runs of argv (a list) or a shell string; with a
    `budget` in seconds, more runs if they fit in it (at most 200), so that a command of a few milliseconds,
    whose single runs a busy machine spreads by as much again, is timed as closely as one of a second."""
    best = float("inf")
    peak = 0
    done = 0
    while done < runs:
        done += 1
        stdout = open(stdout_path or os.devnull, "wb")
        stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
        shell = isinstance(argv, str)
        start = time.perf_counter()
        process = subprocess.Popen(argv, stdout=stdout, stdin=stdin, stderr=subprocess.DEVNULL, shell=shell, env=env)
        _, status, usage = os.wait4(process.pid, 0)
        elapsed = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stdout.close()
        if stdin_path:
            stdin.close()
        if process.returncode not in (0, 1):
            raise SystemExit(f"{argv} failed with exit status {process.returncode}")
        best = min(best, elapsed)
        peak = max(peak, usage.ru_maxrss)
        if done == 1 and budget > 0:
            runs = max(runs, min(200, int(budget / max(elapsed, 1e-4))))
    return Measurement(best, peak)


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
