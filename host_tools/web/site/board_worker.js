// The web board's MicroPython, in a worker of its own: this runtime keeps its state in the
// global scope (Module, the proxy tables), so two interpreters in one scope would mix up their
// objects, and a board that resets must stop dead. A reset ends this worker (the page starts
// a new one with the flash it had), as a reset stops a chip.
//
// Here are the pins' JavaScript side (hardware/web_pins.py, hardware/web_parts.py): the `webpins`
// module, the flash laid out as a deploy lays it out, and the console. What the firmware
// shows goes to the page as events, in the order it happened.

import { loadMicroPython } from "./runtime/micropython.mjs";

const QUIT = 7;
const FLASH = "/flash";

// The boot as a board does it (boot.py, then main.py), in the flash folder. The browser's
// asyncio is a scheduler on JavaScript timers with no run(): start.main's asyncio.run(...)
// starts the app's task and returns, and the worker's event loop runs it from there. An error
// that ends the app is printed and reported (the page resets the board, as start.main's handler
// would). A boot that starts no app (safe mode) has ended when main.py returns, as the
// simulator's process ends.
const BOOT = `
import os as _os, sys as _sys, asyncio as _asyncio
_os.chdir(${JSON.stringify(FLASH)})
def _run(coro, create=_asyncio.create_task):
    import webpins
    webpins.started()
    return create(coro)
def _ended(loop, context, print_exception=_sys.print_exception):
    print_exception(context["exception"])
    import webpins
    webpins.crashed()
_asyncio.run = _run
_asyncio.get_event_loop().set_exception_handler(_ended)
del _os, _sys, _asyncio, _run, _ended
exec(open('boot.py').read())
exec(open('main.py').read())
`;

let mp = null;
let runtime = null;                      // loadMicroPython's promise, from "load" or the boot
let manifest = new Set();
let queue = [];
let events = [];
let flushing = false;
let appStarted = false;
let lastState = "";

function post(event) {
  events.push(event);
  if (!flushing) {
    flushing = true;
    setTimeout(flush, 0);
  }
}

function flush() {
  flushing = false;
  if (events.length) {
    const batch = events;
    events = [];
    postMessage({ t: "events", events: batch });
  }
}

function heap(address, length) {
  const module = mp._module;
  const out = new Uint8Array(length);
  for (let i = 0; i < length; i++) out[i] = module.getValue(address + i, "i8") & 0xff;
  return out;
}

function mkdirs(path) {
  let at = "";
  for (const part of path.split("/").slice(1, -1)) {
    at += `/${part}`;
    try { mp.FS.mkdir(at); } catch (_err) { /* there already */ }
  }
}

// The files the firmware wrote (not the ones the firmware came with): [[path, bytes], ...].
function snapshot() {
  const FS = mp.FS;
  const found = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir ? `${FLASH}/${dir}` : FLASH)) {
      if (name === "." || name === "..") continue;
      const rel = dir ? `${dir}/${name}` : name;
      if (FS.isDir(FS.stat(`${FLASH}/${rel}`).mode)) walk(rel);
      else if (!manifest.has(rel)) found.push([rel, FS.readFile(`${FLASH}/${rel}`)]);
    }
  };
  walk("");
  return found;
}

function stateChanged() {
  if (!mp) return;
  const files = snapshot();
  const key = JSON.stringify(files.map(([path, data]) => [path, Array.from(data)]));
  if (key !== lastState) {
    lastState = key;
    flush();
    postMessage({ t: "state", files });
  }
}

function say(line) {
  post({ t: "console", line });
}

function load(heapsize) {
  runtime = loadMicroPython({
    url: new URL("runtime/micropython.wasm", import.meta.url).href,
    heapsize, stdout: say, stderr: say, linebuffer: true,
  });
  return runtime;
}

async function boot(message) {
  const { flash, table, state, resetCause, commands, heapsize, code } = message;
  queue = commands.slice();
  manifest = new Set(table.map((f) => f[0]));
  const pins = {
    reset_cause: resetCause,
    next: () => {
      const command = queue.length ? queue.shift() : 0;
      if (command === QUIT) setTimeout(() => { flush(); postMessage({ t: "quit" }); }, 0);
      return command;
    },
    ring: (address, length) => post({ t: "ring", wire: heap(address, length) }),
    display: (address, first, last) => {
      const width = message.width;
      post({ t: "display", first, last, data: heap(address + first * width, (last - first + 1) * width) });
    },
    tone: (ticks, freq, duty) => post({ t: "tone", ticks, freq, duty }),
    midi: (address, length) => post({ t: "midi", data: heap(address, length) }),
    notes: (text) => post({ t: "notes", text }),
    started: () => { appStarted = true; },
    reset: () => post({ t: "reset", cause: "reset" }),
    crashed: () => post({ t: "crashed" }),
  };
  mp = await (runtime || load(heapsize));
  mp.registerJsModule("webpins", pins);
  mp.FS.mkdir(FLASH);
  for (const [path, offset, size] of table) {
    mkdirs(`${FLASH}/${path}`);
    mp.FS.writeFile(`${FLASH}/${path}`, flash.subarray(offset, offset + size));
  }
  for (const [path, data] of state) {
    mkdirs(`${FLASH}/${path}`);
    mp.FS.writeFile(`${FLASH}/${path}`, data);
  }
  lastState = JSON.stringify(state.map(([path, data]) => [path, Array.from(data)]));
  postMessage({ t: "booting" });
  try {
    mp.runPython(code || BOOT);
  } catch (err) {
    say(String(err.message || err).trimEnd());
    post({ t: "stopped", why: String(err.message || err) });
  }
  if (!appStarted) {                     // main.py returned: no app runs (safe mode, a test)
    flush();
    postMessage({ t: "quit" });
  }
  setInterval(stateChanged, 1000);
}

addEventListener("message", (event) => {
  const message = event.data;
  if (message.t === "load") {            // the page's first board: loaded while it fetches
    load(message.heapsize).catch(() => {});        // (the boot reports a failure)
  } else if (message.t === "boot") {
    boot(message).catch((err) => postMessage({ t: "failed", why: String(err.message || err) }));
  } else if (message.t === "send") {
    queue.push(...message.commands);
  } else if (message.t === "snapshot") {
    flush();
    postMessage({ t: "snapshot", id: message.id, files: mp ? snapshot() : null });
  }
});
