// The installer's decisions (host_tools/web/site/installer.js), under Node: a board refused
// before anything is written, the files to send and to remove by hash as target.py's sync
// decides, the firmware's start line and a traceback read as link.py reads them, and a
// failure said with what to do next.
import assert from "node:assert/strict";
import { test } from "node:test";

import { advice, boardProblem, InstallError, plan, started, tracebackOf, unbundle }
  from "../../host_tools/web/site/installer.js";
import { digest } from "../../host_tools/web/site/serial_bytes.js";

const PICO = { board: "pico", title: "Raspberry Pi Pico", implementation: "micropython",
               reports: ["rp2"] };
const info = (name, platform, mpy) => ({ name, version: [1, 28, 0], platform, mpy });

test("the board chosen, its MicroPython and its .mpy version are checked first", () => {
  // MicroPython 1.28 on the rp2 port: sys.implementation._mpy 0x0306 | arch bits: v6.3
  assert.equal(boardProblem(info("micropython", "rp2", 0x2a06 | (3 << 8)), PICO, "6.3"), null);
  assert.equal(boardProblem(info("micropython", "esp32", 0x0306), PICO, "6.3").kind, "board");
  assert.match(boardProblem(info("micropython", "esp32", 0x0306), PICO, "6.3").message,
               /runs micropython 1\.28\.0 on esp32, not micropython on rp2 as board pico does, so nothing was written$/);
  assert.equal(boardProblem(info("circuitpython", "RP2040", 0x0306), PICO, "6.3").kind,
               "circuitpython");
  const old = boardProblem(info("micropython", "rp2", 0x0206), PICO, "6.3");
  assert.equal(old.kind, "version");
  assert.match(old.message, /loads \.mpy version 6\.2, and these files are 6\.3/);
});

test("only the files that differ are sent, and the old firmware's removed", async () => {
  const bytes = (text) => new TextEncoder().encode(text);
  const files = [["main.py", bytes("run()")], ["core/notes.mpy", bytes("N")],
                 ["board.json", bytes("{}")]];
  const onBoard = { "main.py": await digest(bytes("run()")), "core/notes.mpy": "0000",
                    "core/old.mpy": "1111", "melds/mine.cwm": "2222", "board.json": null };
  const { changed, stale } = await plan(files, onBoard, ["core", "hardware", "firmware"]);
  assert.deepEqual(changed.map(([p]) => p), ["core/notes.mpy", "board.json"]);
  assert.deepEqual(stale, ["core/old.mpy"]);       // a set of the user's is kept
  // a board without hashlib answers size and crc32: compared in that form
  const crc = await digest(bytes("run()"), "crc32:");
  assert.deepEqual((await plan([files[0]], { "main.py": crc }, [])).changed, []);
});

test("the bundle is cut as site.json's table says", () => {
  const parts = unbundle(new Uint8Array([1, 2, 3, 4, 5]), [["a", 0, 2], ["b/c", 2, 3]]);
  assert.deepEqual(parts.map(([p, d]) => [p, Array.from(d)]), [["a", [1, 2]], ["b/c", [3, 4, 5]]]);
});

test("the firmware's first line, or its traceback", () => {
  assert.ok(started("meld set default loaded: 60 melds (0 intervals, 44 chords, 16 scales)"));
  assert.ok(started("safe mode: button held at power-up. The app is not started; the REPL is free."));
  assert.ok(!started("meld set default"));
  const lines = ["MPY: soft reboot", "Traceback (most recent call last):",
                 '  File "main.py", line 3, in <module>', "ImportError: no module named 'core'",
                 ">>> "];
  assert.deepEqual(tracebackOf(lines), lines.slice(1, 4));
  assert.deepEqual(tracebackOf(["Traceback (most recent call last):"]), []);
});

test("a failure is said with what to do next", () => {
  const empty = advice(new InstallError("USB 2e8a:0005: no MicroPython REPL answered", "empty"));
  assert.match(empty, /^No MicroPython answered on that port\. A new board has none yet/);
  assert.match(empty, /put MicroPython on it first/);
  // a message of the installer's own keeps its words whole
  const board = advice(boardProblem(info("micropython", "esp32", 0x0306), PICO, "6.3"));
  assert.match(board, /^the board runs micropython 1\.28\.0 on esp32, not micropython on rp2 /);
  assert.match(board, /nothing was written\. Choose the board it is in the list/);
  assert.match(advice(new InstallError("x: y", "busy")), /close it and install again/);
  assert.match(advice(new InstallError("x: y", "version")), /newer MicroPython/);
  assert.match(advice(new Error("reset")), /Plug it in and install again/);
});
