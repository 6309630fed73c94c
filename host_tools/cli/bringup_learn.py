"""What bring-up's counts and answers mean for the board file: the ring's first LED, direction
and colour order from what the maker saw; the knob's direction and pulses per detent from the
steps the device counted for the clicks asked (or, on a CircuitPython drive, from what the
maker saw the root do); the pins to check named with their places on the board."""

from hardware import board as board_file

from host_tools.errors import UserError

COLOURS = {"red": (255, 0, 0), "green": (0, 255, 0), "blue": (0, 0, 255)}
# The quadrature steps (edges) a click the firmware counts as one detent: the values
# encoder.pulses_per_detent takes. A PEC11R (24 pulses, 24 detents) makes 4, an Alps
# EC11E18244A5 (18 pulses, 36 detents) 2.
STEPS = (1, 2, 4)
RATIO_WORDS = {2: "double", 4: "four times over", 0.5: "half", 0.25: "a quarter"}


def learn_first_led(ring, answer):
    """The lit LED (C's) is `answer` LEDs clockwise from 12 o'clock: the LED at 12 o'clock."""
    try:
        k = int(answer)
    except ValueError:
        raise UserError("%r: the number of LEDs clockwise from 12 o'clock to the lit one "
                        "(0 if it is at 12 o'clock)" % answer) from None
    step = 1 if ring["direction"] == "cw" else -1
    return (ring["led_at_c"] - step * k) % ring["count"]


def learn_order(order, seen):
    """The ring's colour order, from the colours seen where red, green and blue were sent in
    `order`: the order that turns what was sent into what was seen."""
    words = [w for w in seen.replace(",", " ").lower().split() if w]
    if len(words) != 3 or any(w not in COLOURS for w in words):
        raise UserError("%r: three colours, in order: e.g. red green blue" % seen)
    base = order[:3]
    for true in board_file.COLOUR_ORDERS:
        if len(true) != 3:
            continue
        if all(_shown(base, true, COLOURS[sent]) == COLOURS[got]
               for sent, got in zip(("red", "green", "blue"), words)):
            return true + order[3:]
    raise UserError("%r: no colour order gives those colours" % seen)


def _shown(sent_order, true_order, rgb):
    """What a ring of `true_order` shows for `rgb` written in `sent_order`."""
    wire = [rgb["RGB".index(c)] for c in sent_order]
    return tuple(wire[true_order.index(c)] for c in "RGB")


def learn_direction(steps):
    if steps == 0:
        return None
    return 1 if steps > 0 else -1


def _clicks(n):
    return "%d click%s" % (n, "" if n == 1 else "s")


def learn_knob(steps, asked, encoder):
    """The knob was turned `asked` clicks clockwise and the device counted `steps` quadrature
    steps (signed: the wiring's own sign, encoder.reverse left out). Returns (fixes, said):
    fixes {field: new value} for the encoder section, said what happened in words."""
    ppd = encoder["pulses_per_detent"]
    old = -1 if encoder["reverse"] else 1
    if steps == 0:
        return {}, "nothing counted for the %s turned" % _clicks(asked)
    fixes = {}
    counted = abs(steps) // ppd                  # what the firmware showed with this file
    said = "%s counted for the %d turned" % (_clicks(counted), asked)
    if learn_direction(steps) != old:
        fixes["direction"] = -old
        said += ", the other way round (backwards)"
    per, left = divmod(abs(steps), asked)
    if left or per not in STEPS:
        return fixes, ("%s: %d steps, not a whole number a click (a click more or less "
                       "than asked?): turn exactly %d clicks and run this step again"
                       % (said, abs(steps), asked))
    if per != ppd:
        fixes["pulses_per_detent"] = per
        said += ": it counts %s (%d steps a click; the board file says %d)" % (
            RATIO_WORDS[per / ppd], per, ppd)
    return fixes, said


# What the maker may say the root did after one click clockwise (on a CircuitPython drive,
# where the running firmware shows it): each answer's words, and what it means.
KNOB_ANSWERS = (("one", ("one", "1", "y", "yes", "up", "right", "ok")),
                ("two", ("two", "2", "double", "twice")),
                ("back", ("back", "backwards", "down", "reverse", "reversed")),
                ("nothing", ("nothing", "none", "0", "still")))


def knob_facts(answer):
    """The facts in an answer ("two notes, backwards" -> {"two", "back"}), or None when it
    names none (a bare "no" says only that something was wrong)."""
    words = answer.replace(",", " ").lower().split()
    facts = {fact for fact, said in KNOB_ANSWERS if any(w in said for w in words)}
    if "nothing" in facts and len(facts) > 1 or not facts:
        return None
    return facts - {"one"} if facts != {"one"} else set()


def knob_fixes(facts, moved_later, encoder):
    """The encoder's fixes from what the root did: `facts` from knob_facts, `moved_later`
    (after nothing: did a second click move it?). (fixes, said)."""
    ppd = encoder["pulses_per_detent"]
    fixes, said = {}, []
    if "back" in facts:
        fixes["direction"] = 1 if encoder["reverse"] else -1
        said.append("it turns backwards")
    if "two" in facts:
        if ppd < 4:
            fixes["pulses_per_detent"] = ppd * 2
            said.append("it moves two notes a click: it counts double")
        else:
            said.append("it moves two notes a click with pulses_per_detent 4, the most the "
                        "firmware takes: check A and B for a loose wire")
    if "nothing" in facts and moved_later:
        if ppd > 1:
            fixes["pulses_per_detent"] = ppd // 2
            said.append("it moves only every second click: it counts half")
        else:
            said.append("it moves only every second click with pulses_per_detent 1: check A "
                        "and B for a loose wire")
    elif "nothing" in facts:
        said.append("nothing moves")
    return fixes, "; ".join(said) or "one note up a click, as it should"


def change_lines(encoder, fixes):
    """'encoder.pulses_per_detent 2 -> 4' for each fix."""
    old = {"direction": -1 if encoder["reverse"] else 1,
           "pulses_per_detent": encoder["pulses_per_detent"]}
    return ["encoder.%s %d -> %d" % (field, old[field], fixes[field])
            for field in ("direction", "pulses_per_detent") if field in fixes]


def apply_fixes(obj, fixes):
    """Write the encoder's fixes into the board file's object (direction replaces reverse)."""
    for field, value in fixes.items():
        obj["encoder"][field] = value
    if "direction" in fixes:
        obj["encoder"].pop("reverse", None)


# -- the pins to check, with their places ------------------------------------------------------

PAD_NAMES = {("encoder", "pin_a"): "A", ("encoder", "pin_b"): "B", ("button", "pin"): "SW",
             ("display", "sda"): "SDA", ("display", "scl"): "SCL", ("buzzer", "pin"): "+"}


def pin_places(config, section, fields):
    """'A on GP17 (pin 22), B on GP18 (pin 24)': each pin with its place on the board's header
    (boards/pinouts/), as `board validate` and the wiring pictures name them."""
    from host_tools.builds import pinouts
    table = pinouts.read_pinout(pinouts.PINOUT_DIR, config["pinout"]) \
        if config.get("pinout") else {}
    out = []
    for field in fields:
        pin = config[section][field]
        entry = table.get("by_pin", {}).get(pin)
        out.append("%s on %s" % (PAD_NAMES[(section, field)],
                                 pinouts.pin_text(table, entry) if entry else pin))
    return ", ".join(out)


def ground_place(config, section):
    """'GND (pin 23)': the ground the wiring pictures give the part, or plain GND."""
    from host_tools.builds import pinouts
    if not config.get("pinout"):
        return "GND"
    ground = pinouts.read_pinout(pinouts.PINOUT_DIR, config["pinout"]).get("ground", {})
    return "GND (%s)" % ground[section] if section in ground else "GND"
