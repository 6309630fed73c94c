"""The laptop's questions to the device, each answered in one line of JSON.

The laptop stops the app (Ctrl-C into the raw REPL) and runs the same line from Python
(host_tools/device/target.py) and from the page (host_tools/web/site/flasher.js):

    from firmware import maintenance; maintenance.answer('["use", "jazz"]')

The request is a JSON string: data, read with json.loads, never executed. The answer is one
printed line, {"ok": true, ...} or {"ok": false, "error": "..."}:

    ["state"]         {"version", "implementation", "active", "sets": [names]}
    ["sets"]          {"sets": [[name, melds, problem or null], ...], "active": name}
    ["use", NAME]     melds/NAME.cwm loaded by the firmware's own loader, then made the active
                      set in the settings (firmware/settings.py, written atomically):
                      {"set", "melds", "said"}; a set the loader refuses changes nothing
    ["remove", NAME]  the set removed; if it was the active one, the default is: {"removed"}

Imported only when the laptop asks, so it costs the running app nothing."""

import json
import os

from firmware import installed_sets
from firmware.layout import DEFAULT_SET, VERSION, removal_problem, set_name_problem


def _settings():
    from firmware.records import FileRecords
    from firmware.settings import Settings
    return Settings(FileRecords()).load()


def _set_name(name):
    problem = set_name_problem(name)
    if problem:
        raise ValueError(problem)
    return name


def state():
    import sys
    impl = sys.implementation              # the platform's name is the port chooser's to read
    return {"version": VERSION, "implementation": [impl.name, list(impl.version[:3])],
            "active": _settings()["meldset"], "sets": installed_sets.names()}


def sets():
    found = []
    for name in installed_sets.names():
        try:
            found.append([name, installed_sets.load_named(name).count, None])
        except Exception as err:               # the loader's MeldSetError, or a read error
            found.append([name, 0, str(err).replace("\n", "; ")])
    return {"sets": found, "active": _settings()["meldset"]}


def use(name):
    meldset = installed_sets.load_named(_set_name(name))
    settings = _settings()
    settings.values["meldset"] = name
    settings.save()
    return {"set": name, "melds": meldset.count,
            "said": "meld set %s loaded: %d melds" % (name, meldset.count)}


def remove(name):
    problem = removal_problem(_set_name(name))
    if problem:
        raise ValueError(problem)
    path = installed_sets.path_of(name)
    try:
        os.stat(path)
    except OSError:
        raise ValueError("no meld set %r on the device" % name) from None
    settings = _settings()
    if settings["meldset"] == name:
        settings.values["meldset"] = DEFAULT_SET
        settings.save()
    os.remove(path)
    return {"removed": name}


_REQUESTS = {"state": state, "sets": sets, "use": use, "remove": remove}


def answer(request):
    """Print the answer to `request` (a JSON list: the request's name, then its arguments)."""
    try:
        words = json.loads(request)
        if not isinstance(words, list) or not words or words[0] not in _REQUESTS:
            raise ValueError("no such request: %r" % (request,))
        reply = _REQUESTS[words[0]](*words[1:])
        reply["ok"] = True
    except Exception as err:
        reply = {"ok": False, "error": str(err).replace("\n", "; ") or type(err).__name__}
    print(json.dumps(reply))
