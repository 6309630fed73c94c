"""The score pad's totals agree with `chromawheel score` for the same melds."""

import json

from core.check import check
from core.games.carmony_table import set_rank
from core.melds import find
from core.notes import note_pc
from core.parse import pc_of
from core.scorepad import CARDS_LEFT_ITEM, WENT_OUT_ITEM, ScorePad

from host_tools.cli.main import main
from host_tools.set_files import load_set

ROUND = {   # seat -> (melds as ID:NOTES, cards left, went out)
    0: (["min:C,Eb,G", "5:D,A", "major:G,A,B,C,D,E,F#"], 0, True),
    1: (["7:F,A,C,Eb", "P8:C,C"], 3, False),
    2: (["min7b5:E,G,Bb,D", "maj:F,A,C"], 1, False),
}


def cli_total(capsys, melds, left, went_out):
    argv = ["score", "carmony", "--unplayed", str(left), "--json"]
    for meld in melds:
        argv += ["--meld", meld]
    if went_out:
        argv.append("--went-out")
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)["total"]


def test_pad_totals_equal_chromawheel_score(capsys):
    ms = load_set(None)
    pad = ScorePad("original", 3, dealer=2)     # seat 0 plays first
    for seat in (0, 1, 2):
        melds, left, went_out = ROUND[seat]
        for text in melds:
            ident, _, notes = text.partition(":")
            index = find(ms, ident)
            pcs = [pc_of(n) for n in notes.split(",")]
            result = check(ms.meld(index), pcs)
            pad.meld(ident, note_pc(result.root), set_rank(ms, index), pcs, result.points)
        if left:
            pad.add(CARDS_LEFT_ITEM, left)       # the cards left in hand, one entry
        if went_out:
            pad.add(WENT_OUT_ITEM)
        pad.next_player()
    expected = [cli_total(capsys, *ROUND[seat]) for seat in (0, 1, 2)]
    assert pad.totals() == expected
    assert pad.end_round() == 2                  # seat 0 won: seat 2, to its right, deals
