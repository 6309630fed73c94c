"""One file to drag onto a Pico: the stock MicroPython UF2 with the firmware already on its
drive. No compiler: the UF2's own blocks, then a littlefs image of what `chromawheel deploy`
would copy (the modules compiled to .mpy, boot.py, main.py, the board file,
the default meld set), laid out as MicroPython's rp2 port lays out its drive, as more UF2
blocks.

    python -m host_tools.builds.littlefs_uf2 [-o build/uf2/chromawheel-pico.uf2] [--board pico]

The rp2 port's drive (MicroPython v1.28.0, ports/rp2): `rp2.Flash()` is the last
MICROPY_HW_FLASH_STORAGE_BYTES of the flash (RPI_PICO: 1408 KiB of 2 MiB, from offset
0xA0000), in 4096-byte blocks (the flash's sector), mounted by modules/_boot.py as
`vfs.VfsLfs2(bdev, progsize=256)` with extmod's defaults readsize=32, lookahead=32; littlefs
on-disk version 2.1 (lib/littlefs/lfs2.h). Dragging the UF2 replaces the firmware and the
drive's files it carries; blocks of the drive it does not carry keep what they had, and
littlefs never reads a block its directory tree does not name."""

import argparse
import os
import struct
import sys

UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY = 0x2000                     # flags: the family id field is present
RP2040_FAMILY = 0xE48BFF56
XIP_BASE = 0x10000000
PAGE = 256                              # the bytes a UF2 block carries, the boot ROM's page

# ports/rp2/boards/RPI_PICO/mpconfigboard.h and ports/rp2/rp2_flash.c (v1.28.0)
FLASH_BYTES = 2 * 1024 * 1024
STORAGE_BYTES = 1408 * 1024
STORAGE_BASE = FLASH_BYTES - STORAGE_BYTES
BLOCK = 4096
# extmod/vfs_lfs.c's defaults and ports/rp2/modules/_boot.py's progsize
READ_SIZE, PROG_SIZE, LOOKAHEAD = 32, 256, 32
DISK_VERSION = 0x00020001

OUTPUT = os.path.join("build", "uf2", "chromawheel-pico.uf2")


def uf2_blocks(data):
    """[(flash address, 256 bytes)] of a UF2 file's blocks."""
    blocks = []
    for at in range(0, len(data), 512):
        block = data[at:at + 512]
        magic0, magic1, flags, address, size = struct.unpack_from("<5I", block)
        if (magic0, magic1) != UF2_MAGIC[:2] or struct.unpack_from("<I", block, 508)[0] != \
                UF2_MAGIC[2]:
            raise ValueError("block %d is not a UF2 block" % (at // 512))
        blocks.append((address, bytes(block[32:32 + size])))
    return blocks


def uf2_file(blocks, family=RP2040_FAMILY):
    """A UF2 file of [(flash address, up to 256 bytes)], numbered in order."""
    out = bytearray()
    for number, (address, payload) in enumerate(blocks):
        header = struct.pack("<8I", UF2_MAGIC[0], UF2_MAGIC[1], UF2_FAMILY, address,
                             len(payload), number, len(blocks), family)
        out += header + payload + b"\0" * (476 - len(payload)) + struct.pack("<I", UF2_MAGIC[2])
    return bytes(out)


def drive_image(files, block_count=STORAGE_BYTES // BLOCK):
    """The littlefs image (bytes, block_count blocks) holding files [(path, bytes)], as the
    rp2 port formats and mounts its drive."""
    from littlefs import LittleFS
    fs = LittleFS(block_size=BLOCK, block_count=block_count, read_size=READ_SIZE,
                  prog_size=PROG_SIZE, lookahead_size=LOOKAHEAD, disk_version=DISK_VERSION)
    for path, data in files:
        folder = path.rsplit("/", 1)[0] if "/" in path else ""
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(path, "wb") as f:
            f.write(data)
    image = bytes(fs.context.buffer)
    fs.unmount()
    return image


def drive_blocks(image):
    """[(flash address, 256 bytes)] for every 4 KiB block of the drive that holds anything,
    each block whole (its erased tail too: a commit littlefs finds there must be ours), and
    the two superblocks always."""
    blocks = []
    for number in range(len(image) // BLOCK):
        block = image[number * BLOCK:(number + 1) * BLOCK]
        if number > 1 and block.count(0xFF) == BLOCK:
            continue
        for at in range(0, BLOCK, PAGE):
            blocks.append((XIP_BASE + STORAGE_BASE + number * BLOCK + at, block[at:at + PAGE]))
    return blocks


def build(stock_uf2, files):
    """The stock UF2's bytes plus the drive holding `files`: the new UF2's bytes."""
    firmware = uf2_blocks(stock_uf2)
    end = max(address + len(payload) for address, payload in firmware)
    if end > XIP_BASE + STORAGE_BASE:
        raise ValueError("the firmware runs into the drive (ends at 0x%08x)" % end)
    return uf2_file(firmware + drive_blocks(drive_image(files)))


def payload(board):
    """What `chromawheel deploy` copies onto a Pico for this board file: [(path, bytes)]."""
    from host_tools.device import deploy
    return deploy.payload(board, compiled=True)


def stock_image():
    from host_tools.emulator.rp2040 import image
    return image("uf2")


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m host_tools.builds.littlefs_uf2",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("-o", "--output", default=OUTPUT, metavar="FILE.uf2")
    parser.add_argument("--board", default="pico",
                        help="a shipped rp2 board's name or a board file (default pico)")
    args = parser.parse_args(argv)
    from hardware import board as board_file

    from host_tools.builds import pinouts
    from host_tools.device.files import board_path
    from host_tools.errors import UserError
    try:
        config = board_file.load(board_path(args.board), pinouts.check)
        if config["platform"] != "rp2":
            raise UserError("board %s is for platform %s: this UF2 is MicroPython for the "
                            "Pico (rp2)" % (args.board, config["platform"]))
        files = payload(args.board)
        with open(stock_image(), "rb") as f:
            data = build(f.read(), files)
    except (UserError, board_file.BoardError) as err:
        print("error: %s" % err, file=sys.stderr)
        return 2
    os.makedirs(os.path.dirname(os.path.abspath(args.output)), exist_ok=True)
    with open(args.output + ".tmp", "wb") as f:
        f.write(data)
    os.replace(args.output + ".tmp", args.output)
    print("wrote %s: MicroPython v1.28.0 for the Pico and %d files on its drive (%d KiB); "
          "drag it onto RPI-RP2" % (args.output, len(files), len(data) // 1024))
    return 0


if __name__ == "__main__":
    sys.exit(main())
