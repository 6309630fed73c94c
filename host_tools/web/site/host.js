// The laptop's side, as the page sees it: requests to host_worker.js, answered in order.

export class Host {
  // The worker (and its MicroPython: host_worker.js loads it at once) before the bundle;
  // the table view's member of the link is another worker (table_worker.js) asked the same way.
  constructor(script = new URL("host_worker.js", import.meta.url)) {
    this.worker = new Worker(script, { type: "module" });
    this.asked = 0;
    this.waiting = new Map();
    this.worker.onmessage = (event) => {
      const { id, value, error } = event.data;
      const [resolve, reject] = this.waiting.get(id);
      this.waiting.delete(id);
      if (error !== undefined) reject(new Error(error));
      else resolve(value);
    };
  }

  // The laptop's side with the modules of host.bin laid out and imported.
  async start(site, bundle) {
    await this.ask({ t: "start", table: site.host, bundle });
    return this;
  }

  static start(site, bundle) {
    return new Host().start(site, bundle);
  }

  ask(message) {
    const id = ++this.asked;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, [resolve, reject]);
      this.worker.postMessage({ ...message, id });
    });
  }

  // {"path", "valid", "lines", "problems", "name", "melds", "bytes", "blob", "refused"}
  // (py/studio.py)
  async check(path, bytes) {
    const result = await this.ask({ t: "check", path, bytes });
    if (result.blob) {
      result.blob = Uint8Array.from(result.blob.match(/../g) || [], (h) => parseInt(h, 16));
    }
    return result;
  }

  // The simulator's protocol lines for a script: {lines} or {error}.
  compileScript(text, button) {
    return this.ask({ t: "script", text, button });
  }

  // The meld-card editor (py/editor.py): {degrees, auto, changed, editable, why, octave,
  // sectors: [{sector, state, degree, label, note, alternatives}]}.
  edit(request) {
    return this.ask({ t: "edit", request });
  }

  // The set as MELD cards to print (host_tools/cards.py): {pages: [SVG text]} or {error}.
  cards(path, bytes, paper, perPage) {
    return this.ask({ t: "cards", path, bytes, paper, perPage });
  }

  // A meld typed by name, as the command line reads it (py/studio.py by_name): {meld, root}
  // or {error, suggestions}.
  byName(text) {
    return this.ask({ t: "by-name", text });
  }

  // The validator's length limits: {id, name, set_name, text}.
  limits() {
    return this.ask({ t: "limits" });
  }

  example(name) {
    return this.ask({ t: "example", name });
  }
}
