"""The opt-in kept table of the table modes (KeepsTable, firmware/modes/__init__.py says how a
mode opts in): in a module of its own, imported by the modes that keep a table, so a board
running the explorer alone does not hold its code in RAM."""

from firmware.modes import Context, _required


class KeepsTable:
    """Opt-in (a mixin listed before Mode): the table's state kept in the board's record store
    (ctx.settings.records: each record written whole and atomically), so a mode switch, a
    reboot or a power cut loses nothing. The mode gives state() -> bytes (its table, small)
    and restore(raw) -> bool (that state back; bytes it does not accept change nothing and
    give False), and calls keep_state() after each press and each change of the meld set.
    load_mode restores the kept state. A turn's change is kept with the next press (the long
    press that opens the menu too, below): a spin does not write the flash at each detent.

    The record, `state_file` (by default the mode's name, _ for spaces, .txt), is a header
    line, `<mode name> <state_format> <meld set name, or * when kept_per_set is False>`, and
    the state's bytes: a record of another mode, format or set, or one restore() refuses,
    leaves the mode as it starts. It is written only when it changed, at event time, never
    from render(); a store that refuses it (full, read-only) is tried again at the next
    change: the game goes on. CircuitPython's store needs the name in
    firmware/records.py's RECORD_KEYS."""

    # What the Mode beside this mixin has (Mode.__init__ and load_mode set them): said here
    # for the port checks' type checker (host_tools/device/port_check.py).
    name = "mode"
    ctx: Context = None       # (MicroPython ignores the annotation)
    state_file = None
    state_format = 1          # a new format of state(): bump it, older records are ignored
    kept_per_set = True       # the state names melds of the set (positions in its lists)
    _kept = None              # the record last read or written; None until load_state()

    state = restore = _required            # state() -> bytes; restore(raw) -> bool

    def state_path(self):
        return self.state_file or kept_file(self.name)

    def _header(self):
        kept_for = self.ctx.meldset_name if self.kept_per_set else "*"
        return ("%s %d %s\n" % (self.name, self.state_format, kept_for)).encode()

    def load_state(self):
        """The kept state, if there is one for this mode, format and set: True when restored."""
        raw = self.ctx.settings.records.read(self.state_path())
        self._kept = raw or b""
        header = self._header()
        if not raw or bytes(raw[:len(header)]) != header:
            return False
        return self.restore(bytes(raw[len(header):]))

    def keep_state(self):
        """Write the state if it changed since it was last kept (after load_state() only: a
        mode being built does not overwrite its kept table)."""
        if self._kept is None:
            return
        record = self._header() + self.state()
        if record == self._kept:
            return
        try:
            self.ctx.settings.records.write(self.state_path(), record)
        except OSError:
            return                          # not kept: tried again at the next change
        self._kept = record

    def on_long(self):
        self.keep_state()                   # the menu may switch the mode: the turns kept
        self.ctx.open_menu()


def kept_file(name):
    """The record of the kept table of the mode called `name` ('meld check' ->
    'meld_check.txt')."""
    return name.replace(" ", "_") + ".txt"
