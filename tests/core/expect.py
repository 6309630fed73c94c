"""Helpers for the core cases, which run under pytest and under the MicroPython unix port
(tests/run_core_micropython.py), so they use nothing pytest-specific."""

import json

import core

_default = None


def repo_path(*parts):
    base = core.__file__.replace("\\", "/").rsplit("/", 2)[0]
    return "/".join((base,) + parts)


def default_set():
    """The default meld set, compiled from its JSON source (loaded once)."""
    global _default
    if _default is None:
        from core import meldset_compiler
        with open(repo_path("core", "meldsets", "default.json")) as f:
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
