"""The CIRCUITPY drive of an emulated CircuitPython RP2040, in its flash image.

Stock CircuitPython on a 2 MiB flash (what it assumes in rp2040js, which answers the flash ID
read with zeros) keeps CIRCUITPY as FAT12 in the second MiB: 2048 sectors of 512 bytes, one
sector a cluster. The host builds that FAT here (pyfatfs, pinned in requirements.txt) from
the files `deploy --drive` lays out, puts the firmware UF2 in the first MiB, and reads back
what the board wrote after a run."""

import io
import os
import posixpath
import shutil
import tempfile
import warnings

with warnings.catch_warnings():
    # pyfatfs stands on PyFilesystem2 (fs 2.4.16), whose import says that setuptools'
    # pkg_resources is deprecated: nothing to act on here.
    warnings.simplefilter("ignore", UserWarning)
    warnings.simplefilter("ignore", DeprecationWarning)
    from pyfatfs.PyFat import PyFat
    from pyfatfs.PyFatFS import PyFatBytesIOFS

from host_tools.emulator.rp2040 import flash_with_uf2

DRIVE_OFFSET = 0x100000
# microcontroller.nvm: the 4 KB flash sector just before the drive (CircuitPython's
# ports/raspberrypi/mpconfigport.h: CIRCUITPY_INTERNAL_NVM_START_ADDR).
NVM_OFFSET = DRIVE_OFFSET - 4096
NVM_SIZE = 4096
DRIVE_SIZE = 1024 * 1024
SECTOR = 512
LABEL = "CIRCUITPY"
VOLUME_ID = 0x43575057               # fixed: the same files give the same image


def empty_fat():
    """A freshly formatted CIRCUITPY: FAT12, 2048 x 512-byte sectors, 1 sector a cluster."""
    folder = tempfile.mkdtemp(prefix="chromawheel-fat-")
    path = os.path.join(folder, "fat.img")
    try:
        with open(path, "wb") as f:
            f.write(bytes(DRIVE_SIZE))
        fat = PyFat()
        fat.mkfs(path, PyFat.FAT_TYPE_FAT12, size=DRIVE_SIZE, sector_size=SECTOR,
                 label=LABEL, volume_id=VOLUME_ID)
        fat.close()
        with open(path, "rb") as f:
            return bytearray(f.read())
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class _Kept(io.BytesIO):
    """pyfatfs closes its stream when done; the bytes are still wanted."""

    def close(self):
        pass


def write_files(fat, files):
    """Put (path, bytes) into a FAT image (a bytearray, changed in place)."""
    stream = _Kept(fat)
    fs = PyFatBytesIOFS(stream)
    for rel, data in files:
        folder = posixpath.dirname(rel)
        if folder:
            fs.makedirs("/" + folder, recreate=True)
        fs.writebytes("/" + rel, data)
    fs.close()                               # writes the FAT and marks the volume clean
    fat[:] = stream.getvalue()


def read_files(fat):
    """{path: bytes} of every file on a FAT image."""
    fs = PyFatBytesIOFS(io.BytesIO(bytes(fat)))
    found = {}

    def visit(folder, prefix):
        dirs, files, _ = folder.get_entries()          # (dot entries and the label apart)
        for entry in dirs:
            visit(entry, prefix + _name(entry) + "/")
        for entry in files:
            found[prefix + _name(entry)] = fs.readbytes(entry.get_full_path())
    try:
        visit(fs.fs.root_dir, "")
    finally:
        fs.close()
    return found


def _name(entry):
    """An entry's name as the board wrote it: FatFs keeps an all-lower-case 8.3 name (boot_out.txt)
    without a long-name entry, in upper case with the case flags in DIR_NTRes (0x08: lower-case
    base, 0x10: lower-case extension), which pyfatfs does not apply."""
    if entry.lfn_entry is not None:
        return entry.get_long_name()
    name = entry.get_short_name()
    base, dot, ext = name.partition(".")
    if entry.ntres & 0x08:
        base = base.lower()
    if entry.ntres & 0x10:
        ext = ext.lower()
    return base + dot + ext


def make_flash(path, uf2_path, files):
    """A flash image at `path`: the UF2 on an erased chip, CIRCUITPY holding `files`."""
    flash = flash_with_uf2(uf2_path)
    if flash[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] != b"\xff" * DRIVE_SIZE:
        raise ValueError("%s reaches into CIRCUITPY" % uf2_path)
    fat = empty_fat()
    write_files(fat, files)
    flash[DRIVE_OFFSET:DRIVE_OFFSET + DRIVE_SIZE] = fat
    with open(path, "wb") as f:
        f.write(flash)


def drive_of(path):
    """{path: bytes} on the CIRCUITPY drive of a flash image file."""
    with open(path, "rb") as f:
        f.seek(DRIVE_OFFSET)
        return read_files(f.read(DRIVE_SIZE))


def nvm_of(path):
    """The bytes of microcontroller.nvm in a flash image file."""
    with open(path, "rb") as f:
        f.seek(NVM_OFFSET)
        return bytearray(f.read(NVM_SIZE))


def put_nvm(path, data):
    """Write microcontroller.nvm's bytes into a flash image file (the board powered off)."""
    with open(path, "r+b") as f:
        f.seek(NVM_OFFSET)
        f.write(bytes(data))


def laid_out(board, folder):
    """(path, bytes) of what `deploy --drive` lays out for `board` in an empty `folder`."""
    from host_tools.device import drive
    # .mpy modules: the emulator runs CircuitPython 10.2.1, which would compile source at every
    # power-up (about 0.9 s of the 3.8 s to the first frame).
    drive.deploy(folder, board, progress=lambda line: None, compiled=True)
    files = []
    for here, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            full = os.path.join(here, name)
            with open(full, "rb") as f:
                files.append((os.path.relpath(full, folder).replace(os.sep, "/"), f.read()))
    return files
