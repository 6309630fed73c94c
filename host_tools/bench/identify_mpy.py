"""Run by `make bench` under the MicroPython unix port (not imported on CPython):

    micropython host_tools/bench/identify_mpy.py SET.cwm QUERIES.json

Prints one JSON line: compiled set load time and heap, identification time per query."""

import gc
import json
import sys
import time

sys.path.insert(0, sys.argv[0].rsplit("/", 3)[0] if "/" in sys.argv[0] else "../..")

from core.identify import Identifier
from core.meldset import load


def main():
    set_path, queries_path = sys.argv[1], sys.argv[2]
    with open(queries_path) as f:
        queries = json.load(f)
    gc.collect()
    free_before = gc.mem_free()
    start = time.ticks_us()
    meldset = load(set_path)
    load_us = time.ticks_diff(time.ticks_us(), start)
    gc.collect()
    set_heap = free_before - gc.mem_free()
    identifier = Identifier(meldset)
    gc.collect()
    index_heap = free_before - gc.mem_free() - set_heap
    readings = 0
    start = time.ticks_us()
    for pcs in queries:
        readings += len(identifier.exact(pcs))
    total_us = time.ticks_diff(time.ticks_us(), start)
    print(json.dumps({"load_us": load_us, "set_heap": set_heap, "index_heap": index_heap,
                      "query_us": total_us / len(queries), "readings": readings}))


main()
