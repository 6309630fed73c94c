"""Libraries the device needs from outside this project, pinned like requirements: each is a
file on PyPI with its SHA-256, and the modules taken from it. Fetched once into
build/device-libs/<platform>/ (by `make setup`, or on first use) and copied into the device's
lib/ by deploy, circup-style:

- circuitpython: Adafruit's bundle libraries (the same modules the CircuitPython bundle
  ships as source): the SSD1306 driver and what it imports, and the NeoPixel library (which
  the tests hold our wire bytes against).

A MicroPython board needs none: its OLED is driven by hardware/mp_parts.py itself (the
micropython-lib driver's module held about 2.8 KB of a Pico's heap for two kinds of write).

Run `python -m host_tools.device.libs` to fetch them all."""

import hashlib
import io
import os
import shutil
import tarfile
import urllib.request
import zipfile

from host_tools import cache
from host_tools.errors import UserError

CACHE = cache("device-libs")
FILES = "https://files.pythonhosted.org/packages/"

# (platform, file, URL tail, sha256, members: path in the archive -> path under lib/)
PINNED = (
    ("circuitpython", "adafruit_circuitpython_ssd1306-2.12.24-py3-none-any.whl",
     "5d/84/6e6525dc9a974174ef002441f8959a667e6d9a37dfdb483974aaeb7221a9/",
     "f6bc9bf726cc7f8f8c79e1156d785a73dbf8770d64c2b78ec58396d4bfca4e1a",
     {"adafruit_ssd1306.py": "adafruit_ssd1306.py"}),
    ("circuitpython", "adafruit_circuitpython_framebuf-1.6.12-py3-none-any.whl",
     "4a/98/abee7fc878d9efbbddfe6fbfef39d78d8b5b995553b79893ef08b4a9985f/",
     "b9c04fdacca6660ecb6c3ec4f4cad5b79416913d68fb46e98aa8af22e1d2d08b",
     {"adafruit_framebuf.py": "adafruit_framebuf.py"}),
    ("circuitpython", "adafruit_circuitpython_busdevice-5.2.17-py3-none-any.whl",
     "42/0d/66a4e0fbd7b35107f7dee04fed890f77b83d1da9dd1f7474af2ed21700ea/",
     "5a834fbe0b88b07d20494bec566815da154aa4b1b668e2e665277b34b3578e44",
     {"adafruit_bus_device/__init__.py": "adafruit_bus_device/__init__.py",
      "adafruit_bus_device/i2c_device.py": "adafruit_bus_device/i2c_device.py",
      "adafruit_bus_device/spi_device.py": "adafruit_bus_device/spi_device.py"}),
    ("circuitpython", "adafruit_circuitpython_neopixel-6.4.2-py3-none-any.whl",
     "d6/fd/374814d6ecf21366ae0238d86dec7b5e70d606a2b514cba42173755203a4/",
     "1a471557e7b82c98894ec27c23910149c5ef76ce39420f054773943dfe56970e",
     {"neopixel.py": "neopixel.py"}),
    ("circuitpython", "adafruit_circuitpython_pixelbuf-2.1.0-py3-none-any.whl",
     "a5/d2/49f41826c8164c1b99783d8bc55856a4fa9e7337eaad57da9864cf064843/",
     "6ac47751fea2e64c8f7c4e93980ee560debad40dda5f646fdcb90a7ff44a12c3",
     {"adafruit_pixelbuf.py": "adafruit_pixelbuf.py"}),
)


def lib_dir(platform):
    """build/device-libs/<micropython|circuitpython>, fetched if missing; UserError if a
    download fails or does not match its pinned checksum."""
    folder = os.path.join(CACHE, platform)
    stamp = os.path.join(folder, ".complete")
    if not os.path.exists(stamp) or open(stamp).read() != _fingerprint(platform):
        _fetch(platform, folder)
        with open(stamp, "w") as f:
            f.write(_fingerprint(platform))
    return folder


def _fingerprint(platform):
    return "\n".join(p[3] for p in PINNED if p[0] == platform)


def _download(name, tail, sha256):
    try:
        with urllib.request.urlopen(FILES + tail + name, timeout=120) as response:
            data = response.read()
    except OSError as err:
        raise UserError("cannot download device library %s from PyPI (%s)" % (name, err)) from err
    if hashlib.sha256(data).hexdigest() != sha256:
        raise UserError("device library %s: checksum does not match the pinned one" % name)
    return data


def _tar_reader(archive):
    def read(member):
        return archive.extractfile(member).read()
    return read


def _fetch(platform, folder):
    shutil.rmtree(folder, ignore_errors=True)
    for where, name, tail, sha256, members in PINNED:
        if where != platform:
            continue
        data = _download(name, tail, sha256)
        if name.endswith(".whl"):
            archive = zipfile.ZipFile(io.BytesIO(data))
            read = archive.read
        else:
            read = _tar_reader(tarfile.open(fileobj=io.BytesIO(data)))
        for member, target in members.items():
            path = os.path.join(folder, target)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "wb") as f:
                f.write(read(member))


def files(platform):
    """(source path, path under lib/) of every pinned module for the platform."""
    folder = lib_dir(platform)
    out = []
    for where, _, _, _, members in PINNED:
        if where == platform:
            for target in members.values():
                out.append((os.path.join(folder, target), target))
    return out


def main():
    for platform in sorted({p[0] for p in PINNED}):
        print("%s: %d modules in %s" % (platform, len(files(platform)), lib_dir(platform)))


if __name__ == "__main__":
    main()
