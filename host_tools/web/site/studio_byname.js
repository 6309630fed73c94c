// Melds by name: #meld-by-name takes what the command line takes (Cmaj7, D minor triad, A
// natural minor, C E G Bb: its own parser, run by the page's laptop side) and Enter makes the
// meld, shown from that root; a meld the set has already is chosen instead. What does not read
// is said under the field with the command line's suggestions, each a button.

import { button } from "./studio_card.js";
import { sameShape } from "./studio_melds.js";

const $ = (id) => document.getElementById(id);

export class MeldsByName {
  constructor(studio) {
    this.studio = studio;
    $("meld-by-name").addEventListener("keydown", (event) => {
      if (event.key !== "Enter") return;
      event.preventDefault();
      studio.track(() => this.make($("meld-by-name").value));
    });
  }

  say(text, suggestions = []) {
    $("meld-by-name-error").textContent = text;
    $("meld-by-name").setAttribute("aria-invalid", String(Boolean(text)));
    $("meld-by-name-suggestions").replaceChildren(...suggestions.map((name) => {
      const b = button(name);
      b.addEventListener("click", () => {
        $("meld-by-name").value = name;
        this.studio.track(() => this.make(name));
      });
      return b;
    }));
  }

  async make(text) {
    const studio = this.studio;
    const model = studio.doc.model;
    if (!text.trim() || !model) return;
    const answer = await studio.host.byName(text);
    if (answer.error) {
      this.say(answer.error, answer.suggestions || []);
      return;
    }
    this.say("");
    if (answer.root) $("editor-root").value = answer.root;
    const had = sameShape(answer.meld, model.melds);
    if (had >= 0) {
      studio.list.select(had);
      studio.said(`the set has it already: meld ${had + 1}, ${model.melds[had].name}`);
      return;
    }
    const taken = (key) => model.melds.some(
      (m) => String(m[key]).toLowerCase() === String(answer.meld[key]).toLowerCase());
    const meld = taken("id") || taken("name")
      ? { ...answer.meld, id: `${answer.meld.id}-2`, name: `${answer.meld.name} 2` } : answer.meld;
    studio.card.auto.set(meld, []);
    model.melds.push(meld);
    studio.list.select(model.melds.length - 1, false);
    studio.commit();
    $("meld-by-name").value = "";
    studio.said(`added ${meld.name} (${meld.degrees.join(" ")})${answer.root ? `, shown from ${answer.root}` : ""}`);
  }
}
