// The set in and out: a file opened, a shipped set or a copy of the wheel's, a new set, a set
// in a link (#set=), saved as a file, the link copied. A file that does not read is said at
// the top while the set being edited stays; replacing work not saved to a file asks first.

import { LinkError, linked, setHash } from "./studio_link.js";
import { download } from "./studio_send.js";
import { fileNameOf, formatSet, friendly } from "./studio_text.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export class SetFiles {
  constructor(studio) {
    this.studio = studio;
    const start = $("example");
    start.add(new Option("the set on the wheel (a copy)", "@board"));
    for (const name of studio.site.examples) start.add(new Option(name, name));
    $("meldset-file").addEventListener("change", async (event) => {
      const file = event.target.files[0];
      event.target.value = "";           // the same file opened again is read again
      if (file) {
        await studio.track(async () => this.openAsked(file.name,
                                                      new Uint8Array(await file.arrayBuffer())));
      }
    });
    start.addEventListener("change", async (event) => {
      const name = event.target.value;
      event.target.value = "";
      if (name === "@board") await studio.track(() => this.fromBoard());
      else if (name === `${studio.site.device.default_set}.json`) {
        await studio.track(() => this.copyOf(studio.site.device.default_set));
      }
      else if (name) {
        await studio.track(async () => this.openAsked(name, await studio.host.example(name)));
      }
    });
    $("new-set").addEventListener("click", () => studio.track(() => this.newSet()));
    $("save").addEventListener("click", () => this.save());
    $("copy-link").addEventListener("click", () => this.copyLink());
  }

  // A file, an example, a linked set: read first; one that does not read is said at the top
  // and the set being edited stays. Work not saved to a file is asked about first.
  async openAsked(path, bytes) {
    const result = await this.studio.host.check(path, bytes);
    if (!result.valid && !result.problems.length) {
      const error = $("open-error");
      error.textContent = `${path} could not be opened, so your set is unchanged: ${
        result.lines.map(friendly).join("; ")}`;
      error.hidden = false;
      error.scrollIntoView({ block: "nearest" });
      document.body.dataset.openError = path;
      return false;
    }
    if (!(await this.replaceOk(`open ${path}`))) return false;
    await this.open(path, bytes);
    return true;
  }

  async replaceOk(what) {
    const doc = this.studio.doc;
    if (!doc.dirty) return true;
    const name = doc.model && typeof doc.model.title === "string" ? doc.model.title : doc.path;
    return this.studio.ask(`“${name}” has changes not saved to a file. ${
      what[0].toUpperCase() + what.slice(1)} in its place? (undo brings it back)`, [], what,
      "keep my set");
  }

  // The file's own bytes are what is checked (a file that is not UTF-8 is said so, as the
  // command line says it); the editor shows them as text.
  open(path, bytes, { record = true } = {}) {
    const studio = this.studio;
    $("open-error").hidden = true;
    $("open-error").textContent = "";
    delete document.body.dataset.openError;
    studio.doc.path = path;
    studio.doc.model = null;             // a new file: its name is what was opened
    studio.doc.selected = 0;
    const text = decoder.decode(bytes);
    studio.doc.baseline = text;
    studio.bytes = bytes;
    studio.readText(text);
    if (record) studio.doc.record(null);
    else studio.doc.settle();
    studio.keep();
    return studio.validate();
  }

  async newSet() {
    if (!(await this.replaceOk("start a new set"))) return;
    const set = { format: "chromawheel-meldset", version: 1, name: "my-set", melds: [] };
    await this.open("my-set.json", encoder.encode(formatSet(set)));
    this.studio.said("a new set: give it a title, then add melds with new meld");
    $("set-title").focus();
  }

  // The set the wheel runs now, as a copy to change: the page's examples are its sets.
  async fromBoard() {
    const fallback = this.studio.site.device.default_set;   // what a wheel without a choice runs
    let name = fallback;
    try {
      const state = await this.studio.board.snapshot();
      const raw = state.get("settings.json");
      const settings = raw ? JSON.parse(decoder.decode(raw)) : {};
      if (settings && typeof settings.meldset === "string") name = settings.meldset;
    } catch (_err) {
      name = fallback;
    }
    if (!this.studio.site.examples.includes(`${name}.json`)) {
      this.studio.said(`the wheel runs the set “${name}”, which this page cannot read back`);
      return;
    }
    await this.copyOf(name, `copy the wheel's set “${name}”`);
  }

  // A shipped set as a copy of one's own: another name (the wheel's own default set is never
  // replaced by a flash), "My …" as its title.
  async copyOf(name, what = `start from a copy of “${name}”`) {
    const studio = this.studio;
    const source = JSON.parse(decoder.decode(await studio.host.example(`${name}.json`)));
    source.name = fileNameOf(`my ${name}`, studio.site.device);
    source.title = `My ${source.title || name}`;
    if (!(await this.replaceOk(what))) return;
    await this.open(`${source.name}.json`, encoder.encode(formatSet(source)));
    studio.doc.baseline = "";            // a copy never saved to a file: asked about
    studio.keep();
  }

  // #set=... in the address: a set sent as a link (see copyLink; #s=, the share link, opens
  // the student view instead).
  async fromLink() {
    let link;
    try {
      link = await linked(location.hash);
    } catch (err) {
      if (!(err instanceof LinkError)) throw err;
      history.replaceState(null, "", location.pathname + location.search);
      this.studio.said(err.message);
      return;
    }
    if (link === null || link.kind !== "set") return;
    history.replaceState(null, "", location.pathname + location.search);
    let name = "linked-set";
    try {
      name = JSON.parse(decoder.decode(link.bytes)).name || name;
    } catch (_err) { /* openAsked says what is wrong */ }
    const path = `${String(name)}.json`;
    if (await this.openAsked(path, link.bytes)) {
      this.studio.doc.baseline = "";       // a linked set is not saved to a file yet
      this.studio.keep();
      this.studio.said(`the set from the link: ${path} (not saved to a file yet)`);
    }
  }

  // The set as it is in the editor, downloaded as <set name>.json; a set with problems only
  // when asked for, as a draft.
  async save() {
    const studio = this.studio;
    const doc = studio.doc;
    const name = doc.model && typeof doc.model.name === "string" && doc.model.name.trim();
    let file = name ? `${name.trim()}.json` : doc.path;
    const result = await studio.settled();
    if (result && !result.valid) {
      const lines = result.lines.map(friendly);
      const yes = await studio.ask("The set has problems, so a wheel cannot use it yet. Save " +
        "it anyway as a draft, to finish later?", lines.slice(0, 6).concat(
          lines.length > 6 ? [`and ${lines.length - 6} more`] : []), "save as a draft",
        "cancel");
      if (!yes) return null;
      file = `${file.replace(/\.json$/, "")}-draft.json`;
    }
    download(file, studio.bytes, "application/json");
    doc.baseline = doc.text;
    studio.keep();
    studio.said(`saved as ${file} (in your downloads)`);
    return file;
  }

  // The link that opens the set being edited (in #set-link).
  showLink() {
    const doc = this.studio.doc;
    $("set-link").href = location.origin + location.pathname +
      setHash(doc.model ? JSON.stringify(doc.model) : doc.text);
  }

  async copyLink() {
    this.showLink();
    const url = $("set-link").href;
    try {
      if (navigator.share) await navigator.share({ title: this.studio.doc.path, url });
      else await navigator.clipboard.writeText(url);
      this.studio.said("the link is copied: open it on a computer with Chrome or Edge");
    } catch (_err) {
      this.studio.said("copy the link by hand: press and hold it");
    }
  }
}
