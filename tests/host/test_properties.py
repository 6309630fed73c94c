"""Property tests (hypothesis) of rotation, spelling and identification, and the validator
fuzzed with malformed sets: nothing but MeldSetError may escape."""

import json
import os

from hypothesis import given, settings
from hypothesis import strategies as st

from core import degrees, meldset_compiler, pcset
from core.check import check
from core.identify import Identifier
from core.melds import all_melds
from core.meldset import MeldSet, MeldSetError
from core.notes import format_note, note_pc, pc_names
from core.parse import parse_note
from core.spelling import spell

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(ROOT, "core", "meldsets", "default.json")) as f:
    SOURCE = json.load(f)
SET = meldset_compiler.load_source(SOURCE)
IDENTIFIER = Identifier(SET)
MELDS = all_melds(SET)

masks = st.integers(min_value=0, max_value=0xFFF)
steps = st.integers(min_value=-30, max_value=30)
pcs = st.integers(min_value=0, max_value=11)
meld_indexes = st.integers(min_value=0, max_value=SET.count - 1)
notes = st.tuples(st.integers(0, 6), st.integers(-2, 2))


@given(masks, steps, steps)
def test_rotation_composes_and_keeps_size(mask, a, b):
    assert pcset.rotate(pcset.rotate(mask, a), b) == pcset.rotate(mask, a + b)
    assert pcset.popcount(pcset.rotate(mask, a)) == pcset.popcount(mask)
    assert pcset.rotate(pcset.rotate(mask, a), -a) == mask


@given(notes)
def test_note_names_round_trip(note):
    assert parse_note(format_note(note)) == note
    assert parse_note(format_note(note, unicode=True)) == note
    assert parse_note(format_note(note).lower()) == note


@given(meld_indexes, pcs)
def test_spelling_uses_consecutive_letters_and_right_pitches(i, root_pc):
    meld = MELDS[i]
    root = meld.root_name(root_pc)
    for code, note in zip(meld.codes, meld.notes(root)):
        assert note[0] == (root[0] + degrees.number(code) - 1) % 7
        assert note_pc(note) == (root_pc + degrees.semitones(code)) % 12
        assert -2 <= note[1] <= 2


@given(meld_indexes, pcs)
def test_root_name_is_never_worse_than_the_other(i, root_pc):
    meld = MELDS[i]
    chosen = meld.root_name(root_pc)

    def cost(root):
        alters = [spell(root, c)[1] for c in meld.codes]
        return (sum(1 for a in alters if abs(a) > 1), sum(1 for a in alters if a))

    for name in pc_names(root_pc):
        assert cost(chosen) <= cost(name)


@given(meld_indexes, pcs, st.data())
def test_every_built_meld_is_identified(i, root_pc, data):
    """Build the meld at a root with a random choice of optional cards, in random order:
    identification finds that reading, and check agrees."""
    meld = MELDS[i]
    cards = []
    for code in meld.codes:
        if not degrees.is_optional(code) or data.draw(st.booleans()):
            cards.append((root_pc + degrees.semitones(code)) % 12)
    cards = data.draw(st.permutations(cards))
    found = IDENTIFIER.exact(list(cards))
    shape_roots = [(root_pc + k * meld.distinct_roots()) % 12
                   for k in range(12 // meld.distinct_roots())]
    for r in shape_roots:
        assert (i, r) in found
    for j, r in found:
        assert check(MELDS[j], list(cards), MELDS[j].root_name(r)).valid


@given(st.lists(pcs, min_size=1, max_size=8))
def test_identification_agrees_with_checking_every_meld(cards):
    brute = sorted((j, r) for j in range(SET.count) for r in range(12)
                   if check(MELDS[j], cards, MELDS[j].root_name(r)).valid)
    assert IDENTIFIER.exact(cards) == brute


@settings(max_examples=50)
@given(st.lists(pcs, min_size=1, max_size=6))
def test_near_readings_are_one_card_short(cards):
    exact = IDENTIFIER.exact(cards)
    for j, r, missing in IDENTIFIER.near(cards):
        assert (j, r) not in exact
        assert check(MELDS[j], cards + [missing], MELDS[j].root_name(r)).valid


# ---- the validator, fuzzed -----------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8),
                                                                       children, max_size=5),
    max_leaves=30)


def _mutate(draw_data, value):
    """A copy of the good source with one field somewhere replaced by a random JSON value."""
    data = json.loads(json.dumps(value))
    target = data
    path = []
    for _ in range(draw_data.draw(st.integers(0, 4))):
        if isinstance(target, dict) and target:
            key = draw_data.draw(st.sampled_from(sorted(target)))
        elif isinstance(target, list) and target:
            key = draw_data.draw(st.integers(0, len(target) - 1))
        else:
            break
        path.append((target, key))
        target = target[key]
    if path:
        parent, key = path[-1]
        parent[key] = draw_data.draw(json_values)
    else:
        data = draw_data.draw(json_values)
    return data


@settings(max_examples=300)
@given(st.data())
def test_validator_on_mutated_sources_raises_only_its_own_error(data):
    source = _mutate(data, SOURCE)
    problems = meldset_compiler.validate(source)
    assert all(isinstance(w, str) and isinstance(m, str) and m for w, m in problems)
    try:
        blob = meldset_compiler.compile_source(source)
    except MeldSetError as err:
        assert err.problems
        return
    assert problems == []
    assert MeldSet(blob).count == len(source["melds"])


@given(json_values)
def test_validator_on_random_json_raises_only_its_own_error(value):
    try:
        meldset_compiler.compile_source(value)
    except MeldSetError:
        pass


@given(st.binary(max_size=64), st.integers(0, 2000))
def test_loader_refuses_random_damage(junk, at):
    blob = bytearray(meldset_compiler.compile_source(SOURCE))
    at %= len(blob)
    damaged = bytes(blob[:at]) + junk + bytes(blob[at + len(junk):])
    if damaged == bytes(blob):
        return
    try:
        MeldSet(damaged)
    except MeldSetError:
        return
    raise AssertionError("damaged blob loaded")
