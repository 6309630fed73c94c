"""The studio's checks, run by the page's second MicroPython (the laptop's side): a meld set
read, validated and compiled as `chromawheel meldset validate` does (the core's own
validator, core/meldset_compiler.py), with its messages, and what `meldset flash` would send.

check() answers JSON for the page: {"path", "valid", "lines" (what the command line prints,
without its "error: "), "problems" ([where, what] for each line of a set that was read: the
studio shows each at its meld and field), and for a valid set "name", "melds", "bytes",
"blob" (the compiled set, hex), "refused": null (the page says why `meldset flash` would not
send a set, from site.json: host_tools/set_files.flash_problem)}.

edit() is the meld-card editor's (editor.py); limits() the validator's length limits, which
the page's fields state; by_name() a meld typed by name, as the command line reads it."""

import json
from binascii import hexlify

from editor import edit as edit  # the page calls it here: studio.edit
from sourcefile import SourceError, parse_source

from core import degrees, meldset_compiler
from core.meldset import MeldSet, MeldSetError
from core.meldset_compiler import compile_source
from core.notes import format_note
from core.parse import NoteError, SymbolError, find_meld, parse_note, suggestions

KINDS = 3


def _count(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def _summary(ms):
    """As host_tools/cli/meldset.py says it: '5 melds (1 interval, 3 chords, 1 scale)'."""
    counts = [len(ms.of_kind(k)) for k in range(KINDS)]
    return "%s (%s, %s, %s)" % (_count(ms.count, "meld"), _count(counts[0], "interval"),
                               _count(counts[1], "chord"), _count(counts[2], "scale"))


def check(path, filename):
    """The meld-set source in file `filename`, shown to the user as `path`."""
    with open(filename, "rb") as f:
        data = f.read()
    result = {"path": path, "valid": False, "lines": [], "problems": [], "refused": None}
    try:
        source = parse_source(data, path)
        blob = compile_source(source, path)
        ms = MeldSet(blob, path)
    except SourceError as err:
        result["lines"] = [str(err)]
    except MeldSetError as err:
        result["lines"] = str(err).splitlines() or ["MeldSetError"]
        result["problems"] = [[where, what] for where, what in err.problems]
    except Exception as err:          # as the command line says an internal error
        result["lines"] = ["internal error (%s: %s); please report it" % (
            type(err).__name__, err)]
    else:
        result.update(valid=True, name=ms.name, melds=ms.count, bytes=len(blob),
                      blob=hexlify(blob).decode())
        result["lines"] = ["%s: valid meld set '%s': %s, %d bytes compiled" % (
            path, ms.name, _summary(ms), len(blob))]
    return json.dumps(result)


_DEFAULT = []


def _default_set():
    """The default set (the command line's, when no --set is given), compiled once."""
    if not _DEFAULT:
        with open("/host/meldsets/default.json", "rb") as f:
            source = parse_source(f.read(), "default.json")
        _DEFAULT.append(MeldSet(compile_source(source, "default.json"), "default"))
    return _DEFAULT[0]


def _notes(text):
    """The notes of 'C E G Bb' (two or more), or None when it is not a list of notes."""
    words = text.replace(",", " ").split()
    if len(words) < 2:
        return None
    try:
        return [parse_note(w) for w in words]
    except NoteError:
        return None


def _found(text, ms):
    """(meld index, root note or None) for what was typed, or an error message."""
    notes = _notes(text)
    if notes is not None:
        from core.identify import Identifier
        from core.notes import note_pc
        pcs = [note_pc(n) for n in notes]
        readings = Identifier(ms).exact(pcs)
        # The reading with the first note as its root, as written; else the first one.
        for i, root_pc in [r for r in readings if r[1] == pcs[0]] + readings:
            return i, ms.meld(i).root_name(root_pc)
        return "no meld of the default set is made of %s" % text.strip()
    try:
        i, root = find_meld(ms, text)
    except KeyError as err:
        return err.args[0]
    except SymbolError as err:
        return str(err)
    if i < 0:
        return "no meld %r in the default set: try a chord symbol (Cmaj7), a root and a name " \
            "(D minor triad) or notes (C E G Bb)" % text.strip()
    return i, root


def by_name(text):
    """A meld typed as the command line reads it (core.parse.find_meld: an id or a name, a
    chord symbol such as Cmaj7, a root and a name such as D minor; or notes such as C E G Bb,
    read as `chromawheel identify` reads them), from the default set: JSON {"meld": {"id",
    "name", "kind", "degrees"}, "root": the root to show it from, or null} or {"error",
    "suggestions": what to type instead, as the command line suggests it}."""
    ms = _default_set()
    found = _found(text, ms)
    if isinstance(found, str):
        return json.dumps({"error": found, "suggestions": suggestions(ms, text)})
    i, root = found
    meld = ms.meld(i)
    texts = []
    for code in meld.codes:
        word = degrees.to_text(code)
        texts.append("(" + word + ")" if degrees.is_optional(code) else word)
    return json.dumps({"meld": {"id": meld.id, "name": meld.name, "kind": meld.kind,
                                "degrees": texts},
                       "root": None if root is None else format_note(root, True)})


def cards_svg(path, filename, paper, per_page):
    """The set in file `filename` as MELD cards to print (host_tools/cards.py, as `meldset
    cards` lays them out): JSON {"pages": [SVG text, ...]} or {"error"}."""
    from cards import CardError, pages, svg
    with open(filename, "rb") as f:
        data = f.read()
    try:
        ms = MeldSet(compile_source(parse_source(data, path), path), path)
        sheets = pages(ms, paper, per_page)
    except (SourceError, MeldSetError, CardError) as err:
        return json.dumps({"error": str(err)})
    return json.dumps({"pages": [svg(page, paper) for page in sheets]})


def limits():
    """The lengths the validator allows: the page's fields hold no more."""
    return json.dumps({"id": meldset_compiler.MAX_ID, "name": meldset_compiler.MAX_NAME,
                       "set_name": meldset_compiler.MAX_SET_NAME,
                       "text": meldset_compiler.MAX_TEXT})


def compile_script(text, button_json):
    """The simulator's script language (script.py): {"lines": [...]} or {"error": "..."}."""
    from script import UserError
    from script import compile_script as compile_steps
    try:
        return json.dumps({"lines": compile_steps(text, json.loads(button_json))})
    except UserError as err:
        return json.dumps({"error": str(err)})
