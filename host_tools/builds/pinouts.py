"""The pins each board breaks out (boards/pinouts/NAME.json: their places on the header, the
pins to avoid and why), and the check of a board file's pins against them: a pin the board does
not break out, a flash, console, input-only or strapping pin, rotaryio's A and B not on
consecutive GPIOs, SDA and SCL on two buses, MIDI's TX and RX not one UART's pins. Each problem
names the field, the pin and free pins to use instead. Host only: `chromawheel board validate`,
the wiring pictures and the bring-up use it; the device checks only what its board file says
(hardware/board.py)."""

import json
import os

from hardware import board as board_file

from host_tools import shipped

PINOUT_DIR = shipped("boards", "pinouts")


def check(board):
    """hardware.board's header_check: the board's pins against its pinout's table."""
    return header_problems(board, read_pinout(PINOUT_DIR, board["pinout"]))


# What each field's pin must do: drive a signal, read one, or carry I2C.
PIN_ROLES = (("ring", "pin", "out"), ("encoder", "pin_a", "in"), ("encoder", "pin_b", "in"),
             ("button", "pin", "in"), ("display", "sda", "sda"), ("display", "scl", "scl"),
             ("buzzer", "pin", "out"), ("midi", "tx", "tx"), ("midi", "rx", "rx"))


def read_pinout(folder, name):
    try:
        with open(os.path.join(folder, name + ".json")) as f:
            table = json.load(f)
    except OSError:
        known = sorted(n[:-5] for n in os.listdir(folder) if n.endswith(".json"))
        return {"missing": name, "known": known}
    table["by_pin"] = by_pin = {}
    for entry in table["pins"]:
        by_pin[entry["pin"]] = entry
        for alias in entry.get("aliases", ()):
            by_pin[alias] = entry
    return table


def pin_text(table, entry):
    """'GP16 (pin 21)', 'A3 (GPIO26, left 4)'."""
    if "gpio" in entry:
        return "%s (GPIO%d, %s)" % (entry["pin"], entry["gpio"], entry["place"])
    return "%s (%s)" % (entry["name"], entry["place"])


def _fits(table, entry, role, pull):
    if entry.get("avoid") or entry.get("strapping") and role == "in" and pull != "none":
        return False
    if entry.get("input_only") and (role not in ("in", "rx") or pull != "none"):
        return False
    gpio = entry.get("gpio", entry["pin"])
    if table.get("chip") == "rp2040" and role in ("sda", "scl"):
        return gpio % 2 == (role == "scl")
    if table.get("chip") == "rp2040" and role in ("tx", "rx"):
        return board_file.rp2040_uart(gpio, role) is not None
    return True


def _free(table, used, role, pull, count=3):
    """A few header pins that would do instead, with their places."""
    free = [e for e in table["pins"] if e["pin"] not in used and not e.get("boot")
            and not e.get("strapping") and _fits(table, e, role, pull)]
    return ", ".join(pin_text(table, e) for e in free[:count]) or "none left: free one"


def header_problems(board, table):
    """Every pin on the header of the board named, fit for its job; rotaryio's pins
    consecutive; I2C pins on one bus. Each problem names the field, the pin and what to use."""
    if "missing" in table:
        return [("pinout", "%r is not a board the tools know (%s); null skips the header check"
                 % (table["missing"], ", ".join(table["known"])))]
    if table["platform"] != board["platform"]:
        return [("pinout", "%r is a %s board's pinout, not a %s one's" % (
            board["pinout"], table["platform"], board["platform"]))]
    problems = []
    used = _used(board)
    found = {}
    for section, field, role, pin, pull in _pins(board):
        where = section + "." + field
        entry = table["by_pin"].get(pin)
        use = "; use " + _free(table, used, role, pull)
        if entry is None:
            problems.append((where, _off_header(table, pin) + use))
            continue
        found[where] = entry
        message = _misuse(table, board, section, role, pull, entry)
        if message:
            problems.append((where, message + use))
    problems.extend(_pair_problems(board, table, found, used))
    return problems


def _used(board):
    return [board[s][f] for s, f, _ in PIN_ROLES if board.get(s) and board[s].get(f) is not None]


def _pins(board):
    """(section, field, role, pin, pull) of every pin the board file uses."""
    for section, field, role in PIN_ROLES:
        part = board.get(section)
        if not part or part.get(field) is None:
            continue
        pull = part.get("pull", "none")
        if board["encoder"]["driver"] == "rotaryio" and section == "encoder":
            pull = "none"                    # rotaryio sets its pins up itself
        yield section, field, role, part[field], pull


def _off_header(table, pin):
    inside = table["inside"].get(str(pin))
    name = ("GP%d" % pin if table["platform"] == "rp2" else "GPIO%d" % pin) \
        if isinstance(pin, int) else pin
    if inside:
        return "%s %s: it is not on the %s's header" % (name, inside, table["short"])
    return "%r is not a pin of the %s" % (pin, table["short"])


def _misuse(table, board, section, role, pull, entry):
    """Why this header pin cannot do this job, or None."""
    text = pin_text(table, entry)
    if entry.get("avoid"):
        return "%s %s" % (text, entry["avoid"])
    if entry.get("input_only") and role not in ("in", "rx"):
        return "%s is %s: it cannot drive %s" % (text, entry["input_only"], _driven(section))
    if entry.get("input_only") and pull != "none":
        # a KY-040 module carries pull-ups on CLK and DT, none on SW
        fit = ("10 k\u03a9 pull-ups to 3.3 V (a KY-040 module has them on CLK and DT)"
               if section == "encoder" else "a 10 k\u03a9 pull-up to 3.3 V on it (a KY-040 "
               "module has none on SW)")
        return "%s is %s, so %s.pull %r cannot work: set it to \"none\" and fit %s" % (
            text, entry["input_only"], section, pull, fit)
    if entry.get("strapping") and role == "in" and pull == "up":
        return "%s %s (this %s's pull-up holds it high)" % (text, entry["strapping"], section)
    return _bus_misuse(table, role, entry, text)


def _bus_misuse(table, role, entry, text):
    """An RP2040 pin on the wrong I2C or UART line, or None."""
    if table.get("chip") != "rp2040":
        return None
    if role in ("sda", "scl") and entry.get("gpio", entry["pin"]) % 2 != (role == "scl"):
        return "%s cannot be %s on the RP2040" % (text, role.upper())
    if role in ("tx", "rx") and "gpio" in entry and \
            board_file.rp2040_uart(entry["gpio"], role) is None:
        return "%s is not %s pin of the RP2040's UARTs" % (text, "a TX" if role == "tx"
                                                           else "an RX")
    return None


def _pressed(button):
    return "low" if button.get("active_low", True) else "high"


def warnings(board):
    """What works but may surprise (a strapping pin in use): [(field, message)], for a valid
    board file whose pinout names a table."""
    if not board.get("pinout"):
        return []
    return header_warnings(board, read_pinout(PINOUT_DIR, board["pinout"]))


def header_warnings(board, table):
    if "missing" in table:
        return []
    out = []
    used = _used(board)
    for section, field, role, pin, pull in _pins(board):
        entry = table["by_pin"].get(pin)
        if entry is None or not (entry.get("boot") or entry.get("strapping")):
            continue
        out.append((section + "." + field, "%s %s; %s: %s" % (
            pin_text(table, entry), entry.get("boot") or entry["strapping"],
            _strapping_cost(board, section, entry), _free(table, used, role, pull))))
    return out


def _strapping_cost(board, section, entry):
    """What a strapping pin costs this job. A button that holds it at its boot level loses the
    safe-mode gesture: a warning all the same (the BOOT button of a DevKitC is GPIO0), as the
    board runs and a held knob starts the bootloader, from which a flash still recovers it."""
    if section == "button" and entry.get("stops_boot") == _pressed(board["button"]):
        return ("the button makes it %s while held at power-up, so the safe-mode gesture (the "
                "knob held while plugging in) would not start the firmware; a pin that plays no "
                "part at reset keeps it" % entry["stops_boot"])
    return "it works with the %s on it, but a pin that plays no part at reset is safer" % section


def _driven(section):
    return {"ring": "the ring", "buzzer": "the buzzer", "midi": "MIDI OUT"}.get(section, "I2C")


def _pair_problems(board, table, found, used):
    problems = _uart_problems(board, table, found)
    a, b = found.get("encoder.pin_a"), found.get("encoder.pin_b")
    if board["encoder"]["driver"] == "rotaryio" and a and b and "gpio" in a \
            and abs(a["gpio"] - b["gpio"]) != 1:
        others = [p for p in used if p not in (a["pin"], b["pin"])]
        pairs = []
        for e in table["pins"]:
            for f in table["pins"]:
                if e["gpio"] + 1 == f["gpio"] and e["pin"] not in others \
                        and f["pin"] not in others:
                    pairs.append("%s/%s" % (f["pin"], e["pin"]))
        problems.append(("encoder.pin_b", "%s is not next to encoder.pin_a %s: rotaryio "
                         "needs A and B on consecutive GPIOs (CircuitPython: \"Pins must be "
                         "sequential GPIO pins\"); use a pair such as %s" % (
                             pin_text(table, b), pin_text(table, a), ", ".join(pairs[:4]))))
    sda, scl = found.get("display.sda"), found.get("display.scl")
    if table.get("chip") == "rp2040" and board["platform"] == "circuitpython" and sda and scl:
        bus_sda, bus_scl = sda["gpio"] % 4 // 2, scl["gpio"] % 4 // 2
        if bus_sda != bus_scl:
            problems.append(("display.scl", "%s is on I2C%d, display.sda %s on I2C%d: SDA and "
                             "SCL must share a bus (SDA/SCL, or SDA1/SCL1 on the STEMMA QT)" % (
                                 pin_text(table, scl), bus_scl, pin_text(table, sda), bus_sda)))
    return problems


def _uart_problems(board, table, found):
    """A CircuitPython RP2040 board's MIDI TX and RX on one UART (busio.UART takes the UART
    from the pins and refuses a pair that is not one UART's: "Invalid pins")."""
    tx, rx = found.get("midi.tx"), found.get("midi.rx")
    if table.get("chip") != "rp2040" or board["platform"] != "circuitpython" or not tx or not rx:
        return []
    uart_tx = board_file.rp2040_uart(tx["gpio"], "tx")
    uart_rx = board_file.rp2040_uart(rx["gpio"], "rx")
    if uart_tx is None or uart_rx is None or uart_tx == uart_rx:
        return []
    return [("midi.rx", "%s is an RX pin of UART%d, midi.tx %s a TX pin of UART%d: TX and RX "
             "must be one UART's" % (pin_text(table, rx), uart_rx, pin_text(table, tx),
                                     uart_tx))]
