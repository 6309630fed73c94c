"""The stock MicroPython rp2 firmware in an emulated RP2040 (npm rp2040js under Node), its USB
serial port on a pseudo-terminal: mpremote and host_tools.device_link talk to it as to a Pico.

What it is: the real rp2 port (32-bit, ticks wrapping at 2**30, the rp2 `machine`), booted
from the vendored UF2 and boot ROM (host_tools/rp2040/images, see PROVENANCE.md there). What
it lacks (so far): flash writes (littlefs is unusable; tests mount a RAM disk instead), the
WS2812 and encoder pins, core 1."""

import hashlib
import os
import pty
import select
import shutil
import subprocess
import threading
import tty

from host_tools.errors import UserError

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rp2040")
IMAGES = {
    "bootrom": ("rp2040-bootrom-b1.bin",
                "90b31e108faedfa6bbcfcc33ba05dac61e645108cfbbdc385f8dafc71fde44ae"),
    "uf2": ("micropython-v1.28.0-RPI_PICO.uf2",
            "e8b60ebb52112c7a1dac9944837949751e143b94cbf1dd48d8bcc4049b6f4d31"),
}


# littlefs on a RAM block device, mounted at /ram: where files go while the emulator has no
# flash model (it costs the heap its size).
RAM_DISK = """
import vfs

class RamDisk:
    def __init__(self, blocks, size=512):
        self.size = size
        self.data = bytearray(blocks * size)

    def readblocks(self, block, buf, offset=0):
        at = block * self.size + offset
        buf[:] = self.data[at:at + len(buf)]

    def writeblocks(self, block, buf, offset=0):
        at = block * self.size + offset
        self.data[at:at + len(buf)] = buf

    def ioctl(self, op, arg):
        if op == 4:
            return len(self.data) // self.size
        if op == 5:
            return self.size
        if op == 6:
            return 0

_disk = RamDisk(%d)
vfs.VfsLfs2.mkfs(_disk)
vfs.mount(vfs.VfsLfs2(_disk), '/ram')
"""


def put_on_ram_disk(link, files):
    """Mount a RAM disk big enough for `files` ((path under /ram, bytes)) and copy them."""
    size = sum(len(data) for _, data in files)
    link.run(RAM_DISK % (size * 5 // 4 // 512 + 48))
    for path, data in files:
        link.makedirs(path)
        link.transport.fs_writefile(path, data)


def compiled(rels, tmp):
    """(/ram/REL as .mpy, bytes) for repository files REL, compiled with mpy-cross."""
    from host_tools.device_files import ROOT, compile_mpy
    out = []
    for rel in rels:
        target = os.path.join(tmp, rel.replace("/", "_") + ".mpy")
        compile_mpy(os.path.join(ROOT, rel), rel, target)
        with open(target, "rb") as f:
            out.append(("/ram/" + rel[:-3] + ".mpy", f.read()))
    return out


def image(name):
    """Path of a vendored image, checked against its recorded SHA-256."""
    filename, sha256 = IMAGES[name]
    path = os.path.join(HERE, "images", filename)
    with open(path, "rb") as f:
        if hashlib.sha256(f.read()).hexdigest() != sha256:
            raise UserError("%s: not the recorded image (SHA-256 differs)" % path)
    return path


def node_path():
    node = shutil.which("node")
    if node is None:
        raise UserError("the RP2040 emulator needs Node.js 18 or newer (apt-get install nodejs)")
    if not os.path.isdir(os.path.join(HERE, "node_modules", "rp2040js")):
        raise UserError("the RP2040 emulator is not installed (run: make setup)")
    return node


class EmulatedPico:
    """A context manager: a powered emulated Pico; `port` is its serial device."""

    def __init__(self):
        self.proc = None
        self.port = None
        self.said = bytearray()
        self._stop = threading.Event()

    def __enter__(self):
        self._master, slave = pty.openpty()
        tty.setraw(slave)
        self._slave = slave                      # kept open: the port outlives reconnects
        self.port = os.ttyname(slave)
        self.proc = subprocess.Popen(
            [node_path(), os.path.join(HERE, "pico.cjs"), image("bootrom"), image("uf2")],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self._thread = threading.Thread(target=self._bridge, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self._thread.join(timeout=2)
        os.close(self._master)
        os.close(self._slave)

    def _bridge(self):
        """Bytes between the pty (the laptop's side) and the emulator's USB serial."""
        device = self.proc.stdout.fileno()
        while not self._stop.is_set():
            ready, _, _ = select.select([self._master, device], [], [], 0.05)
            if device in ready:
                data = os.read(device, 4096)
                if not data:
                    return
                self.said += data
                os.write(self._master, data)
            if self._master in ready:
                try:
                    data = os.read(self._master, 4096)
                except OSError:
                    data = b""
                if data:
                    try:
                        self.proc.stdin.write(data)
                        self.proc.stdin.flush()
                    except (BrokenPipeError, ValueError):
                        return          # the emulator stopped (stop(), or it ended)
