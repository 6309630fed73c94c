"""Meld-set files on the laptop: JSON sources and compiled blobs, read with located errors
and written atomically (temporary file, then rename), so a failed write loses nothing."""

import json
import os

import core
from core import meldset_compiler
from core.meldset import MAGIC, MeldSet, MeldSetError

from firmware.layout import DEFAULT_SET
from host_tools.errors import UserError

MAX_SOURCE_BYTES = 1 << 20
COMPILED_SUFFIX = ".cwm"
SHIPPED_SETS = os.path.join(os.path.dirname(core.__file__), "meldsets")
DEFAULT_SOURCE = os.path.join(SHIPPED_SETS, "default.json")


def shipped_set_names():
    return sorted(n[:-5] for n in os.listdir(SHIPPED_SETS) if n.endswith(".json"))


def set_source(text):
    """The meld-set file that `text` names: a shipped set's name (jazz) or a file's path
    (anything with a folder or a .json/.cwm ending, or an existing file)."""
    if not text:
        return DEFAULT_SOURCE
    if os.path.isfile(text):
        return text
    if text.endswith((".json", COMPILED_SUFFIX)) or os.sep in text or "/" in text:
        raise UserError("%s: no such meld-set file" % text)
    path = os.path.join(SHIPPED_SETS, text + ".json")
    if not os.path.isfile(path):
        raise UserError("no meld set %r: name a shipped set (%s) or a file"
                        % (text, ", ".join(shipped_set_names())))
    return path


def read_bytes(path, limit=MAX_SOURCE_BYTES):
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as err:
        raise UserError("%s: cannot read (%s)" % (path, err.strerror or err)) from err
    if len(data) > limit:
        raise UserError("%s: larger than %d bytes" % (path, limit))
    return data


def _no_duplicate_keys(pairs):
    obj = {}
    for key, value in pairs:
        if key in obj:
            raise ValueError("duplicate key %r" % key)
        obj[key] = value
    return obj


def _no_constants(name):
    raise ValueError("%s is not valid JSON" % name)


def parse_source(data, path):
    """Decode a JSON meld-set source; UserError names the file, line and column."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise UserError("%s: not UTF-8 text (byte %d)" % (path, err.start)) from err
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys,
                          parse_constant=_no_constants)
    except json.JSONDecodeError as err:
        raise UserError("%s: line %d, column %d: %s"
                        % (path, err.lineno, err.colno, err.msg)) from err
    except (ValueError, RecursionError) as err:
        raise UserError("%s: %s" % (path, err)) from err


def read_source(path):
    return parse_source(read_bytes(path), path)


def compile_file(path):
    """Compiled bytes of a JSON source file; MeldSetError lists every problem."""
    return meldset_compiler.compile_source(read_source(path), path)


def load_set(path=None):
    """A MeldSet from a JSON source or a compiled file (told apart by the compiled magic)."""
    path = set_source(path)
    data = read_bytes(path)
    if data[:len(MAGIC)] == MAGIC:
        return MeldSet(data, path)
    return MeldSet(meldset_compiler.compile_source(parse_source(data, path), path), path)


def write_atomic(path, data, problem=None):
    """Write to a temporary name beside `path`, flush it to disk, then rename over `path`.
    A failure leaves the old file and no temporary one; it raises problem(err) if given, else
    a UserError naming the path."""
    folder = os.path.dirname(os.path.abspath(path))
    temporary = os.path.join(folder, ".%s.tmp" % os.path.basename(path))
    try:
        with open(temporary, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except OSError as err:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        if problem is not None:
            raise problem(err) from err
        raise UserError("%s: cannot write (%s)" % (path, err.strerror or err)) from err


def set_to_flash(source_path):
    """(compiled bytes, MeldSet, name) of a set that may be flashed to a device: valid, and
    not named 'default' (that one comes with the firmware). A shipped set may be named."""
    source_path = set_source(source_path)
    blob = compile_file(source_path)
    meldset = MeldSet(blob, source_path)
    name = read_source(source_path)["name"]
    problem = flash_problem(name)
    if problem:
        raise UserError("%s: %s" % (source_path, problem))
    return blob, meldset, name


def flash_problem(name):
    """Why a set named `name` may not be flashed, or None: the default set comes with the
    firmware. The page's studio reads the same words from site.json (host_tools/web/build.py)."""
    if name == DEFAULT_SET:
        return ("the set named %r comes with the firmware (deploy updates it); give your set "
                "another name" % DEFAULT_SET)
    return None


__all__ = ["MeldSetError", "load_set", "set_source", "read_source", "compile_file", "write_atomic",
           "set_to_flash", "flash_problem"]
