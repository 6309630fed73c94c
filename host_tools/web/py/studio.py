"""The studio's checks, run by the page's second MicroPython (the laptop's side): a meld set
read, validated and compiled as `chromawheel meldset validate` does (the core's own
validator, core/meldset_compiler.py), with its messages, and what `meldset flash` would send.

check() answers JSON for the page: {"path", "valid", "lines" (what the command line prints,
without its "error: "), "problems" ([where, what] for each line of a set that was read: the
studio shows each at its meld and field), and for a valid set "name", "melds", "bytes",
"blob" (the compiled set, hex), "refused" (why `meldset flash` would not send it, or null)}.

edit() is the meld-card editor's (editor.py); limits() the validator's length limits, which
the page's fields state."""

import json
from binascii import hexlify

from editor import edit  # noqa: F401  (the page calls it)
from sourcefile import SourceError, parse_source

from core import meldset_compiler
from core.meldset import MeldSet, MeldSetError
from core.meldset_compiler import compile_source

KINDS = 3


def _summary(ms):
    """As host_tools/cli/meldset.py says it."""
    counts = [len(ms.of_kind(k)) for k in range(KINDS)]
    return "%d melds (%d intervals, %d chords, %d scales)" % (
        ms.count, counts[0], counts[1], counts[2])


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
        if source["name"] == "default":          # host_tools/set_files.set_to_flash
            result["refused"] = ("%s: the set named 'default' comes with the firmware (deploy "
                                 "updates it); give your set another name" % path)
    return json.dumps(result)


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
