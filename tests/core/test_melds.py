from core import pcset
from core.melds import find
from core.meldset import KINDS, kind_index
from core.notes import note_pc, pc_names

from expect import default_set


def test_default_set_has_the_60_melds_of_music_md():
    ms = default_set()
    assert ms.count == 60
    assert [len(ms.of_kind(k)) for k in range(3)] == [12, 33, 15]
    # 36 interval cards (each interval 3 times) + 33 chords + 15 scales = the 84 MELD cards.
    assert 3 * 12 + 33 + 15 == 84


def test_masks_relative_to_c():
    ms = default_set()
    assert ms.required_mask(find(ms, "maj")) == pcset.mask_of([0, 4, 7])
    seventh = find(ms, "7")
    assert ms.required_mask(seventh) == pcset.mask_of([0, 4, 10])
    assert ms.optional_mask(seventh) == pcset.mask_of([7])
    eleventh = find(ms, "11")
    assert ms.required_mask(eleventh) == pcset.mask_of([0, 10, 2, 5])
    assert ms.optional_mask(eleventh) == pcset.mask_of([4, 7])
    assert ms.required_mask(find(ms, "P8")) == 1


def test_cards_a_meld_takes():
    ms = default_set()
    expected = {"P8": (2, 2), "m2": (2, 2), "5": (2, 2), "maj": (3, 3), "7": (3, 4),
                "6": (4, 4), "9": (4, 5), "11": (4, 6), "min11": (4, 6), "13": (4, 7),
                "major": (7, 7), "blues": (6, 6), "chromatic": (12, 12)}
    for ident in expected:
        meld = ms.meld(find(ms, ident))
        assert (meld.min_cards, meld.max_cards) == expected[ident], ident


def test_symmetric_melds_have_fewer_shapes():
    ms = default_set()
    expected = {"TT": 6, "aug": 4, "dim7": 3, "whole-tone": 2, "chromatic": 1,
                "maj": 12, "P8": 12, "m2": 12, "major": 12, "7#5": 12}
    for ident in expected:
        assert ms.meld(find(ms, ident)).distinct_roots() == expected[ident], ident
    for i in range(ms.count):
        meld = ms.meld(i)
        shapes = []
        for root in range(12):
            shape = (pcset.rotate(meld.required_mask, root), pcset.rotate(meld.optional_mask, root))
            if shape not in shapes:
                shapes.append(shape)
        assert len(shapes) == meld.distinct_roots(), meld.id


def test_notes_at_every_root_are_the_rotated_mask():
    ms = default_set()
    for i in range(ms.count):
        meld = ms.meld(i)
        for root in range(12):
            for name in pc_names(root):
                pcs = [note_pc(n) for n in meld.notes(name)]
                assert pcset.mask_of(pcs) == pcset.rotate(meld.full_mask, root), (meld.id, root)
                assert pcs[0] == root


def test_degree_text_and_kinds():
    ms = default_set()
    assert ms.meld(find(ms, "13")).degree_text() == "1 3 (5) b7 (9) (11) 13"
    assert ms.kind_name(find(ms, "blues")) == "scale"
    assert KINDS == ("interval", "chord", "scale")
    assert kind_index("chords") == 1 and kind_index("scale") == 2 and kind_index("x") == -1
