"""Every meld set shipped in core/meldsets validates, and spells by the letter rule."""

import json
import os

from core import meldset_compiler
from core.melds import find
from core.notes import format_note
from core.parse import parse_note

from expect import repo_path


def shipped():
    folder = repo_path("core", "meldsets")
    return sorted(n for n in os.listdir(folder) if n.endswith(".json"))


def load(name):
    with open(repo_path("core", "meldsets", name)) as f:
        return meldset_compiler.load_source(json.load(f), name)


def test_every_shipped_set_validates():
    names = shipped()
    assert names == ["default.json", "jazz.json", "modes.json"]
    for name in names:
        with open(repo_path("core", "meldsets", name)) as f:
            source = json.load(f)
        assert meldset_compiler.validate(source) == [], name
        assert source["name"] + ".json" == name


def spelled(ms, ident, root):
    meld = ms.meld(find(ms, ident))
    return " ".join(format_note(n) for n in meld.notes(parse_note(root)))


def test_jazz_spellings():
    jazz = load("jazz.json")
    assert jazz.count == 47
    assert spelled(jazz, "7alt", "C") == "C E Ab Bb Db D# F#"     # b13 written b6: A flat
    assert spelled(jazz, "7#5#9", "G") == "G B D# F A#"
    assert spelled(jazz, "dim(maj7)", "C") == "C Eb Gb B"
    assert spelled(jazz, "altered", "G") == "G Ab A# B C# D# F"
    assert spelled(jazz, "whole-half", "C") == "C D Eb F Gb Ab A B"


def test_modes_spellings():
    modes = load("modes.json")
    assert modes.count == 34
    assert spelled(modes, "hirajoshi", "A") == "A B C E F"
    assert spelled(modes, "lydian-aug", "C") == "C D E F# G# A B"
    assert spelled(modes, "phrygian-dom", "E") == "E F G# A B C D"
    assert spelled(modes, "hungarian-minor", "A") == "A B C D# E F G#"
