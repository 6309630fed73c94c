"""Printing results: JSON for machines (--json), plain lines for people."""

import json
import sys


def emit(args, data, lines):
    """Print `data` as JSON when --json was given, else the text `lines`."""
    if getattr(args, "json", False):
        sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    else:
        for line in lines:
            sys.stdout.write(line + "\n")
