// The table view's member of the table link, in a worker of its own (this runtime keeps its
// state in the global scope): a MicroPython running host_tools/web/py/table_page.py over the
// core's link, table log and score pad (core/link.py, core/table.py, core/scorepad.py, from
// host.bin as the studio's worker lays them out).

import { layOut, loadRuntime } from "./worker_runtime.js";

let mp = null;
let page = null;
const runtime = loadRuntime(2 * 1024 * 1024, () => {}, (line) => console.error(line));

async function start({ table, bundle, now, wheel }) {
  mp = await runtime;
  layOut(mp, table, bundle);
  mp.runPython("import sys\nsys.path.insert(0, '/host')\nimport table_page");
  page = mp.pyimport("table_page");
  page.start(now, wheel);
}

let ready = null;
addEventListener("message", async (event) => {
  const message = event.data;
  try {
    if (message.t === "start") {
      ready = start(message);
      await ready;
      postMessage({ id: message.id, value: true });
      return;
    }
    await ready;
    if (message.t === "heard") {
      page.heard(message.hex, message.now);
      postMessage({ id: message.id, value: true });
    } else {
      postMessage({ id: message.id, value: JSON.parse(page.update(message.now)) });
    }
  } catch (err) {
    postMessage({ id: message.id, error: String(err.message || err) });
  }
});
