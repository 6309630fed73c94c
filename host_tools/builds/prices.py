"""The price totals in boards/README.md, summed from its parts tables, so a row added to a table
(a part, a price changed) changes the totals with it.

    python -m host_tools.builds.prices --readme      (rewrites the totals in boards/README.md)

The tables are read by the line that leads each one in "Parts and what they cost": "Every
build" (in every total), "The board, by build" (the board and its USB cable), "Optional" (each
row the OLED's, the piezo's or the level shifter's, by its words) and "MIDI jacks". A row's
price is its "typical price" cell's first dollar figure (a range "$17-20" stays a range),
times its quantity when the price is "each"."""

import argparse
import re
import sys
import textwrap

from host_tools import shipped

README = shipped("boards", "README.md")
SECTION = "## Parts and what they cost"
MARKS = ("<!-- totals: python -m host_tools.builds.prices --readme -->", "<!-- end of totals -->")
TABLES = (("every", "Every build"), ("boards", "The board, by build"), ("optional", "Optional"),
          ("midi", "MIDI jacks"), ("rings", None))
# The optional rows, by what their part cell says.
OPTIONAL = (("display", ("OLED",)), ("buzzer", ("piezo", "100 \u03a9")),
            ("shifter", ("level shifter",)))
WORDS = {"two": 2, "three": 3, "four": 4}
GENERIC_OLED = re.compile(r"generic 4-pin modules, \$(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)")


class PriceError(ValueError):
    pass


def _cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def tables(text):
    """{name: [row cells]} of the parts tables, each found by the line that leads it; the
    ring table is the one in "Choosing a ring"."""
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", 1)]
    found = {}
    for name, lead in TABLES:
        if lead is None:
            continue
        at = re.search(r"^%s\b" % re.escape(lead), section, re.M)
        if at is None:
            raise PriceError("boards/README.md: no table led by %r in %s" % (lead, SECTION))
        found[name] = _table_after(section, at.end())
    rings = text[text.index("## Choosing a ring"):]
    found["rings"] = _table_after(rings, 0)
    return found


def _table_after(text, at):
    lines = text[at:].split("\n")
    start = next(i for i, line in enumerate(lines) if line.startswith("|"))
    rows = []
    for line in lines[start + 2:]:                 # past the header and its rule
        if not line.startswith("|"):
            break
        rows.append(_cells(line))
    return rows


def price(cell, qty="1"):
    """(low, high) in dollars of a price cell: '$0.60 each' with qty 2 -> (1.2, 1.2)."""
    found = re.search(r"\$(\d+(?:\.\d+)?)(?:-(\d+(?:\.\d+)?))?", cell)
    if found is None:
        raise PriceError("%r: no price in dollars" % cell)
    low = float(found.group(1))
    high = float(found.group(2) or low)
    if "each" in cell:
        count = re.match(r"\s*(\d+|%s)\b" % "|".join(WORDS), qty)
        n = int(count.group(1)) if count.group(1).isdigit() else WORDS[count.group(1)]
        low, high = low * n, high * n
    return low, high


def _sum(rows, price_col=3, qty_col=1):
    low = high = 0.0
    for row in rows:
        a, b = price(row[price_col], row[qty_col])
        low, high = low + a, high + b
    return round(low, 2), round(high, 2)


def _optional(rows):
    groups = {name: [] for name, _ in OPTIONAL}
    for row in rows:
        names = [name for name, words in OPTIONAL if any(w in row[0] for w in words)]
        if len(names) != 1:
            raise PriceError("boards/README.md, the optional parts: %r is %s: name the OLED, "
                             "the piezo (or its 100 \u03a9) or the level shifter in it" % (
                                 row[0], "none of theirs" if not names else "more than one"))
        groups[names[0]].append(row)
    return groups


def totals(text):
    """[(build, required, with the OLED and the piezo, with a generic OLED or None, the level
    shifter, the MIDI jacks)]: each a (low, high) in dollars."""
    found = tables(text)
    every = _sum(found["every"])
    optional = _optional(found["optional"])
    display, buzzer = _sum(optional["display"]), _sum(optional["buzzer"])
    generic = GENERIC_OLED.search(optional["display"][0][4])
    # a board with a STEMMA QT socket takes a generic module through a cable, not four wires
    cables = " ".join(row[2] for row in optional["display"])
    rows = []
    for build, _, board, cable, _ in found["boards"]:
        board_price, cable_price = price(board), price(cable)
        required = tuple(round(every[i] + board_price[i] + cable_price[i], 2) for i in (0, 1))
        oled = tuple(round(required[i] + display[i] + buzzer[i], 2) for i in (0, 1))
        cheap = None
        if generic and "%s: a STEMMA QT cable" % build not in cables:
            cheap = tuple(round(required[i] + float(generic.group(i + 1)) + buzzer[i], 2)
                          for i in (0, 1))
        rows.append((build, required, oled, cheap, _sum(optional["shifter"]),
                     _sum(found["midi"])))
    return rows


def ring_differences(text):
    """[(LEDs, (low, high))]: what each bigger ring of the ring table adds to the 12's price."""
    found = tables(text)
    base = price(found["every"][0][3])
    out = []
    for leds, _, example, _, _ in found["rings"][1:]:
        low, high = price(example)
        arcs = re.search(r"\b(%s) quarter arcs\b.*\beach\b" % "|".join(WORDS), example)
        n = WORDS[arcs.group(1)] if arcs else 1
        out.append((int(leds), (round(n * low - base[0], 2), round(n * high - base[1], 2))))
    return out


def dollars(pair):
    low, high = pair
    if low == high:
        return "$%.2f" % low
    return "$%.2f to $%.2f" % (low, high)


def totals_block(text):
    rows = ["| build | required parts | with the OLED (Adafruit 326 and its cable) and the "
            "piezo | with a generic 4-pin OLED instead (four jumper wires) | a level shifter "
            "| the MIDI jacks |", "| --- | --- | --- | --- | --- | --- |"]
    for build, required, oled, cheap, shifter, midi in totals(text):
        rows.append("| %s | %s | %s | %s | %s more | %s more |" % (
            build, dollars(required), dollars(oled), dollars(cheap) if cheap else
            "\u2014 (the STEMMA QT column)", dollars(shifter), dollars(midi)))
    rings = ", ".join("%d LEDs %s more" % (leds, dollars(diff))
                      for leds, diff in ring_differences(text))
    note = textwrap.fill("Summed from the tables above (`python -m host_tools.builds.prices "
                         "--readme` writes this; a test sums them again). A bigger ring adds "
                         "the difference in its price, from [Choosing a ring](#choosing-a-"
                         "ring): %s." % rings, 96, break_on_hyphens=False)
    return "\n".join(rows) + "\n\n" + note


def readme_with_totals(text):
    start, end = text.index(MARKS[0]), text.index(MARKS[1])
    return text[:start + len(MARKS[0])] + "\n\n" + totals_block(text) + "\n\n" + text[end:]


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.builds.prices",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", action="store_true",
                        help="rewrite the totals in boards/README.md from its tables")
    args = parser.parse_args(argv)
    with open(README, encoding="utf-8") as f:
        text = f.read()
    try:
        new = readme_with_totals(text)
    except PriceError as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    if args.readme:
        with open(README, "w", encoding="utf-8") as f:
            f.write(new)
        print("wrote the totals in boards/README.md")
    else:
        print(totals_block(text))
    return 0


if __name__ == "__main__":
    sys.exit(main())
