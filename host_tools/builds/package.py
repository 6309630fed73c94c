"""`make package`: package.json (for `mpremote mip install`) and the compiled default set it
installs, both generated from the same file list deploy uses. Tests keep them current."""

import json
import os

from host_tools.device.files import ROOT, python_files
from host_tools.set_files import DEFAULT_SOURCE, compile_file, write_atomic

PACKAGE_PATH = os.path.join(ROOT, "package.json")
COMPILED_DEFAULT = os.path.join(ROOT, "core", "meldsets", "default.cwm")
REFERENCE_BOARD = "pico"
VERSION = "0.1.0"


def _rel(path):
    return os.path.relpath(path, ROOT).replace(os.sep, "/")


def package_json():
    urls = [[device, _rel(source)] for source, device in python_files()]
    urls.append(["board.json", "boards/%s.json" % REFERENCE_BOARD])
    urls.append(["melds/default.cwm", _rel(COMPILED_DEFAULT)])
    lines = ",\n    ".join(json.dumps(pair) for pair in urls)
    return ('{\n  "urls": [\n    %s\n  ],\n  "deps": [],\n  "version": %s\n}\n'
            % (lines, json.dumps(VERSION)))


def main():
    write_atomic(COMPILED_DEFAULT, compile_file(DEFAULT_SOURCE))
    write_atomic(PACKAGE_PATH, package_json().encode())
    print("wrote %s and %s" % (_rel(PACKAGE_PATH), _rel(COMPILED_DEFAULT)))


if __name__ == "__main__":
    main()
