"""ChromaWheel music core: pure Python, runs unchanged on CPython and MicroPython.

No hardware imports, no dataclasses, enum or run-time typing: the device imports these
modules too.
"""
