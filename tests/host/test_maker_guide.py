"""What boards/README.md tells a maker, held to what the code does: the encoders' pulses and
detents against `encoder.pulses_per_detent` (the quadrature steps a detent, as the decoder
counts them), the troubleshooting table's advice for a knob that moves two notes a click or
one every second click (which way to change the value), the read-only CIRCUITPY row against
the tools' own message, and the shared ground for a separate supply."""

import re

from hardware.quadrature import QuadratureDecoder

from host_tools.builds import prices
from host_tools.device import drive

CW_STEPS = (1, 0, 2, 3)            # one full quadrature cycle clockwise from rest (A B = 1 1)


def readme():
    with open(prices.README, encoding="utf-8") as f:
        return f.read()


def turn(ppd, steps_a_click, clicks):
    """What the firmware counts for `clicks` clicks of an encoder that makes `steps_a_click`
    quadrature steps a click, with encoder.pulses_per_detent `ppd`."""
    decoder = QuadratureDecoder(ppd)
    for i in range(clicks * steps_a_click):
        decoder.feed(CW_STEPS[i % 4])
    return decoder.take()


def test_the_encoders_pulses_give_the_pulses_per_detent_the_guide_says():
    # "N detents ... M pulses a turn ... `pulses_per_detent` K" (Bourns and Alps count a pulse
    # as a full cycle of A and B: four steps); the field counts the steps a detent
    text = readme()
    found = re.findall(r"(\d+) detents(?: and|,) (\d+) pulses a turn.*?`(?:encoder\.)?"
                       r"pulses_per_detent`(?: to)? (\d)", text)
    assert len(found) == 2, found                  # the PEC11R and the Alps EC11E18244A5
    for detents, pulses, ppd in found:
        steps = 4 * int(pulses) // int(detents)
        assert steps == int(ppd), (detents, pulses, ppd)
        assert turn(int(ppd), steps, 5) == 5       # a note a click


def row(text, starts):
    table = text[text.index("## Troubleshooting"):text.index("**Serial ports.**")]
    (line,) = [line for line in table.splitlines() if line.startswith("| " + starts)]
    return line


def test_the_troubleshooting_rows_say_which_way_to_change_pulses_per_detent():
    text = readme()
    two = row(text, "the knob moves two notes a click")
    half = row(text, "the knob moves a note only every second click")
    # a PEC11R (4 steps a click) with 2: two notes a click; the advice doubles it
    assert turn(2, 4, 3) == 6 and "double it (2 \u2192 4" in two and turn(4, 4, 3) == 3
    # an Alps EC11E18244A5 (2 steps a click) with 4: a note every second click; halved
    assert turn(4, 2, 4) == 2 and "halve it (4 \u2192 2" in half and turn(2, 2, 4) == 4


def test_the_read_only_drive_row_gives_the_tools_own_advice():
    line = row(text := readme(), "`deploy --drive`")
    assert "CIRCUITPY is read-only" in line
    # the tools say: hold the knob's button while plugging the board in
    advice = drive.HOLD_HINT.split(": ", 1)[1]
    assert advice.startswith("hold the knob's button while plugging the board in")
    assert "hold the knob's button while plugging the board in" in line
    assert "amber quarters: safe mode" in line and "amber quarters" in text


def test_a_separate_supply_shares_the_boards_ground():
    text = readme()
    line = row(text, "the ring shows random colours")
    assert "no shared ground" in line and "supply's GND to the board's GND" in line
    assert "the supply's GND also to the board's GND" in " ".join(text.split())   # Choosing a ring
