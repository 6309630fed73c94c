// What both workers of the page's laptop side start with (host_worker.js, the studio's;
// table_worker.js, the table view's): a MicroPython of their own, and host.bin's modules laid
// out in its file system under /host, where their Python imports them.

import { loadMicroPython } from "./runtime/micropython.mjs";

// MicroPython loads as soon as the worker starts, while the page still fetches the bundle.
export function loadRuntime(heapsize, stdout, stderr) {
  const runtime = loadMicroPython({
    url: new URL("runtime/micropython.wasm", import.meta.url).href,
    heapsize,
    stdout,
    stderr,
  });
  runtime.catch(() => {});               // reported by "start"
  return runtime;
}

// host.bin's files (site.json's "host": [path, offset, size]) under /host.
export function layOut(mp, table, bundle) {
  for (const [path, offset, size] of table) {
    mkdirs(mp, `/host/${path}`);
    mp.FS.writeFile(`/host/${path}`, bundle.subarray(offset, offset + size));
  }
}

function mkdirs(mp, path) {
  let at = "";
  for (const part of path.split("/").slice(1, -1)) {
    at += `/${part}`;
    try { mp.FS.mkdir(at); } catch (_err) { /* there already */ }
  }
}
