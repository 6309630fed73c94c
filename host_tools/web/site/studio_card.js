// The meld card: a wheel of 12 sectors, the root at the top, as on the cardboard card. A tap
// marks a sector required, again optional (chords), again off; the button beside a sector
// switches to its other spelling, the root's adds the octave. The page's laptop side spells
// and reads it (py/editor.py); the steps are queued, so that quick taps each see the last
// one's meld. ▶ plays the meld from the root chosen in the middle.

import { KINDS, degreesCounted } from "./studio_text.js";

const $ = (id) => document.getElementById(id);
export const ROOTS = ["C", "C♯", "D♭", "D", "D♯", "E♭", "E", "F", "F♯", "G♭", "G", "G♯", "A♭",
                      "A", "A♯", "B♭", "B"];
const PC_OF = { C: 0, D: 2, E: 4, F: 5, G: 7, A: 9, B: 11 };

export function button(text, attrs = {}) {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = text;
  for (const [k, v] of Object.entries(attrs)) b.setAttribute(k, v);
  return b;
}

function meldKind(meld) {
  return meld && KINDS.includes(meld.kind) ? meld.kind : null;
}

export class MeldCard {
  constructor(studio) {
    this.studio = studio;
    this.queue = Promise.resolve();
    this.answer = null;             // the editor's last answer (what play plays)
    this.auto = new WeakMap();      // meld -> the sectors the letter rule spells
    for (const name of ROOTS) $("editor-root").add(new Option(name, name));
    this.build();
    this.stop = this.sectors[0];    // the card's one Tab stop (the arrow keys move it)
    $("editor-wheel").addEventListener("keydown", (event) => this.key(event));
    $("editor-root").addEventListener("change", () => this.step(null));
    $("play-chord").addEventListener("click", () => this.play(false));
    $("play-arpeggio").addEventListener("click", () => this.play(true));
  }

  build() {
    const wheel = $("editor-wheel");
    this.sectors = [];
    this.chips = [];
    for (let s = 0; s < 12; s++) {
      const angle = (s * 30 * Math.PI) / 180;
      const sector = button("", { "data-editor-sector": String(s), "data-state": "off" });
      sector.className = "sector";
      const chip = button("", { "data-alt-sector": String(s) });
      chip.className = "alt";
      chip.hidden = true;
      for (const part of [sector, chip]) {
        part.style.setProperty("--x", Math.sin(angle).toFixed(4));
        part.style.setProperty("--y", (-Math.cos(angle)).toFixed(4));
      }
      sector.addEventListener("click", () => this.step({ tap: s }));
      chip.addEventListener("click", () => {
        const next = chip.dataset.degree;
        if (next === "8") this.step({ octave: chip.getAttribute("aria-pressed") !== "true" });
        else if (next) this.step({ degree: next });
      });
      wheel.append(sector, chip);
      this.sectors.push(sector);
      this.chips.push(chip);
    }
  }

  // The circles and their buttons, clockwise from the root, each button after its circle.
  stops() {
    const out = [];
    this.sectors.forEach((sector, s) => {
      out.push(sector);
      if (!this.chips[s].hidden) out.push(this.chips[s]);
    });
    return out;
  }

  // One Tab stop for the card, not 12 circles and their buttons before save: the arrow keys,
  // Home and End move round it.
  rove(to = this.stop) {
    const stops = this.stops();
    this.stop = stops.includes(to) ? to : this.sectors[0];
    for (const item of [...this.sectors, ...this.chips]) {
      item.tabIndex = item === this.stop ? 0 : -1;
    }
  }

  key(event) {
    const stops = this.stops();
    const at = stops.indexOf(event.target);
    if (at < 0) return;
    const to = { ArrowRight: at + 1, ArrowDown: at + 1, ArrowLeft: at - 1, ArrowUp: at - 1,
                 Home: 0, End: stops.length - 1 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = stops[(to + stops.length) % stops.length];
    this.rove(next);
    next.focus();
  }

  // One step (a tap, an alternative, the octave, or only a redraw), queued.
  step(action) {
    this.queue = this.queue.then(() => this.run(action)).catch((err) => {
      console.error(err);
      $("editor-degrees").textContent = `the editor failed: ${err.message || err}`;
    });
    return this.queue;
  }

  async run(action) {
    const studio = this.studio;
    const meld = studio.doc.meld;
    if (!meld) {
      this.show(null);
      return;
    }
    const answer = await studio.host.edit({
      kind: meld.kind, degrees: meld.degrees, auto: this.auto.has(meld) ? this.auto.get(meld) : null,
      root: $("editor-root").value || "C", action,
    });
    if (meld !== studio.doc.meld) return;           // another meld was chosen meanwhile
    this.auto.set(meld, answer.auto);
    this.answer = answer;
    if (action && answer.changed && answer.editable) {   // a redraw never rewrites the JSON
      meld.degrees = answer.degrees;
      if (Object.keys(action).length) studio.fresh.delete(meld);
      studio.commit();
    }
    this.show(answer);
  }

  show(answer) {
    const editable = Boolean(answer?.editable);
    $("editor-wheel").dataset.editable = String(editable);
    const kind = meldKind(this.studio.doc.meld);
    this.sectors.forEach((sector, s) => {
      // A meld the card cannot edit still shows the positions it can read (tapping is off).
      const view = answer?.sectors.length ? answer.sectors[s] : null;
      this.showSector(sector, s, view, answer);
      sector.disabled = !editable;
      if (kind) sector.dataset.kind = kind;
      this.showChip(this.chips[s], s, view, editable ? answer : null);
    });
    this.rove();
    $("editor-degrees").textContent = this.line(answer, editable);
    this.studio.problems.showAtFields();
    document.body.dataset.editorSteps = String(Number(document.body.dataset.editorSteps || 0) + 1);
  }

  showSector(sector, s, view, answer) {
    sector.dataset.state = view ? view.state : "off";
    const degree = document.createElement("span");
    degree.className = "degree";
    const note = document.createElement("span");
    note.className = "note";
    // The accessible name begins with the text shown (degree, note), then the state.
    const state = document.createElement("span");
    state.className = "sr-only";
    if (view && view.state !== "off") {
      sector.dataset.degree = view.degree;
      degree.textContent = s === 0 && answer.octave ? "1·8" : view.label;
      note.textContent = view.note;
      state.textContent = `, ${view.state}`;
    } else {
      delete sector.dataset.degree;
      degree.textContent = "·";
      note.textContent = view?.note || "";       // an unused circle names its note too
      state.textContent = `, ${s} semitones above the root, off`;
    }
    sector.replaceChildren(degree, note, state);
  }

  // The root's chip adds the octave; another marked sector's offers its next spelling.
  showChip(chip, s, view, answer) {
    chip.hidden = true;
    if (!view || !answer) return;
    if (s === 0) {
      chip.hidden = false;
      chip.dataset.degree = "8";
      chip.textContent = "8";
      chip.setAttribute("aria-pressed", String(Boolean(answer.octave)));
      chip.title = answer.octave ? "the octave (8) is in the meld: tap to leave it out"
        : "add the octave (8)";
    } else if (view.state !== "off" && view.alternatives.length) {
      const next = view.alternatives[0];
      chip.hidden = false;
      chip.dataset.degree = next.degree;
      chip.textContent = `⇄${next.label}`;
      chip.removeAttribute("aria-pressed");
      chip.title = `spell it ${next.label} (${next.note}) instead of ${view.label}${
        view.alternatives.length > 1 ? `; tap again for ${
          view.alternatives.slice(1).map((a) => a.label).join(", ")}` : ""}`;
      chip.setAttribute("aria-label", chip.title);
    }
  }

  line(answer, editable) {
    if (!answer) {
      return this.studio.doc.model ? "no meld: add one" : $("editor").title;
    }
    if (!editable) {
      const shown = answer.sectors.some((v) => v.state !== "off") ? "shows what it can read but " : "";
      return `the card ${shown}cannot edit this meld (${degreesCounted(answer.why)}): put it ` +
        "right in the JSON below";
    }
    return `degrees ${answer.degrees.join(" ")} · notes ${answer.notes.join(" ")}`;
  }

  // The sector showing a degree (the validator names one), or undefined.
  sectorOf(degree) {
    return this.sectors.find((s) => s.dataset.degree === degree);
  }

  // The selected meld from the root shown on the card, as a chord or one note at a time.
  play(arpeggio) {
    const answer = this.answer;
    const sound = this.studio.sound;
    if (!sound || !answer) return;      // a meld the card cannot edit: what it shows
    const name = $("editor-root").value || "C";
    const root = (PC_OF[name[0]] + (name.includes("♯") ? 1 : 0) - (name.includes("♭") ? 1 : 0)
      + 12) % 12;
    const notes = answer.sectors.filter((s) => s.state !== "off").map((s) => 60 + root + s.sector);
    if (answer.octave) notes.push(72 + root);
    if (arpeggio) sound.arpeggio(notes);
    else sound.chord(notes);
  }
}
