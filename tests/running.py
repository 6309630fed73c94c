"""One way for a test to run a program: it never waits for ever, and a failure quotes what the
program printed. run() for a program that ends; line_matching() for one left running in the
background (a server, a virtual board), read until it says what the test waits for."""

import os
import re
import select
import subprocess
import time
import weakref

TIMEOUT_S = 120
QUOTED = 3000                 # the characters of each stream a failure quotes (the last ones)


def run(args, timeout=TIMEOUT_S, expect=None, context=None, **kw):
    """subprocess.run(args) with its output captured as text (unless the caller says where it
    goes): after `timeout` seconds, or on an exit status other than `expect` (a status or a
    tuple of them; None: any), the test fails naming the command and quoting what it printed,
    and what context() returns (what the board it talked to said, say)."""
    if "stdout" not in kw and "stderr" not in kw:
        kw["capture_output"] = True
    kw.setdefault("text", True)
    try:
        proc = subprocess.run(args, timeout=timeout, **kw)
    except subprocess.TimeoutExpired as hung:
        _fail("no end after %g s" % timeout, args, hung.stdout, hung.stderr, context)
    if expect is not None and proc.returncode not in (
            expect if isinstance(expect, tuple) else (expect,)):
        _fail("exit status %d" % proc.returncode, args, proc.stdout, proc.stderr, context)
    return proc


def line_matching(proc, pattern, timeout=60):
    """The first match of `pattern` in a line of what the background process `proc` (its
    stdout a pipe) prints from here on; the test fails quoting what it printed if none comes
    within `timeout` seconds or the process ends first. Read from the pipe itself: what a
    line's read left in a file object's buffer would not wake select()."""
    deadline = time.monotonic() + timeout
    said, kept = "", _unsaid.pop(proc, "")
    while True:
        lines = kept.split("\n")
        for at, line in enumerate(lines[:-1]):
            said += line + "\n"
            found = re.search(pattern, line)
            if found:
                _unsaid[proc] = "\n".join(lines[at + 1:])
                return found
        kept = lines[-1]
        if time.monotonic() > deadline:
            _fail("no %r within %g s" % (pattern, timeout), proc.args, said + kept, None, None)
        if select.select([proc.stdout], [], [], 0.2)[0]:
            data = os.read(proc.stdout.fileno(), 65536)
            if not data:                                  # the end of its output
                _fail("ended (status %s) before printing %r" % (proc.poll(), pattern),
                      proc.args, said + kept, None, None)
            kept += data.decode("utf-8", "replace")


_unsaid = weakref.WeakKeyDictionary()       # a process's output read but not yet matched


def _fail(what, args, stdout, stderr, context):
    command = args if isinstance(args, str) else " ".join(str(a) for a in args)
    parts = ["%s: %s" % (command[:300], what)]
    for name, stream in (("stdout", stdout), ("stderr", stderr)):
        if isinstance(stream, bytes):
            stream = stream.decode("utf-8", "replace")
        if stream:
            parts.append("its %s (the end):\n%s" % (name, stream[-QUOTED:]))
    if context is not None:
        parts.append(context())
    raise AssertionError("\n".join(parts))
