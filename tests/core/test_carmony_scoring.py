from core.games.carmony_table import meld_points, round_points


class Shape:
    def __init__(self, kind, text):
        self.kind = kind
        self.text = text

    def degree_text(self):
        return self.text


def test_points_by_cards_and_specials():
    chord = Shape("chord", "1 3 5")
    assert [meld_points(chord, n) for n in (2, 3, 4, 5, 6, 7, 12)] == [
        20, 40, 70, 100, 150, 200, 500]
    assert meld_points(Shape("chord", "1 5"), 2) == 100
    assert meld_points(Shape("interval", "1 5"), 2) == 20
    assert meld_points(Shape("scale", "1 2 3 4 5 6 7"), 7) == 350
    assert meld_points(Shape("scale", "1 2 b3 4 5 6 7"), 7) == 200
    assert meld_points(Shape("scale", "1 b2 b3 3 #4 5 6 b7"), 8) == 200


def test_round_points():
    # A triad, a power chord and a major scale on the table, 3 cards left, went out.
    assert round_points([40, 100, 350], 3, True) == 40 + 100 + 350 - 30 + 200
    assert round_points([], 5, False) == -50
