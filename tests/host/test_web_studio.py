"""The web studio and the page on a phone (issue 28), in headless Chromium at 390 x 844 with
touch and at 1280 x 960: the meld-card editor builds by taps the bytes a hand-written JSON
compiles to, and shows the validator's messages at the meld and the field; the file name
follows what was opened or named; a preview lasts until it is stopped or the page reloads;
the ring's labels spell what the display spells; the knob turns by a touch drag; nothing
scrolls sideways and every control is a finger's size; the page installs (manifest, service
worker) and runs with the network off; the help panel links the documents; the README's
pictures of both sizes.

The editor's letter rule (host_tools/web/py/editor.py) is tested first on CPython, then as the
page runs it."""

import json
import os
import subprocess
import sys

import pytest

from host_tools.device.files import ROOT
from host_tools.set_files import compile_file, parse_source
from host_tools.tools import micropython_path
from host_tools.web import browser, build

PAGE_PY = os.path.join(ROOT, "host_tools", "web", "py")
sys.path.insert(0, PAGE_PY)
import editor  # noqa: E402  (the page's module, run here on CPython)
from browser_fixtures import chromium, site  # noqa: E402,F401 (fixtures)

MELDSETS = os.path.join(ROOT, "core", "meldsets")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 960}
# The melds the letter rule alone spells another way than the shipped sets write them (both
# spellings keep the rule; the editor offers the written one in place).
SPELLED_OTHERWISE = {("default", "chromatic"), ("modes", "chromatic"), ("jazz", "7alt"),
                     ("jazz", "whole-half"), ("modes", "prometheus")}
# A set written by hand, and the taps that build it on the wheel from `new meld`.
BY_HAND = {
    "format": "chromawheel-meldset", "version": 1, "name": "taps",
    "melds": [
        {"id": "new1", "name": "new meld 1", "kind": "chord",
         "degrees": ["1", "3", "(5)", "b7", "9"]},
        {"id": "new2", "name": "new meld 2", "kind": "chord",
         "degrees": ["1", "b3", "b5", "bb7"]},
        {"id": "new3", "name": "new meld 3", "kind": "chord",
         "degrees": ["1", "3", "#4", "5", "7"]},
        {"id": "new4", "name": "new meld 4", "kind": "chord", "degrees": ["1", "8"]},
    ]}
TAPS = [
    [("sector", 4), ("sector", 7), ("sector", 7), ("sector", 10), ("sector", 2)],
    [("sector", 9), ("sector", 3), ("sector", 6)],      # bb7 once b3 and b5 are there
    [("sector", 4), ("sector", 7), ("sector", 11), ("sector", 6), ("alt", 6)],  # #11, then #4
    [("alt", 0)],                                       # the octave
]


# ---- the letter rule, on CPython and on the MicroPython unix port -------------------------

def _edit(**request):
    request.setdefault("auto", [])
    request.setdefault("root", "C")
    request.setdefault("action", None)
    return json.loads(editor.edit(json.dumps(request)))


def test_the_letter_rule_spells_the_shipped_sets():
    """Every meld of the shipped sets, its sectors marked and nothing picked: the degrees the
    set writes, but for the few listed (spelled by the rule another way, offered in place)."""
    otherwise = set()
    for name in ("default", "jazz", "modes"):
        with open(os.path.join(MELDSETS, name + ".json"), "rb") as f:
            source = parse_source(f.read(), name)
        for meld in source["melds"]:
            sectors, octave = editor.read(meld["degrees"])
            auto = [s for s in sectors if s]
            blank = ["1"] + (["8"] if octave is not None else [])
            answer = _edit(kind=meld["kind"], degrees=blank, auto=[])
            # Marked one by one as taps would, then spelled by the rule with all of them.
            degrees = answer["degrees"]
            for sector in auto:
                answer = _edit(kind=meld["kind"], degrees=degrees, auto=answer["auto"],
                               action={"tap": sector})
                degrees = answer["degrees"]
            plain = [d.strip("()") for d in meld["degrees"]]
            if degrees != plain:
                otherwise.add((name, meld["id"]))
    assert otherwise == SPELLED_OTHERWISE


def test_a_tap_cycles_a_sector_and_the_root_stays():
    answer = _edit(kind="chord", degrees=["1"], action={"tap": 3})
    assert answer["degrees"] == ["1", "b3"] and answer["sectors"][3]["state"] == "required"
    answer = _edit(kind="chord", degrees=answer["degrees"], auto=answer["auto"],
                   action={"tap": 3})
    assert answer["degrees"] == ["1", "(b3)"] and answer["sectors"][3]["state"] == "optional"
    answer = _edit(kind="chord", degrees=answer["degrees"], auto=answer["auto"],
                   action={"tap": 3})
    assert answer["degrees"] == ["1"] and answer["sectors"][3]["state"] == "off"
    assert _edit(kind="chord", degrees=["1"], action={"tap": 0})["degrees"] == ["1"]
    # A scale has no optional degrees: a second tap is off.
    answer = _edit(kind="scale", degrees=["1", "2"], auto=[2], action={"tap": 2})
    assert answer["degrees"] == ["1"]


def test_the_rule_spells_again_as_sectors_are_marked_but_keeps_a_pick():
    # b3 alone; with the 3 beside it the letter rule makes it #9 (E♭ and E share a letter).
    answer = _edit(kind="chord", degrees=["1"], action={"tap": 3})
    answer = _edit(kind="chord", degrees=answer["degrees"], auto=answer["auto"],
                   action={"tap": 4})
    assert answer["degrees"] == ["1", "3", "#9"]
    sector = answer["sectors"][3]
    assert (sector["label"], sector["note"]) == ("\u266f9", "D\u266f")
    assert [a["degree"] for a in sector["alternatives"]] == ["#2", "b3"]
    # Picked by hand: kept, whatever is marked next.
    answer = _edit(kind="chord", degrees=answer["degrees"], auto=answer["auto"],
                   action={"degree": "b3"})
    assert answer["degrees"] == ["1", "b3", "3"] and 3 not in answer["auto"]
    answer = _edit(kind="chord", degrees=answer["degrees"], auto=answer["auto"],
                   action={"tap": 7})
    assert answer["degrees"] == ["1", "b3", "3", "5"]
    # Names from another root, as the display spells them.
    answer = _edit(kind="chord", degrees=["1", "b3", "b5", "bb7"], root="E\u266d")
    assert [s["note"] for s in answer["sectors"] if s["state"] != "off"] == [
        "E\u266d", "G\u266d", "B\U0001d12b", "D\U0001d12b"]


def test_degrees_the_wheel_cannot_show_are_left_to_the_json():
    for degrees, why in ((["1", "2", "9"], "one sector holds one degree"),
                         (["1", "b4"], "'b4' is not a degree"), (["3", "5"], "no 1")):
        answer = _edit(kind="scale", degrees=degrees, action={"tap": 5})
        assert not answer["editable"] and why in answer["why"]
        assert answer["degrees"] == degrees               # never rewritten


def test_the_editor_runs_on_micropython():
    """The page runs editor.py on MicroPython: the same answers as CPython's."""
    mp = micropython_path()
    if mp is None:
        pytest.skip("no MicroPython unix port")
    request = json.dumps({"kind": "chord", "degrees": ["1", "3", "#9"], "auto": [3],
                          "root": "B", "action": {"tap": 10}})
    code = "import editor, sys\nsys.stdout.write(editor.edit(%r))\n" % request
    env = dict(os.environ, MICROPYPATH=os.pathsep.join([PAGE_PY, ROOT]))
    out = subprocess.run([mp, "-c", code], capture_output=True, text=True, env=env, timeout=60)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == json.loads(editor.edit(request))


# ---- in the browser -------------------------------------------------------------------------

def _context(chromium, phone, **options):
    if phone:
        return chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True,
                                    device_scale_factor=2, **options)
    return chromium.new_context(viewport=DESKTOP, **options)


@pytest.fixture(params=["phone", "desktop"])
def view(request, chromium):
    phone = request.param == "phone"
    context = _context(chromium, phone, accept_downloads=True)
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    page.phone = phone
    yield page
    context.close()
    assert not errors, errors


def _ready(page, url):
    page.goto(url)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=90000)
    page.evaluate("window.chromawheel.studio.settled()")


def _settle(page):
    return page.evaluate("window.chromawheel.studio.settled()")


def _texts(page, selector):
    return page.eval_on_selector_all(selector, "items => items.map(i => i.textContent)")


def _console_says(page, text, timeout=60000):
    page.wait_for_function("(t) => document.querySelector('#console').textContent.includes(t)",
                           arg=text, timeout=timeout)


def _open(page, path):
    page.set_input_files("#meldset-file", str(path))
    page.wait_for_function("(n) => document.querySelector('#source-name').textContent === n",
                           arg=os.path.basename(str(path)))
    _settle(page)


def test_no_sideways_scrolling_and_every_control_is_a_fingers_size(view, site):
    _ready(view, site.url)
    view.click("#help-button")
    sizes = view.evaluate("""() => {
        const small = [];
        for (const el of document.querySelectorAll('button, select, input, a, .file, #knob')) {
            const box = el.getBoundingClientRect();
            if (!box.width || el.closest('[hidden]') || getComputedStyle(el).opacity === '0')
                continue;
            if (box.width < 44 || box.height < 44) small.push(
                (el.id || el.className || el.tagName) + ' ' + Math.round(box.width) + 'x' +
                Math.round(box.height));
        }
        return {small, scroll: document.documentElement.scrollWidth, width: innerWidth};
    }""")
    assert sizes["small"] == []
    assert sizes["scroll"] <= sizes["width"], sizes
    # The editor's wheel fits too: its sectors and chips inside the viewport's width.
    right = view.eval_on_selector_all(
        "[data-editor-sector], [data-alt-sector]:not([hidden])",
        "items => Math.max(...items.map(i => i.getBoundingClientRect().right))")
    assert right <= view.viewport_size["width"]


def test_a_set_built_by_taps_is_the_set_written_by_hand(view, site, tmp_path):
    start = tmp_path / "taps.json"
    start.write_text(json.dumps({"format": "chromawheel-meldset", "version": 1,
                                 "name": "taps", "melds": []}))
    hand = tmp_path / "hand.json"
    hand.write_text(json.dumps(BY_HAND, indent=1))
    _ready(view, site.url)
    _open(view, start)
    assert _texts(view, "#problems li") == ["taps.json: melds: a meld set needs at least one meld"]
    for i, taps in enumerate(TAPS):
        view.click("#new-meld")
        _settle(view)
        # A new meld holds only its root, is selected, and the validator says so at it.
        states = view.eval_on_selector_all(
            "[data-editor-sector]", "items => items.map(i => [i.dataset.editorSector, "
            "i.dataset.state])")
        assert states == [[str(s), "required" if s == 0 else "off"] for s in range(12)]
        assert view.get_attribute('#meld-list [aria-current]', "data-meld") == str(i)
        assert view.text_content('#meld-card .field-problem[data-for="degrees"]') == \
            "a chord has 2 to 7 positions, this one has 1"
        assert "bad" in view.get_attribute('#meld-list [data-meld="%d"]' % i, "class")
        for what, sector in taps:
            selector = '[data-%s-sector="%d"]' % ("editor" if what == "sector" else "alt",
                                                   sector)
            if view.phone:
                view.tap(selector)
            else:
                view.click(selector)
            _settle(view)
    result = _settle(view)
    assert result["valid"], result["lines"]
    assert json.loads(view.input_value("#source")) == BY_HAND
    blob = view.evaluate("Array.from(window.chromawheel.studio.result.blob)")
    assert bytes(blob) == compile_file(str(hand))
    assert _texts(view, "#problems li") == [
        "taps.json: valid meld set 'taps': 4 melds (0 intervals, 4 chords, 0 scales), "
        "%d bytes compiled" % len(blob)]
    # The states the taps left, read back from the wheel: the third meld is selected.
    states = view.eval_on_selector_all(
        "[data-editor-sector]", "items => items.map(i => i.dataset.state)")
    assert view.get_attribute('#meld-list [aria-current]', "data-meld") == "3"
    view.click('#meld-list [data-meld="0"]')
    _settle(view)
    states = view.eval_on_selector_all(
        "[data-editor-sector]", "items => items.map(i => i.dataset.state)")
    on = {0: "required", 2: "required", 4: "required", 7: "optional", 10: "required"}
    assert states == [on.get(s, "off") for s in range(12)]
    assert view.text_content("#editor-degrees") == \
        "degrees 1 3 (5) b7 9 \u00b7 notes C E (G) B\u266d D"


def test_the_json_view_and_the_editor_keep_in_step(view, site):
    _ready(view, site.url)
    view.select_option("#example", "jazz.json")
    _settle(view)
    source = json.loads(view.input_value("#source"))
    # Typed in the JSON: the editor follows (the first meld is 6/9: 1 3 (5) 6 9).
    source["melds"][0]["degrees"] = ["1", "b3", "(5)", "6", "9"]
    view.fill("#source", json.dumps(source, indent=2))
    _settle(view)
    assert view.get_attribute('[data-editor-sector="3"]', "data-state") == "required"
    assert view.get_attribute('[data-editor-sector="4"]', "data-state") == "off"
    # Edited on the card and in the fields: the JSON follows.
    view.click('[data-editor-sector="2"]')              # the 9: required -> optional
    view.fill("#meld-name", "minor six-nine, again")
    _settle(view)
    meld = json.loads(view.input_value("#source"))["melds"][0]
    assert meld["degrees"] == ["1", "b3", "(5)", "6", "(9)"]
    # The validator's message at the meld and the field: the next meld's name, ignoring case.
    view.fill("#meld-name", "Minor Six-Nine")
    view.click('#meld-list [data-meld="1"]')
    _settle(view)
    assert view.text_content('#meld-card .field-problem[data-for="name"]') == \
        "duplicate name 'minor six-nine' (also melds[0])"
    assert "bad" in view.get_attribute('#meld-list [data-meld="1"]', "class")
    assert view.get_attribute("#meld-name", "aria-invalid") == "true"


def test_the_file_name_follows_what_was_opened_or_named(view, site, tmp_path):
    mine = tmp_path / "lesson.json"
    mine.write_text(json.dumps(dict(BY_HAND, name="Lesson")))
    _ready(view, site.url)
    _open(view, mine)
    assert view.text_content("#source-name") == "lesson.json"
    assert _texts(view, "#problems li")[0].startswith(
        "lesson.json: name: 'Lesson': character 'L' is not allowed")
    assert view.text_content("#set-name-problem").startswith("'Lesson': character 'L'")
    view.fill("#set-name", "lesson-two")
    _settle(view)
    assert view.text_content("#source-name") == "lesson-two.json"
    assert _texts(view, "#problems li")[0].startswith("lesson-two.json: valid meld set")
    with view.expect_download() as download:
        view.click("#save")
    assert download.value.suggested_filename == "lesson-two.json"
    saved = download.value.path()
    with open(saved) as f:
        assert json.load(f) == dict(BY_HAND, name="lesson-two")


def test_a_preview_lasts_until_stopped_or_reloaded(view, site):
    _ready(view, site.url)
    view.evaluate("localStorage.clear()")
    view.click("#power")
    _console_says(view, "meld set default loaded: 60 melds")
    view.select_option("#example", "jazz.json")
    _settle(view)
    view.click('#meld-list [data-meld="3"]')             # maj9: C maj9 on the wheel
    _settle(view)
    view.click("#preview")
    _console_says(view, "C major ninth (maj9): C E (G) B D")
    assert not view.is_hidden("#stop-preview")
    lit = [int(pc) for pc, rgb in view.eval_on_selector_all(
        "#ring .led", "items => items.map(i => [i.dataset.pc, i.dataset.rgb])") if rgb != "0,0,0"]
    assert lit == [0, 2, 4, 7, 11]
    view.click("#stop-preview")
    view.wait_for_function("document.querySelector('#console').textContent.split('-- power-up --')"
                           ".pop().includes('meld set default loaded')", timeout=60000)
    assert view.is_hidden("#stop-preview")
    view.click("#preview")
    _console_says(view, "C major ninth (maj9)")
    view.reload()
    view.wait_for_selector("body[data-ready]", state="attached", timeout=90000)
    _console_says(view, "meld set default loaded: 60 melds")
    assert "jazz" not in view.text_content("#console")
    view.evaluate("localStorage.clear()")


def test_the_ring_names_notes_as_the_display_spells_them(view, site):
    for script, names in (("cw 3", {3: "E\u266d", 7: "G", 10: "B\u266d"}),
                          ("cw 11", {11: "B", 3: "D\u266f", 6: "F\u266f"})):
        browser.run_script(view, site.url, script)
        leds = view.eval_on_selector_all(
            "#ring .led", "items => items.map(i => [Number(i.dataset.pc), i.dataset.rgb, "
            "i.dataset.name, i.textContent])")
        lit = {pc: name for pc, rgb, name, _ in leds if rgb != "0,0,0"}
        assert lit == names
        for pc, rgb, name, shown in leds:
            assert shown == name.replace("/", "")        # the label shown is data-name
            if rgb == "0,0,0":
                assert name == ["C", "C\u266f/D\u266d", "D", "D\u266f/E\u266d", "E", "F",
                                "F\u266f/G\u266d", "G", "G\u266f/A\u266d", "A",
                                "A\u266f/B\u266d", "B"][pc]


def test_the_knob_turns_by_a_touch_drag(chromium, site):
    import math
    context = _context(chromium, True)
    page = context.new_page()
    _ready(page, site.url)
    page.evaluate("localStorage.clear()")
    page.click("#power")
    _console_says(page, "C major triad (maj): C E G")
    box = page.locator("#knob").bounding_box()
    cx, cy, r = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, box["width"] / 3
    cdp = context.new_cdp_session(page)

    def drag(radius, quarter):
        points = [(cx + radius * math.sin(quarter * math.pi / 2 * k / 10),
                   cy - radius * math.cos(quarter * math.pi / 2 * k / 10)) for k in range(11)]
        cdp.send("Input.dispatchTouchEvent", {
            "type": "touchStart", "touchPoints": [{"x": points[0][0], "y": points[0][1]}]})
        for x, y in points[1:]:
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                                  "touchPoints": [{"x": x, "y": y}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})

    # A quarter turn clockwise on the knob, 18 degrees a detent: five detents, C to F.
    drag(r, 1)
    _console_says(page, "F major triad (maj): F A C", timeout=30000)
    # A quarter turn back, the finger on the ring round the knob: F to C again.
    drag(box["width"] * 0.9, -1)
    page.wait_for_function("document.querySelector('#console').textContent.trim()"
                           ".split('\\n').pop() === 'C major triad (maj): C E G'", timeout=30000)
    assert page.evaluate("scrollY") == 0                 # the drags did not scroll the page
    context.close()


def test_the_page_installs_and_runs_offline(chromium, site):
    context = chromium.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    page.goto(site.url)
    manifest = page.get_attribute('link[rel="manifest"]', "href")
    answer = page.evaluate("(u) => fetch(u).then(r => r.json())", manifest)
    assert answer["display"] == "standalone" and answer["start_url"] == "./"
    for icon in answer["icons"]:
        assert page.evaluate("(u) => fetch(u).then(r => r.ok)", icon["src"]), icon
    page.wait_for_selector("body[data-ready]", state="attached", timeout=90000)
    page.wait_for_selector("body[data-offline-ready]", state="attached", timeout=60000)
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null", timeout=30000)
    page.wait_for_selector("body[data-ready]", state="attached", timeout=90000)
    # Every file of the site is in the cache before the network goes.
    with open(os.path.join(site.folder, "sw.js")) as f:
        text = f.read()
    files = json.loads(text[text.index("const FILES = ") + 14:text.index(";\nconst CACHE")])
    assert {"index.html", "main.js", "runtime/micropython.wasm", "flash.bin", "host.bin",
            "site.json", "manifest.webmanifest"} <= set(files)
    context.set_offline(True)
    with pytest.raises(Exception):
        page.evaluate("fetch('http://127.0.0.1:9/never').then(r => r.status)")
    page.reload()
    page.wait_for_selector("body[data-ready]", state="attached", timeout=90000)
    _console_says(page, "major triad")
    assert any(rgb != "0,0,0" for rgb in page.eval_on_selector_all(
        "#ring .led", "items => items.map(i => i.dataset.rgb)"))
    assert "valid meld set 'jazz'" in _texts(page, "#problems li")[0]   # the studio too
    context.close()


def test_the_help_panel_links_the_documents(view, site):
    _ready(view, site.url)
    assert view.is_hidden("#help")
    view.click("#help-button")
    assert view.is_visible("#help")
    assert view.get_attribute("#help-button", "aria-expanded") == "true"
    links = view.eval_on_selector_all("#help a", "items => items.map(a => a.href)")
    assert len(links) == 4
    for link in links:
        text = view.evaluate("(u) => fetch(u).then(r => r.ok ? r.text() : '')", link)
        assert text.startswith("# "), link
    assert "knob" in view.text_content("#help") and "button" in view.text_content("#help")


def test_the_help_links_the_repositorys_pages_when_published():
    links = build.docs_links({"GITHUB_REPOSITORY": "someone/chromawheel", "GITHUB_SHA": "abc"})
    assert links["using.md"] == "https://github.com/someone/chromawheel/blob/abc/docs/using.md"
    assert build.docs_links({})["music.md"] == "docs/music.md"


def test_the_readmes_screenshots(chromium, site):
    """make web-screenshot takes the README's pictures this way; the test run takes them too."""
    from host_tools.web import screenshot
    for phone, size in ((False, screenshot.VIEWPORT), (True, screenshot.PHONE)):
        path = os.path.join(ROOT, "build", "web-screenshot%s.png" % ("-phone" if phone else ""))
        os.makedirs(os.path.dirname(path), exist_ok=True)
        shown = screenshot.take(site.url, chromium, path, phone=phone)
        assert shown == ["jazz.json: melds[47].degrees: same chord as melds[23] '7#9'"
                         if phone else "jazz.json: melds[0].degrees[3]: 'b4' is not a degree"]
        with open(path, "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n"
        assert (int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")) == (
            size["width"], size["height"])
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for name in ("host_tools/web/screenshot.png", "host_tools/web/screenshot-phone.png"):
        assert "](%s)" % name in readme
        assert os.path.getsize(os.path.join(ROOT, name)) < 400000
