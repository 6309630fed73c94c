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
    used = [board[s][f] for s, f, _ in PIN_ROLES if board.get(s) and board[s].get(f) is not None]
    found = {}
    for section, field, role in PIN_ROLES:
        part = board.get(section)
        if not part or part.get(field) is None:
            continue
        pin, where = part[field], section + "." + field
        pull = part.get("pull", "none")
        if board["encoder"]["driver"] == "rotaryio" and section == "encoder":
            pull = "none"                    # rotaryio sets its pins up itself
        entry = table["by_pin"].get(pin)
        use = "; use " + _free(table, used, role, pull)
        if entry is None:
            inside = table["inside"].get(str(pin))
            name = ("GP%d" % pin if table["platform"] == "rp2" else "GPIO%d" % pin) \
                if isinstance(pin, int) else pin
            if inside:
                problems.append((where, "%s %s: it is not on the %s's header%s" % (
                    name, inside, table["short"], use)))
            else:
                problems.append((where, "%r is not a pin of the %s%s" % (
                    pin, table["short"], use)))
            continue
        found[where] = entry
        text = pin_text(table, entry)
        if entry.get("avoid"):
            problems.append((where, "%s %s%s" % (text, entry["avoid"], use)))
        elif entry.get("input_only") and role not in ("in", "rx"):
            problems.append((where, "%s is %s: it cannot drive %s%s" % (
                text, entry["input_only"], _driven(section), use)))
        elif entry.get("input_only") and pull != "none":
            problems.append((where, "%s is %s, so %s.pull %r cannot work: set it to \"none\" "
                             "and fit 10 k\u03a9 pull-ups to 3.3 V (a KY-040 has them)%s" % (
                                 text, entry["input_only"], section, pull, use)))
        elif entry.get("strapping") and role == "in" and pull == "up":
            problems.append((where, "%s %s (this %s's pull-up holds it high)%s" % (
                text, entry["strapping"], section, use)))
        elif table.get("chip") == "rp2040" and role in ("sda", "scl") \
                and entry.get("gpio", pin) % 2 != (role == "scl"):
            problems.append((where, "%s cannot be %s on the RP2040%s" % (
                text, role.upper(), use)))
        elif table.get("chip") == "rp2040" and role in ("tx", "rx") and "gpio" in entry and \
                board_file.rp2040_uart(entry["gpio"], role) is None:
            problems.append((where, "%s is not %s pin of the RP2040's UARTs%s" % (
                text, "a TX" if role == "tx" else "an RX", use)))
    problems.extend(_pair_problems(board, table, found, used))
    return problems


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
