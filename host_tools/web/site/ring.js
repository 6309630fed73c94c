// The ring on the page: twelve LEDs, C at the top, each in the colour the firmware drives it
// (the LED's gamma undone), labelled with its note: a lit one as the firmware spells it now
// (frames.js's names, from the mode's notes()), an unlit one by both its names; under it the
// same in words, a live region a screen reader reads once the ring rests.

import { withSigns } from "./classroom.js";
import { labelOn } from "./contrast.js";
import { titleOf } from "./frames.js";

const $ = (id) => document.getElementById(id);
// Both names of each pitch class, as the unlit ring shows them (the display's glyphs).
const NAMES = ["C", "C♯/D♭", "D", "D♯/E♭", "E", "F", "F♯/G♭", "G", "G♯/A♭", "A", "A♯/B♭", "B"];
// LED drive levels -> a screen colour: the LED's gamma undone so dim notes stay visible
// (host_tools/sim/terminal.py does the same in a terminal).
function screenColour(rgb, gamma) {
  return rgb.map((v) => (v ? Math.round(255 * (v / 255) ** (1 / gamma)) : 0));
}

export class Wheel {
  constructor(site) {
    this.gamma = site.board.ring.gamma;
    this.leds = [];
    this.lit = new Array(12).fill(false);
    const colours = site.wheel_colours;
    for (let pc = 0; pc < 12; pc++) {
      const led = document.createElement("div");
      led.className = "led";
      led.dataset.pc = String(pc);
      led.dataset.rgb = "0,0,0";
      const [r, g, b] = colours.slice(3 * pc, 3 * pc + 3);
      led.style.setProperty("--angle", `${pc * 30}deg`);
      led.style.setProperty("--wheel", `rgb(${r >> 1},${g >> 1},${b >> 1})`);
      $("ring").appendChild(led);
      this.leds.push(led);
      this.label(pc, NAMES[pc]);
    }
  }

  // The label shown, and data-name: a lit note as the display (or the console) spells it
  // now; an unlit one, or a lit one that nothing names, by both its names.
  label(pc, name) {
    const led = this.leds[pc];
    if (led.dataset.name === name) return;
    led.dataset.name = name;
    led.title = name;
    led.replaceChildren(...name.split("/").map((part) => {
      const span = document.createElement("span");
      withSigns(span, part);
      return span;
    }));
    led.classList.toggle("two", name.includes("/"));
  }

  // names: pc -> the name the firmware spells it by now (its notes(), root first).
  relabel(names) {
    for (let pc = 0; pc < 12; pc++) {
      this.label(pc, this.lit[pc] && names.has(pc) ? names.get(pc) : NAMES[pc]);
    }
    // The lit notes in the order the firmware names them (its root first), then the others.
    const order = [...names.keys()].filter((pc) => this.lit[pc]);
    for (let pc = 0; pc < 12; pc++) if (this.lit[pc] && !order.includes(pc)) order.push(pc);
    this.litOrder = order;
  }

  // What the ring shows, in words, with the title of the console's line (a live region: a
  // screen reader hears a change once it rests), and the chord it shows when the sound is on.
  describe(line) {
    const order = this.litOrder || [];
    const shown = order.map((pc) => this.leds[pc].dataset.name).join(" ");
    const title = titleOf(line);
    const text = order.length ? `the ring shows ${shown}${title ? ` (${title})` : ""}`
      : "the ring is dark";
    clearTimeout(this.resting);
    this.resting = setTimeout(() => {
      if ($("ring-text").textContent === text) return;
      $("ring-text").textContent = text;
      if (this.onChange) this.onChange(order);
    }, 250);
  }

  show(frame) {
    frame.wheel.forEach((rgb, pc) => {
      const led = this.leds[pc];
      led.dataset.rgb = rgb.join(",");
      const lit = rgb.some((v) => v);
      this.lit[pc] = lit;
      led.classList.toggle("lit", lit);
      const [r, g, b] = screenColour(rgb, this.gamma);
      led.style.background = lit ? `rgb(${r},${g},${b})` : "";
      led.style.color = lit ? labelOn([r, g, b]) : "";
      led.style.setProperty("--glow", `rgba(${r},${g},${b},0.55)`);
    });
  }
}
