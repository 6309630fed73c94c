"""Power cuts while real CircuitPython (the stock QT Py RP2040 UF2, emulated) saves settings.

What FAT needs, found here: CIRCUITPY is rewritten a 4 KB flash sector at a time, erase then
program, and a file write rewrites the sector holding the boot sector and the whole FAT. A cut in
that erase leaves no file system: CircuitPython formats the drive at the next power-up, and the
firmware, its libraries and the meld sets are gone (seen with this harness when the firmware still
saved to settings.json). So the firmware writes nothing on the drive in normal running: the
settings and the crash count are records in microcontroller.nvm (firmware/nvm_records.py), a
sector of their own. The cuts below land at seeded points inside the flash operations of a save
(host_tools/emulator/rp2040js/flash.cjs times them as the chip does)."""

import os
import random
import shutil

import pytest

from firmware.nvm_records import NvmRecords
from firmware.records import RECORD_KEYS
from host_tools.emulator import circuitpy_drive, emulate
from host_tools.sim.simulator import compile_script

pytestmark = pytest.mark.usefixtures("emulator")

NAME = "qtpy_rp2040"
BOARD = emulate.load_board(NAME)
ROOT_3 = "Eb major triad (maj): Eb G Bb"
ROOT_4 = "E major triad (maj): E G# B"
ROOT_0 = "C major triad (maj): C E G"


@pytest.fixture
def flash(tmp_path):
    path = str(tmp_path / "flash.img")
    shutil.copyfile(emulate.deployed_image(NAME, progress=lambda line: None), path)
    return path


def turn(pico, script):
    pico.send(*compile_script(script, BOARD["button"]))


def boot(pico):
    """Power up again (after a cut); the console of this boot once the wheel shows."""
    pico.serial.clear()
    pico.frames.clear()
    pico.power_up()
    emulate.wait_started(pico)
    return emulate.console_lines(pico)


def first_meld(console):
    return [line for line in console if "triad" in line][0]


def drive_without_boot_out(flash):
    files = emulate.drive_files(flash)
    files.pop("boot_out.txt", None)
    return files


def outside_nvm(ops, since_ns):
    """Flash operations after since_ns that lie outside the nvm sector."""
    return [op for op in ops if op[0] >= since_ns and not
            circuitpy_drive.NVM_OFFSET <= op[2] < circuitpy_drive.DRIVE_OFFSET]


def test_a_cut_inside_an_append_keeps_the_old_settings_or_the_new(flash):
    fraction = random.Random(int(os.getenv("CHROMAWHEEL_SEED", "7"))).random()
    drive = drive_without_boot_out(flash)
    with emulate.emulated(NAME, flash) as pico:
        emulate.wait_started(pico)
        started_ns = pico.frames[0][0]
        # Saved 5 s after the knob stops; then past the crash count's own save (the app has
        # run 10 s), so the next flash operation is the next settings save's.
        turn(pico, "cw 3; wait 6000; wait 5000")
        pico.wait_done(timeout=600)
        pico.cut_during(0, fraction)                      # its page program
        turn(pico, "cw 1; wait 6000")
        assert pico.wait_power_cut(timeout=600)
        assert pico.flash_ops[-1][1] == "program"
        assert pico.cut_at - pico.detents[-1] >= 5e9      # the save, 5 s after the knob
        assert not outside_nvm(pico.flash_ops, started_ns)   # the firmware wrote the nvm alone
        assert drive_without_boot_out(flash) == drive
        console = boot(pico)
    assert "meld set default loaded: 60 melds" in console
    assert first_meld(console) in (ROOT_3, ROOT_4), (fraction, console)
    print("cut %.3f of the way through the append: %s" % (fraction, first_meld(console)))


def test_a_cut_inside_a_full_logs_erase_costs_the_settings_never_the_drive(flash):
    # The one window left: a full log is erased and written again (once in 50 to 150 saves);
    # a cut in that erase loses the records, so the wheel starts from the defaults.
    fraction = random.Random(int(os.getenv("CHROMAWHEEL_SEED", "7")) + 1).random()
    nvm = circuitpy_drive.nvm_of(flash)
    records = NvmRecords(nvm, RECORD_KEYS)
    records.write("settings.json", b'{"root": 3}')
    while records.end + 8 + 12 <= len(nvm):               # room for the boot's count, no more
        records.write("crashes.txt", b"0")
    circuitpy_drive.put_nvm(flash, nvm)
    drive = drive_without_boot_out(flash)
    with emulate.emulated(NAME, flash) as pico:
        emulate.wait_started(pico)
        assert first_meld(emulate.console_lines(pico)) == ROOT_3
        pico.cut_during(0, fraction)
        turn(pico, "cw 1; wait 6000")
        assert pico.wait_power_cut(timeout=600)
        assert pico.flash_ops[-1][1:4] == ("erase", circuitpy_drive.NVM_OFFSET, 4096)
        assert pico.cut_at - pico.detents[-1] >= 5e9      # the settings save's, not the count's
        assert drive_without_boot_out(flash) == drive
        console = boot(pico)
    assert "meld set default loaded: 60 melds" in console
    assert first_meld(console) == ROOT_0
