// The validator's answer shown: its lines under the studio (a tap on one goes to its place),
// and each problem at its place: the meld marked ⚠ in the list, the message under its field
// (tied to it by aria-describedby), the sector of a degree.

import { button } from "./studio_card.js";
import { fieldOf, friendly, place } from "./studio_text.js";

const $ = (id) => document.getElementById(id);

export class Problems {
  constructor(studio) {
    this.studio = studio;
  }

  show(result, asked) {
    const list = $("problems");
    list.replaceChildren();
    const problems = result.problems || [];
    const selected = this.studio.doc.selected;
    result.lines.forEach((line, i) => {
      const item = document.createElement("li");
      item.className = result.valid ? "valid" : "error";
      if (result.valid) item.textContent = friendly(line);
      else {
        item.dataset.errorFor = problems[i] ? fieldOf(problems[i][0], selected) : "source";
        const go = button(friendly(line), { class: "goto" });
        go.addEventListener("click", () => this.goTo(problems[i] ? problems[i][0] : ""));
        item.appendChild(go);
      }
      list.appendChild(item);
    });
    if (result.valid && result.refused) {
      const item = document.createElement("li");
      item.className = "error";
      item.dataset.errorFor = "set-name";
      item.textContent = `${friendly(result.refused)} (to preview or send it)`;
      list.appendChild(item);
    }
    $("studio").dataset.valid = String(result.valid);
    $("studio").dataset.checks = String(asked);
    this.studio.send.showButtons();
    this.showAtFields();
  }

  // The field of a validator place, its meld chosen first.
  goTo(where) {
    const at = place(where);
    const doc = this.studio.doc;
    if (at.meld !== null && doc.model && at.meld < doc.model.melds.length) {
      this.studio.list.select(at.meld);
    }
    const field = $(fieldOf(where, at.meld !== null ? at.meld : doc.selected));
    const target = field && field.id === "editor-wheel" ? this.studio.card.sectors[0] : field;
    if (target) {
      target.scrollIntoView({ block: "center" });
      target.focus({ preventScroll: true });
    }
  }

  // What the problems say, by place: {byMeld, fields, sectors}.
  sort(problems) {
    const doc = this.studio.doc;
    const byMeld = new Map();
    const fields = new Map();
    const sectors = new Set();
    const meld = doc.meld;
    const add = (field, what) => fields.set(field, [...(fields.get(field) || []), what]);
    for (const [where, what] of problems) {
      const at = place(where);
      const field = fieldOf(where, doc.selected);
      if (at.meld === null) {
        // A place the fields do not show ("format", "melds[3].colour"): said with it.
        add(field, friendly(field === "source" && where ? `${where}: ${what}` : what));
        continue;
      }
      if (!byMeld.has(at.meld)) byMeld.set(at.meld, []);
      byMeld.get(at.meld).push(friendly(`${where}: ${what}`));
      if (at.meld !== doc.selected) continue;
      // Under the card, which degree (counting from 1): a mistyped one has no sector.
      const degree = at.field === "degrees" && at.index !== null;
      add(field, (degree ? `degree ${at.index + 1}: ` : "") + friendly(what));
      if (degree && meld && Array.isArray(meld.degrees)) {
        const hit = this.studio.card.sectorOf(String(meld.degrees[at.index] ?? "").replace(/[()]/g, ""));
        if (hit) sectors.add(hit);
      }
    }
    return { byMeld, fields, sectors, add };
  }

  showAtFields() {
    const result = this.studio.result;
    const { byMeld, fields, sectors, add } = this.sort(result?.problems || []);
    if (result && !result.valid && !(result.problems || []).length) {
      add("source", result.lines.map(friendly).join("; "));
    }
    for (const b of $("meld-list").querySelectorAll("button[data-meld]")) {
      const said = byMeld.get(Number(b.dataset.meld));
      b.classList.toggle("bad", Boolean(said));
      b.title = said ? said.join("\n") : "";
    }
    const selected = this.studio.doc.selected;
    const others = [...byMeld.keys()].filter((i) => i !== selected);
    if (others.length) {
      add("meld-list", `meld ${others.map((i) => i + 1).join(", ")}${
        others.length === 1 ? " has a problem" : " have problems"} (marked ⚠)`);
    }
    for (const p of document.querySelectorAll("#studio .field-problem[data-error-for]")) {
      const said = fields.get(p.dataset.errorFor);
      p.textContent = said ? said.join("; ") : "";
      const input = $(p.dataset.errorFor);
      if (input?.matches("input, select, textarea")) {
        input.setAttribute("aria-invalid", String(Boolean(said)));
      }
    }
    $("editor-wheel").classList.toggle("bad", fields.has("editor-wheel"));
    for (const s of this.studio.card.sectors) s.classList.toggle("bad", sectors.has(s));
  }
}
