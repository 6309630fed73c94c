// The laptop's side of the page, in a worker of its own (this runtime keeps its state in the
// global scope, so it cannot share one with the board's interpreter): a second MicroPython
// running the core's meld-set validator and compiler (core/meldset_compiler.py, unchanged), the
// page's source reader (py/sourcefile.py: the command line's JSON messages), the meld-card
// editor (py/editor.py: degrees on the wheel, spelled by core/spelling.py) and the
// simulator's script language (script.py, copied out of host_tools/sim/simulator.py).

import { layOut, loadRuntime } from "./worker_runtime.js";

let mp = null;
let studio = null;
const printed = [];
// MicroPython loads as soon as the page makes this worker, while the page still fetches the
// bundle that "start" brings.
const keep = (line) => printed.push(line);
const runtime = loadRuntime(4 * 1024 * 1024, keep, keep);

async function start({ table, bundle }) {
  mp = await runtime;
  layOut(mp, table, bundle);
  mp.FS.mkdir("/scratch");
  mp.runPython("import sys\nsys.path.insert(0, '/host')\nimport studio");
  studio = mp.pyimport("studio");
}

function answer(message) {
  switch (message.t) {
    case "check":
      mp.FS.writeFile("/scratch/source.json", message.bytes);
      return JSON.parse(studio.check(message.path, "/scratch/source.json"));
    case "script":
      return JSON.parse(studio.compile_script(message.text, JSON.stringify(message.button)));
    case "edit":
      return JSON.parse(studio.edit(JSON.stringify(message.request)));
    case "cards":
      mp.FS.writeFile("/scratch/cards.json", message.bytes);
      return JSON.parse(studio.cards_svg(message.path, "/scratch/cards.json", message.paper,
                                         message.perPage));
    case "by-name":
      return JSON.parse(studio.by_name(message.text));
    case "limits":
      return JSON.parse(studio.limits());
    case "example":
      return mp.FS.readFile(`/host/meldsets/${message.name}`);
  }
  throw new Error(`unknown request ${message.t}`);
}

let ready = null;
addEventListener("message", async (event) => {
  const message = event.data;
  if (message.t === "start") {
    ready = start(message);
    try {
      await ready;
      postMessage({ id: message.id, value: true });
    } catch (err) {
      postMessage({ id: message.id, error: String(err.message || err) });
    }
    return;
  }
  await ready;
  try {
    postMessage({ id: message.id, value: answer(message) });
  } catch (err) {
    postMessage({ id: message.id, error: String(err.message || err) });
  }
});
