import json

from core import meldset_compiler
from core.melds import find
from core.meldset import MeldSet, MeldSetError

from expect import default_set, raises, repo_path


def small_source():
    return {"format": "chromawheel-meldset", "version": 1, "name": "tiny",
            "melds": [
                {"id": "M3", "name": "major third", "kind": "interval", "degrees": ["1", "3"]},
                {"id": "maj", "name": "major triad", "kind": "chord", "degrees": ["1", "3", "5"]},
                {"id": "7", "name": "seventh", "kind": "chord", "degrees": ["1", "3", "(5)", "b7"]},
                {"id": "P8", "name": "octave", "kind": "interval", "degrees": ["1", "8"]},
                {"id": "maj7", "name": "major seventh", "kind": "chord",
                 "degrees": ["1", "3", "5", "7"]},
                {"id": "major", "name": "major scale", "kind": "scale",
                 "degrees": ["1", "2", "3", "4", "5", "6", "7"]}]}


def problems(source):
    return ["%s: %s" % p for p in meldset_compiler.validate(source)]


def test_default_source_is_valid_and_compact():
    with open(repo_path("core", "meldsets", "default.json")) as f:
        source = json.load(f)
    assert meldset_compiler.validate(source) == []
    blob = meldset_compiler.compile_source(source)
    assert len(blob) < 3072
    assert default_set().size == len(blob)


def test_degree_error_names_its_place():
    source = small_source()
    source["melds"][4]["degrees"][2] = "b4"
    assert problems(source) == ["melds[4].degrees[2]: 'b4' is not a degree"]


def test_every_problem_is_reported_with_its_location():
    source = small_source()
    melds = source["melds"]
    melds[1]["id"] = "M3"
    melds[2]["kind"] = "triad"
    melds[3]["degrees"] = ["1", "#4", "b5"]
    melds[4]["colour"] = "red"
    del melds[5]["name"]
    melds.append({"id": "x", "name": "bad", "kind": "scale",
                  "degrees": ["1", "2", "(3)", "5", "4", "6"]})
    melds.append("not a meld")
    assert problems(source) == [
        "melds[1].id: duplicate id 'M3' (also melds[0])",
        "melds[2].kind: 'triad' is not a kind (interval, chord, scale)",
        "melds[3].degrees[2]: 'b5' is the same position as melds[3].degrees[1] '#4'",
        "melds[4].colour: unknown field (expected one of id, name, kind, degrees)",
        "melds[5]: missing field 'name'",
        "melds[6].degrees[2]: '(3)': only chords have optional degrees",
        "melds[6].degrees[4]: '4' comes after '5': list degrees from low to high",
        "melds[7]: expected an object, got text",
    ]


def test_set_level_problems():
    assert problems([]) == [": expected a JSON object, got a list"]
    source = small_source()
    source["format"] = "other"
    source["version"] = 2
    source["name"] = "Bad Name"
    source["extra"] = True
    assert problems(source) == [
        "extra: unknown field (expected one of format, version, name, title, description, melds)",
        "format: expected 'chromawheel-meldset'",
        "version: 2 is not supported (this tool reads version 1)",
        ("name: 'Bad Name': characters 'B', ' ', 'N' are not allowed (use lower-case letters, "
         "digits, - and _)"),
    ]
    source = small_source()
    source["version"] = True
    assert problems(source) == ["version: a boolean is not supported (this tool reads version 1)"]


def test_kind_sizes_and_first_degree():
    source = small_source()
    source["melds"][0]["degrees"] = ["1", "3", "5"]
    source["melds"][1]["degrees"] = ["3", "5"]
    source["melds"][5]["degrees"] = ["1", "2", "3"]
    assert problems(source) == [
        "melds[0].degrees: an interval has 2 positions, this one has 3",
        "melds[1].degrees[0]: '3': a meld starts with the required degree '1'",
        "melds[5].degrees: a scale has 5 to 12 positions, this one has 3",
    ]


def test_same_shape_twice_in_one_kind():
    source = small_source()
    source["melds"][4]["degrees"] = ["1", "3", "5"]
    assert problems(source) == ["melds[4].degrees: same chord as melds[1] 'maj'"]


def test_oversize_sets_and_fields():
    source = small_source()
    source["melds"][0]["id"] = "x" * 17
    source["melds"][1]["name"] = "n" * 41
    assert problems(source) == ["melds[0].id: 17 characters, at most 16",
                                "melds[1].name: 41 characters, at most 40"]
    source = small_source()
    source["melds"] = [{"id": "c%d" % i, "name": "chord %d" % i, "kind": "chord",
                        "degrees": ["1", "3", "5"]} for i in range(201)]
    found = problems(source)
    assert found[0] == "melds: 201 melds, at most 200"


def test_compile_refuses_a_bad_source_and_names_the_file():
    source = small_source()
    source["melds"][0]["kind"] = "triad"
    err = raises(MeldSetError, meldset_compiler.compile_source, source, "tiny.json")
    assert str(err) == "tiny.json: melds[0].kind: 'triad' is not a kind (interval, chord, scale)"


def test_compiled_round_trip():
    ms = MeldSet(meldset_compiler.compile_source(small_source()))
    assert ms.name == "tiny" and ms.count == 6
    assert [ms.meld_id(i) for i in range(6)] == ["M3", "maj", "7", "P8", "maj7", "major"]
    assert ms.meld(2).degree_text() == "1 3 (5) b7"
    assert ms.meld_name(5) == "major scale" and ms.kind_name(5) == "scale"


def test_truncated_blob_refused_at_every_length():
    blob = meldset_compiler.compile_source(small_source())
    for n in range(len(blob)):
        raises(MeldSetError, MeldSet, blob[:n])


def test_every_single_byte_change_refused():
    blob = meldset_compiler.compile_source(small_source())
    for at in range(len(blob)):
        for flip in (0x01, 0x80, 0xFF):
            damaged = bytearray(blob)
            damaged[at] ^= flip
            raises(MeldSetError, MeldSet, bytes(damaged))


def test_find_by_id_and_name():
    ms = default_set()
    assert ms.meld_id(find(ms, "m7")) == "m7"           # exact id: the interval
    assert ms.meld_id(find(ms, "MIN7")) == "min7"       # any case
    assert ms.meld_id(find(ms, "Major Triad")) == "maj"
    assert ms.meld_id(find(ms, "p5")) == "P5"
    err = raises(KeyError, find, ms, "nope")
    assert "nope" in str(err)


def _resealed(blob):
    """A blob changed behind the compiler's back, with its checksum made right again: only the
    field checks can refuse it."""
    from core.meldset import HEADER_SIZE, crc32
    crc = crc32(bytes(blob[HEADER_SIZE:]))
    for i in range(4):
        blob[8 + i] = (crc >> (8 * i)) & 0xFF
    return bytes(blob)


def test_text_fields_must_be_utf8_each_on_its_own():
    blob = meldset_compiler.compile_source(small_source())
    first = blob.index(b"M3")                     # meld 0: id "M3", then len + "major third"
    cut_id = bytearray(blob)
    cut_id[first + 1] = 0xC3                      # the id ends inside a character
    raises(MeldSetError, MeldSet, _resealed(cut_id))
    inside_name = bytearray(blob)
    inside_name[first + 3] = 0xA9                 # the name starts inside one
    raises(MeldSetError, MeldSet, _resealed(inside_name))
    accented = bytearray(blob)
    accented[first:first + 2] = "é".encode()      # two bytes, as "M3"
    accented[first + 3:first + 5] = "é".encode()  # "major third" -> "éjor third"
    ms = MeldSet(_resealed(accented))
    assert ms.meld_id(0) == "é" and ms.meld_name(0) == "éjor third"
    # A name of 128 bytes or more (the compiler allows 40 characters; the format 255 bytes).
    long_name = bytearray(blob)
    long_name[first + 2:first + 3 + 11] = bytes((130,)) + b"x" * 130
    size = len(long_name) - 12
    long_name[6:8] = bytes((size & 0xFF, size >> 8))
    assert MeldSet(_resealed(long_name)).meld_name(0) == "x" * 130
    long_name[first + 3 + 129] = 0xE2              # the long name ends mid-character
    raises(MeldSetError, MeldSet, _resealed(long_name))


def test_the_checks_code_table_is_the_degrees_own():
    # core/meldset_check.py writes the table out, so a boot's check need not import the degrees
    # CODES[code] is 1 + the semitones of the vocabulary degree `code` (no optional bit), else 0
    from core import degrees
    from core.meldset_check import _ROOT_CODE, CODES, OPTIONAL
    from core.parse import parse_degree
    expected = bytearray(128)
    for text in degrees.VOCABULARY:
        code = parse_degree(text)
        expected[code] = 1 + degrees.semitones(code) % 12
    assert CODES == bytes(expected)
    assert OPTIONAL == degrees.OPTIONAL and _ROOT_CODE == degrees.encode(1, 0)
