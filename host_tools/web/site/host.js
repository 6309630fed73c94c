// The laptop's side, as the page sees it: requests to host_worker.js, answered in order.

export class Host {
  static async start(site, bundle) {
    const host = new Host();
    host.worker = new Worker(new URL("host_worker.js", import.meta.url), { type: "module" });
    host.asked = 0;
    host.waiting = new Map();
    host.worker.onmessage = (event) => {
      const { id, value, error } = event.data;
      const [resolve, reject] = host.waiting.get(id);
      host.waiting.delete(id);
      if (error !== undefined) reject(new Error(error));
      else resolve(value);
    };
    await host.ask({ t: "start", table: site.host, bundle });
    return host;
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

  // The validator's length limits: {id, name, set_name, text}.
  limits() {
    return this.ask({ t: "limits" });
  }

  example(name) {
    return this.ask({ t: "example", name });
  }
}
