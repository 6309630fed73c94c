"""make bench's web figures: the site's size, and the time from page load to the first frame
in headless Chromium; the bytes the frame loop allocates on the web board's pins."""

import json
import os
import statistics
import time

from host_tools.errors import UserError
from host_tools.web import browser, build
from host_tools.web.server import SiteServer

HERE = os.path.dirname(os.path.abspath(__file__))
RUNS = 5
SCRIPT = "cw 3; click; ccw 1; double; long; wait 200"


def _sizes(out):
    parts = {"runtime": 0, "flash": 0, "host": 0, "page": 0}
    for folder, _, names in os.walk(out):
        for name in names:
            size = os.path.getsize(os.path.join(folder, name))
            if os.path.basename(folder) == "runtime":
                parts["runtime"] += size
            elif name == "flash.bin":
                parts["flash"] += size
            elif name == "host.bin":
                parts["host"] += size
            else:
                parts["page"] += size
    return parts


def _first_frame(chromium, url, warm):
    """ms from navigation start to the first frame the page drew."""
    context = chromium.new_context()
    try:
        page = context.new_page()
        page.goto(url)
        if warm:
            page.wait_for_function("window.chromawheel && window.chromawheel.firstFrameMs",
                                   timeout=60000)
            page.reload()
        page.wait_for_function("window.chromawheel && window.chromawheel.firstFrameMs",
                               timeout=60000)
        return page.evaluate("window.chromawheel.firstFrameMs")
    finally:
        context.close()


def measure():
    report = build.build(progress=lambda line: None)
    figures = {"bytes": report["bytes"], "parts": _sizes(build.OUT), "files": report["files"]}
    with SiteServer(build.OUT) as site, browser.chromium() as chromium:
        figures["chromium"] = chromium.version
        figures["cold_ms"] = [_first_frame(chromium, site.url, False) for _ in range(RUNS)]
        figures["warm_ms"] = [_first_frame(chromium, site.url, True) for _ in range(RUNS)]
        context = chromium.new_context()
        page = context.new_page()
        started = time.perf_counter()
        frames = browser.run_script(page, site.url, SCRIPT)
        figures["script_s"] = time.perf_counter() - started
        figures["script_frames"] = len(frames)
        with open(os.path.join(HERE, "testing", "alloc_mpy.py")) as f:
            printed = page.evaluate("(code) => window.chromawheel.runOnBoard(code)", f.read())
        figures["loop"] = json.loads(printed[-1])
        context.close()
    return figures


def report(row):
    """Print the web section of make bench's table with bench's own row()."""
    try:
        figures = measure()
    except UserError:
        raise
    except Exception as err:              # Playwright's own errors: one line, no traceback
        raise UserError("the page did not answer (%s)" % str(err).strip().splitlines()[0]) from err
    parts = figures["parts"]
    print("The web page (make web) in headless Chromium %s, on localhost" % figures["chromium"])
    row("  site size in all", "%d bytes" % figures["bytes"])
    row("    MicroPython WebAssembly (runtime/)", "%d bytes" % parts["runtime"])
    row("    the firmware's flash (%d files, flash.bin)" % figures["files"],
        "%d bytes" % parts["flash"])
    row("    the studio's Python (host.bin)", "%d bytes" % parts["host"])
    row("    the page (html, js, css, site.json)", "%d bytes" % parts["page"])
    cold, warm = figures["cold_ms"], figures["warm_ms"]
    row("  page load to first frame, cold cache (median of %d)" % RUNS,
        "%.0f ms" % statistics.median(cold), "%.0f-%.0f ms" % (min(cold), max(cold)))
    row("  page load to first frame, warm cache (median of %d)" % RUNS,
        "%.0f ms" % statistics.median(warm), "%.0f-%.0f ms" % (min(warm), max(warm)))
    row("  ?script= the issue's script: load to done", "%.2f s, %d frames" % (
        figures["script_s"], figures["script_frames"]))
    loop = figures["loop"]
    row("  bytes allocated per idle tick (web pins)", "%.2f" % loop["alloc_idle_tick"], "0",
        loop["alloc_idle_tick"] == 0)
    row("  bytes allocated per repainted frame (web pins)", "%.2f" % loop["alloc_repaint_tick"],
        "0", loop["alloc_repaint_tick"] == 0)
    row("  a repainting loop tick on the web board", "%.0f us" % loop["repaint_tick_us"])
    return figures
