"""The HTML report in a real browser (Debian's chromium, driven by Selenium): what a person sees, checked
through the DOM against the JSON report the same run wrote, and screenshots saved.

    report_in_browser.py SKDPACK REPO_ROOT OUTPUT_DIR

Pages: the example library after a migration (apply), and validate --segments over a title made here from
examples/segments with a master whose BANDWIDTH is too low, beside the key-rotating multi-drm title; and a
title whose name is markup and script. Exit 0 when every check holds; each failure is printed.
"""
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

SKDPACK, ROOT, OUT = Path(sys.argv[1]).resolve(), Path(sys.argv[2]).resolve(), Path(sys.argv[3]).resolve()
OUT.mkdir(parents=True, exist_ok=True)
failures = []


def check(condition, what):
    if not condition:
        failures.append(what)
        print(f"FAIL {what}", flush=True)


def run(*arguments, cwd=None):
    return subprocess.run([str(SKDPACK), *map(str, arguments)], capture_output=True, text=True, cwd=cwd)


def browser():
    options = Options()
    for argument in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,2000", "--disable-dev-shm-usage"]:
        options.add_argument(argument)
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    return webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver"), options=options)


def page_checks(driver, report, problems):
    """What a person sees against what the JSON report says; returns the problems found."""
    def expect(condition, what):
        if not condition:
            problems.append(what)
    summary = report["summary"]
    text = lambda id: driver.find_element(By.ID, id).text.strip()
    expect(text("total-playlists") == str(summary["playlistsRead"]), f"playlists {text('total-playlists')} != {summary['playlistsRead']}")
    expect(text("total-errors") == str(summary["errors"]), f"errors {text('total-errors')} != {summary['errors']}")
    expect(text("total-warnings") == str(summary["warnings"]), f"warnings {text('total-warnings')} != {summary['warnings']}")
    packages = sorted({p["package"] for p in report["playlists"]})
    expect(text("total-titles") == str(len(packages)), f"titles {text('total-titles')} != {len(packages)}")
    # The summary is shown first though written last.
    first = driver.find_elements(By.CSS_SELECTOR, "main > section")
    shown_first = min(first, key=lambda e: e.location["y"])
    expect(shown_first.get_attribute("id") == "summary", "the summary is not shown first")
    sections = driver.find_elements(By.CSS_SELECTOR, "section.title")
    expect(len(sections) == len(packages), f"{len(sections)} title sections for {len(packages)} packages")
    for package, section in zip(packages, sections):
        playlists = [p for p in report["playlists"] if p["package"] == package]
        errors = sum(1 for p in playlists for d in p["diagnostics"] if d["severity"] == "error")
        expect(section.get_attribute("data-status") == ("fail" if errors else "pass"), f"{package}: status")
        expect(package in section.find_element(By.TAG_NAME, "h2").text, f"{package}: heading")
        declared = [p["declared"] for p in playlists if p.get("declared")]
        rows = section.find_elements(By.CSS_SELECTOR, "table.variants tbody tr")
        expect(len(rows) == sum(len(d["variants"]) for d in declared), f"{package}: {len(rows)} variant rows")
        timelines = section.find_elements(By.CSS_SELECTOR, ".timeline")
        # One timeline for the playlists whose periods start at the same times with the same keys.
        with_periods = []
        for p in playlists:
            schedule = [(k["startMilliseconds"], k["durationMilliseconds"], json.dumps(k["keys"], sort_keys=True)) for k in p.get("keyPeriods") or []]
            if schedule and schedule not in [s for s, _ in with_periods]:
                with_periods.append((schedule, p))
        with_periods = [p for _, p in with_periods]
        expect(len(timelines) == len(with_periods), f"{package}: {len(timelines)} timelines for {len(with_periods)} schedules")
        for timeline, playlist in zip(timelines, with_periods):
            bands = timeline.find_elements(By.CSS_SELECTOR, ".period")
            expect(len(bands) == len(playlist["keyPeriods"]), f"{playlist['path']}: {len(bands)} bands")
            # Each band as wide as its period lasts, against the whole.
            total = sum(k["durationMilliseconds"] for k in playlist["keyPeriods"]) or 1
            width = sum(b.size["width"] for b in bands) or 1
            for band, period in zip(bands, playlist["keyPeriods"]):
                share = period["durationMilliseconds"] / total
                expect(abs(band.size["width"] / width - share) < 0.03 or share < 0.01,
                       f"{playlist['path']} line {period['line']}: band {band.size['width'] / width:.2f} of the timeline for {share:.2f} of the time")
                encrypted = [k for k in period["keys"] if k["method"] != "NONE"]
                kind = "clear" if not encrypted else "fairplay" if any(k["format"] == "com.apple.streamingkeydelivery" for k in encrypted) else "other"
                expect(kind in band.get_attribute("class"), f"{playlist['path']} line {period['line']}: band {band.get_attribute('class')}")
                expect(band.size["width"] > 0, f"{playlist['path']}: a band has no width")
        # The title's keys, aligned by key: a row per KEYID (else per FairPlay URI) of its periods.
        names = []
        for p in playlists:
            for period in p.get("keyPeriods") or []:
                fairplay = [k for k in period["keys"] if k["format"].lower() == "com.apple.streamingkeydelivery" and k["method"] != "NONE"]
                if not fairplay:
                    continue
                kids = [k["keyID"] for k in period["keys"] if k.get("keyID")]
                name = "kid:" + kids[0] if kids else "uri:" + fairplay[0].get("uri", "")
                if name not in names:
                    names.append(name)
        key_rows = section.find_elements(By.CSS_SELECTOR, "table.title-keys tbody tr")
        expect(len(key_rows) == min(len(names), 20) + (1 if len(names) > 20 else 0), f"{package}: {len(key_rows)} key rows for {len(names)} keys")
        for row, name in zip(key_rows, names):
            if name.startswith("kid:"):
                expect(name[4:] in row.text, f"{package}: the row of {name} shows {row.text!r}")
        charts = section.find_elements(By.CSS_SELECTOR, "svg.bitrate")
        measured = [p for p in playlists if (p.get("measured") or {}).get("segments")]
        expect(len(charts) == len(measured), f"{package}: {len(charts)} charts")
        for chart, playlist in zip(charts, measured):
            bars = chart.find_elements(By.CSS_SELECTOR, "rect.segment")
            expect([int(b.get_attribute("data-bitrate")) for b in bars] == [s["bitRate"] for s in playlist["measured"]["segments"]],
                   f"{playlist['path']}: chart points")
        found = {}
        for p in playlists:
            for d in p["diagnostics"]:
                found[d["rule"]] = found.get(d["rule"], 0) + 1
        counted = {r.find_elements(By.TAG_NAME, "td")[1].text: int(r.find_elements(By.TAG_NAME, "td")[2].text)
                   for r in section.find_elements(By.CSS_SELECTOR, "table.findings tbody tr")}
        expect(counted == found, f"{package}: findings by rule {counted} != {found}")
    return problems


def load(driver, html):
    driver.get(html.as_uri())
    return driver


work = Path(tempfile.mkdtemp(prefix="skdpack-browser-"))
driver = browser()
try:
    # 1. The example library after a migration, with a token in the new URIs (secrets hidden).
    library = work / "library"
    shutil.copytree(ROOT / "examples" / "library", library)
    token = "SeCrEt" + "Tok3n" * 4
    # The ExpressPlay template marks its token secret. One token for the library: its titles said to share it.
    result = run("apply", "--template", "expressplay-token", "--var", f"token={token}", "--allow-shared-content-id", "--in-place", "--no-progress",
                 "--report", work / "migration.json", "--report", work / "migration.html", library)
    check(result.returncode in (0, 1), f"apply: {result.returncode} {result.stderr[-300:]}")
    html = (work / "migration.html").read_text(encoding="utf-8")
    check(token not in html, "the token shows in the migration page")
    load(driver, work / "migration.html")
    report = json.loads((work / "migration.json").read_text(encoding="utf-8"))
    problems = page_checks(driver, report, [])
    for problem in problems:
        check(False, f"migration page: {problem}")
    afters = [c.text for c in driver.find_elements(By.CSS_SELECTOR, "table.migration tbody tr td:nth-child(3)")]
    check(len(afters) > 0, "no key URI changes shown")
    check(all("ExpressPlayToken=" in a and token not in a for a in afters), f"a new URI shows its token: {afters[:3]}")
    check(driver.find_element(By.ID, "total-rewritten").text == str(report["summary"]["keysRewritten"]), "keys rewritten")
    driver.save_screenshot(str(OUT / "migration.png"))

    # 2. validate --segments: a title with findings (BANDWIDTH below the measure) beside the key-rotating one.
    title = work / "titles" / "segments-title"
    shutil.copytree(ROOT / "examples" / "segments", title)
    (title / "master.m3u8").write_text(
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-STREAM-INF:BANDWIDTH=20000,AVERAGE-BANDWIDTH=10000,CODECS=\"avc1.4d400c,mp4a.40.2\",RESOLUTION=160x90\ntitle.m3u8\n",
        encoding="utf-8")
    shutil.copytree(ROOT / "examples" / "library" / "multi-drm-title", work / "titles" / "multi-drm-title")
    run("validate", "--segments", "--no-progress", "--report", work / "segments.json", "--report", work / "segments.html", work / "titles")
    load(driver, work / "segments.html")
    report = json.loads((work / "segments.json").read_text(encoding="utf-8"))
    for problem in page_checks(driver, report, []):
        check(False, f"segments page: {problem}")
    differs = driver.find_elements(By.CSS_SELECTOR, "table.variants td.differs")
    check(len(differs) >= 1, "the BANDWIDTH below the peak is not marked")
    lines = driver.find_elements(By.CSS_SELECTOR, "svg.bitrate line.declared.bandwidth")
    check(len(lines) == 1 and lines[0].get_attribute("data-rate") == "20000", "the declared BANDWIDTH line")
    check(len(driver.find_elements(By.CSS_SELECTOR, "#must-fix tbody tr")) >= 1, "no must-fix rules")
    driver.save_screenshot(str(OUT / "segments.png"))

    # The check itself fails on a wrong page: a variant row taken out, a timeline band relabelled.
    wrong = (work / "segments.html").read_text(encoding="utf-8")
    start = wrong.index("<tbody>", wrong.index('class="variants"'))
    wrong = wrong[:start + 7] + wrong[wrong.index("</tr>", start) + 5:]
    (work / "wrong.html").write_text(wrong.replace('class="period fairplay"', 'class="period clear"', 1), encoding="utf-8")
    load(driver, work / "wrong.html")
    problems = page_checks(driver, report, [])
    check(any("variant rows" in p for p in problems) and any("band" in p for p in problems), f"a wrong page passes: {problems}")

    # 3. A title named with markup and script runs nothing and shows its name as text.
    hostile = "<img src=x onerror=\"window.pwned=1\"><script>window.pwned=2</script>"
    folder = work / "hostile" / hostile.replace("/", "_")
    shutil.copytree(ROOT / "examples" / "library" / "legacy-title", folder)
    run("validate", "--no-progress", "--report", work / "hostile.html", work / "hostile")
    load(driver, work / "hostile.html")
    check(driver.execute_script("return window.pwned === undefined"), "the hostile title name ran script")
    check(len(driver.find_elements(By.CSS_SELECTOR, "section.title img, section.title script")) == 0, "the title name became markup")
    check(hostile.replace("/", "_") in driver.find_element(By.CSS_SELECTOR, "section.title h2").text, "the title name is not shown as text")
    check(len(driver.find_elements(By.CSS_SELECTOR, "script, link, img")) == 0, "the page loads something")
    driver.save_screenshot(str(OUT / "hostile.png"))
finally:
    driver.quit()
    shutil.rmtree(work, ignore_errors=True)

print(f"browser: {'FAILED ' + str(len(failures)) if failures else 'all checks passed'}; screenshots in {OUT}")
sys.exit(1 if failures else 0)
