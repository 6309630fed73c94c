"""The price totals in boards/README.md are the sums of its parts tables
(host_tools/builds/prices.py): summed here again by hand for the shipped tables (the issue's
own sums: Pico $23.45, QT Py $29.40, ESP32 $29.45 without the options), and a row added to a
table changes the totals it belongs to."""

import pytest

from host_tools.builds import prices


def readme():
    with open(prices.README, encoding="utf-8") as f:
        return f.read()


def test_the_readmes_totals_are_its_tables_sums():
    text = readme()
    assert prices.readme_with_totals(text) == text, \
        "regenerate: python -m host_tools.builds.prices --readme"


def test_the_sums_by_hand():
    # every build: ring 7.50, encoder 2.50, knob 1, 330 ohm 0.10, 1000 uF 0.35, wire 2,
    # heat-shrink 0.50, solder 1, foam tape 0.20, screws 0.30, filament 1 = 16.45
    rows = {build: rest for build, *rest in prices.totals(readme())}
    assert rows["Pico"][0] == (23.45, 23.45)             # 16.45 + Pico 4 + cable 3
    assert rows["QT Py"][0] == (29.40, 29.40)            # 16.45 + 9.95 + 3
    assert rows["ESP32"][0] == (29.45, 29.45)            # 16.45 + 10 + 3
    # the OLED (Adafruit 326 17.50 and its cable 0.95) and the piezo (1.50 and its 100 ohm
    # 0.10): 20.05 more
    assert rows["Pico"][1] == (43.50, 43.50) and rows["QT Py"][1] == (49.45, 49.45)
    # a generic module ($3-8) on four jumper wires, and the piezo: 4.60 to 9.60 more; the QT
    # Py takes it through a cable: no such column
    assert rows["Pico"][2] == (28.05, 33.05) and rows["QT Py"][2] is None
    assert rows["ESP32"][3] == (1.50, 1.50)              # the 74AHCT125
    # the jacks: two sockets 0.60 each, H11L1 1, 1N4148 0.05, resistors 0.40, 100 nF 0.10,
    # a TRS cable 3
    assert rows["Pico"][4] == (5.75, 5.75)
    assert dict(prices.ring_differences(readme())) == {
        16: (2.45, 2.45), 24: (9.50, 12.50), 60: (32.50, 32.50)}   # 60: four arcs of $10


def test_a_row_added_to_a_table_is_in_the_totals():
    text = readme()
    extra = "| a wheel's rubber feet | 4 | any | $0.25 each | |\n"
    at = text.index("| 330 \u03a9 resistor, 1/4 W |")
    more = prices.totals(text[:at] + extra + text[at:])
    for before, after in zip(prices.totals(text), more):
        assert after[1][0] == pytest.approx(before[1][0] + 1.00)       # 4 x $0.25
    midi = text.index("| 1N4148 diode |")
    more = prices.totals(text[:midi] + "| a panel label | 1 | any | $0.30 | |\n" + text[midi:])
    assert more[0][5][0] == pytest.approx(prices.totals(text)[0][5][0] + 0.30)
    # an optional part the totals cannot place is refused, naming it
    shifter = text.index("| level shifter for a ring")
    with pytest.raises(prices.PriceError, match="'a fan' is none of theirs"):
        prices.totals(text[:shifter] + "| a fan | 1 | any | $2 | |\n" + text[shifter:])


def test_a_price_cell_reads_as_a_maker_reads_it():
    assert prices.price("$0.60 each", "2") == (1.2, 1.2)
    assert prices.price("$1 (of a $10 reel)", "a few grams") == (1, 1)
    assert prices.price("Adafruit 1586, $17-20") == (17, 20)
    assert prices.price("about $10 each", "four") == (40, 40)
    with pytest.raises(prices.PriceError, match="no price in dollars"):
        prices.price("free")
