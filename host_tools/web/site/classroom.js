// The class view: the wheel full screen for a projector (#class), the ring at least 80% of the
// screen's height, the meld's name and notes in type a class reads from the back (#class-name,
// #class-notes), the signs ♭ ♯ at a letter's height. Driven by the keys a presentation
// clicker sends: → ↓ Page Down turn the root up a semitone, ← ↑ Page Up down, space or Enter
// is a push (the next meld). It shows the set the teacher is editing (a preview of it, when
// the set has no problems), and back in the page the wheel runs what it ran before.

const $ = (id) => document.getElementById(id);
const SIGN = /([♭♯𝄪𝄫])/u;

// Text with each music sign in a span of its own (sized up to a letter's height by the CSS).
export function withSigns(element, text) {
  element.replaceChildren(...String(text).split(SIGN).filter(Boolean).map((part) => {
    if (!SIGN.test(part)) return document.createTextNode(part);
    const sign = document.createElement("span");
    sign.className = "sign";
    sign.textContent = part;
    return sign;
  }));
}

// "E♭ major pentatonic (pent)" -> "E♭ major pentatonic": the class reads the name, not the id.
export function spokenTitle(title) {
  return String(title).replace(/\s*\([^()]*\)$/, "");
}

export class Classroom {
  constructor({ turn, push, studio }) {
    this.turn = turn;
    this.push = push;
    this.studio = studio;
    this.open = false;
    this.previewed = false;
    $("class-open").addEventListener("click", () => this.show());
    $("class-close").addEventListener("click", () => this.hide());
    document.addEventListener("keydown", (event) => this.key(event));
    document.addEventListener("fullscreenchange", () => {
      if (!document.fullscreenElement && this.open && this.wentFull) this.hide();
    });
  }

  key(event) {
    if (!this.open || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    if (event.target.closest?.("button") && (event.key === " " || event.key === "Enter")) return;
    const step = { ArrowRight: 1, ArrowDown: 1, PageDown: 1, ArrowLeft: -1, ArrowUp: -1,
                   PageUp: -1 }[event.key];
    if (step) this.turn(step);
    else if (event.key === " " || event.key === "Enter") this.push("click");
    else if (event.key === "Escape") this.hide();
    else return;
    event.preventDefault();
  }

  // The wheel moves into the class view (it stays #wheel, its ring #ring, its knob #knob).
  async show() {
    if (this.open) return;
    this.open = true;
    this.home = $("wheel").nextElementSibling;
    $("class-stage").appendChild($("wheel"));
    $("class").hidden = false;
    document.body.dataset.classView = "open";
    $("knob").focus({ preventScroll: true });
    this.wentFull = false;
    try {
      await $("class").requestFullscreen?.({ navigationUI: "hide" });
      this.wentFull = Boolean(document.fullscreenElement);
    } catch (_err) { /* no full screen here (a test, an iframe): the view fills the window */ }
    await this.showTheSet();
  }

  // The set being edited on the wheel, when it can run; else the wheel's own, and why.
  async showTheSet() {
    const studio = this.studio;
    if (!studio) return;
    const result = await studio.usable();
    if (!result) {
      $("class-why").textContent = "the wheel shows its own set: the set being edited has a " +
        "problem (see the studio)";
      return;
    }
    $("class-why").textContent = "";
    if (document.body.dataset.preview !== result.name) {
      await studio.send.preview();
      this.previewed = true;
    }
  }

  async hide() {
    if (!this.open) return;
    this.open = false;
    this.home.before($("wheel"));
    $("class").hidden = true;
    delete document.body.dataset.classView;
    if (document.fullscreenElement) {
      try { await document.exitFullscreen(); } catch (_err) { /* left already */ }
    }
    if (this.previewed) {
      this.previewed = false;
      await this.studio.send.stopPreview();
    }
    $("class-open").focus();
  }

  // What the ring shows: the title of the state and its notes, root first.
  name(title, notes) {
    withSigns($("class-name"), spokenTitle(title));
    withSigns($("class-notes"), notes.join("  "));
  }
}
