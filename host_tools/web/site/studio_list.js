// The list of the set's melds: one Tab stop, ↑ ↓ Home End choosing with the focus kept on the
// chosen meld; new meld, duplicate, delete, ▲ ▼; and the fields of the set and of the meld
// chosen, drawn from the model.

import { button } from "./studio_card.js";
import { duplicateOf, newMeld } from "./studio_melds.js";
import { KINDS } from "./studio_text.js";

const $ = (id) => document.getElementById(id);

export class MeldList {
  constructor(studio) {
    this.studio = studio;
    $("new-meld").addEventListener("click", () => this.add());
    $("duplicate-meld").addEventListener("click", () => this.duplicate());
    $("delete-meld").addEventListener("click", () => this.remove());
    $("meld-up").addEventListener("click", () => this.move(-1));
    $("meld-down").addEventListener("click", () => this.move(1));
    $("meld-list").addEventListener("keydown", (event) => this.key(event));
  }

  get doc() {
    return this.studio.doc;
  }

  key(event) {
    const model = this.doc.model;
    if (!model?.melds.length) return;
    const last = model.melds.length - 1;
    const at = this.doc.selected;
    const to = { ArrowUp: at - 1, ArrowDown: at + 1, Home: 0, End: last,
                 PageUp: at - 8, PageDown: at + 8 }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    this.select(Math.max(0, Math.min(last, to)));
  }

  add() {
    const model = this.doc.model;
    if (!model) return;
    const meld = newMeld(model.melds, this.doc.meld);
    this.studio.card.auto.set(meld, []);
    this.studio.fresh.add(meld);
    model.melds.push(meld);
    this.select(model.melds.length - 1, false);
    this.studio.commit();
  }

  duplicate() {
    const meld = this.doc.meld;
    if (!meld) return;
    const copy = duplicateOf(meld, this.doc.model.melds, this.studio.limits);
    const auto = this.studio.card.auto;
    if (auto.has(meld)) auto.set(copy, auto.get(meld).slice());
    this.doc.model.melds.splice(this.doc.selected + 1, 0, copy);
    this.select(this.doc.selected + 1, false);
    this.studio.commit();
  }

  remove() {
    const meld = this.doc.meld;
    if (!meld) return;
    const at = this.doc.selected;
    this.doc.model.melds.splice(at, 1);
    this.select(Math.min(this.doc.selected, this.doc.model.melds.length - 1), false);
    this.studio.commit();
    const still = this.doc.model.melds.length ? "delete-meld" : "new-meld";
    $(still).focus();                 // the button that was tapped may have gone
    this.studio.said(`deleted meld ${at + 1}, ${meld.name ?? meld.id} (undo brings it back)`);
  }

  move(by) {
    const melds = this.doc.model?.melds;
    const from = this.doc.selected;
    const to = from + by;
    if (!this.doc.meld || to < 0 || to >= melds.length) return;
    [melds[from], melds[to]] = [melds[to], melds[from]];
    this.select(to, false);
    this.studio.commit();
  }

  // The meld chosen: drawn, and (`keep`) part of the step undo returns to.
  select(index, keep = true) {
    this.doc.selected = Math.max(index, 0);
    this.showSet();
    this.studio.card.step(null);
    if (keep && this.doc.current) {
      this.doc.choose(this.doc.selected);
      this.studio.keep();
    }
  }

  // The set's fields and the chosen meld's, from the model (a field being typed in is left).
  showSet() {
    const model = this.doc.model;
    const text = (key) => (model && typeof model[key] === "string" ? model[key] : "");
    for (const [id, key] of [["set-name", "name"], ["set-title", "title"],
                             ["set-description", "description"]]) {
      if (document.activeElement !== $(id)) $(id).value = text(key);
      $(id).disabled = !model;
    }
    const meld = this.doc.meld;
    for (const key of ["id", "name"]) {
      const input = $(`meld-${key}`);
      const value = meld ? meld[key] : "";
      if (document.activeElement !== input) input.value = typeof value === "string" ? value : "";
      input.disabled = !meld;
    }
    $("meld-kind").value = meld && KINDS.includes(meld.kind) ? meld.kind : "";
    $("meld-kind").disabled = !meld;
    $("new-meld").disabled = !model;
    for (const id of ["duplicate-meld", "delete-meld", "play-chord", "play-arpeggio"]) {
      $(id).disabled = !meld;
    }
    $("meld-up").disabled = !meld || this.doc.selected === 0;
    $("meld-down").disabled = !meld || this.doc.selected >= model.melds.length - 1;
    this.show();
  }

  show() {
    const list = $("meld-list");
    const focused = list.contains(document.activeElement);
    list.replaceChildren();
    const model = this.doc.model;
    if (!model) return;
    model.melds.forEach((meld, i) => {
      const item = document.createElement("li");
      const b = button("", { "data-meld": String(i), tabindex: i === this.doc.selected ? "0" : "-1" });
      const id = document.createElement("b");
      id.textContent = String(meld.id ?? "");
      const rest = document.createElement("span");
      rest.textContent = ` ${meld.name ?? ""} · ${meld.kind ?? ""}`;
      b.append(id, rest);
      if (i === this.doc.selected) b.setAttribute("aria-current", "true");
      b.addEventListener("click", () => this.select(i));
      item.appendChild(b);
      list.appendChild(item);
    });
    // The selected meld in view within the list (never the page scrolled to it).
    const current = list.querySelector("[aria-current]");
    if (current) {
      const item = current.parentElement;
      if (item.offsetTop < list.scrollTop) list.scrollTop = item.offsetTop;
      else if (item.offsetTop + item.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = item.offsetTop + item.offsetHeight - list.clientHeight;
      }
      if (focused) current.focus({ preventScroll: true });
    }
    this.studio.problems.showAtFields();
  }
}
