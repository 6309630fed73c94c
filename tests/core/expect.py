"""Helpers for the core cases, which run under pytest and under the MicroPython unix port
(tests/run_core_micropython.py), so they use nothing pytest-specific."""

import json

import core

_default = None


def repo_path(*parts):
    base = core.__file__.replace("\\", "/").rsplit("/", 2)[0]
    return "/".join((base,) + parts)


def default_set():
    """The default meld set (loaded once): compiled from its JSON source where that is there
    (CPython, the unix port), else the compiled default.cwm, which a board's run of the cases
    carries instead (tests/host/test_rp2_port.py: the compiler is host-only, and on the
    emulated Pico, beside the cases' RAM disk, compiling the set once failed for want of a
    1.7 KB block; tests/host/test_package.py holds default.cwm equal to the JSON's compile)."""
    global _default
    if _default is None:
        try:
            f = open(repo_path("core", "meldsets", "default.json"))
        except OSError:
            from core import meldset
            _default = meldset.load(repo_path("core", "meldsets", "default.cwm"))
        else:
            from core import meldset_compiler
            with f:
                _default = meldset_compiler.load_source(json.load(f), "default.json")
    return _default


def raises(error_type, fn, *args):
    """Call fn(*args); it must raise error_type. Returns the exception."""
    try:
        fn(*args)
    except error_type as err:
        return err
    raise AssertionError("%s did not raise %s" % (getattr(fn, "__name__", fn),
                                                  error_type.__name__))
