// The page: the wheel (the firmware on the web board), its ring (ring.js), knob and button,
// the OLED, its sound through Web Audio (sound.js: the chord it shows, its buzzer), the
// console; ?script= plays the simulator's step language in the simulator's virtual time and
// marks <body data-script-done> when it has run; the studio, the class view (classroom.js),
// and for a share link (#s=) the student view (student.js).

import { WebBoard, loadedWorker } from "./board.js";
import { titleOf } from "./frames.js";
import { Classroom } from "./classroom.js";
import { Host } from "./host.js";
import { InstallPanel } from "./installer.js";
import { Wheel } from "./ring.js";
import { Sound } from "./sound.js";
import { showStudentView } from "./student.js";
import { Studio } from "./studio.js";
import { LinkError, linked } from "./studio_link.js";

const DETENT_DEGREES = 18;       // a 20-detent knob
const $ = (id) => document.getElementById(id);

async function fetchBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

function status(text) {
  $("status").textContent = text;
}

class Oled {
  constructor() {
    this.canvas = $("oled");
    this.context = this.canvas.getContext("2d");
    this.text = $("oled-text");
  }

  show(image) {
    const picture = this.context.createImageData(image.width, image.height);
    for (let y = 0; y < image.height; y++) {
      for (let x = 0; x < image.width; x++) {
        const at = 4 * (y * image.width + x);
        const on = image.lit(x, y);
        picture.data.set(on ? [159, 227, 255, 255] : [17, 17, 17, 255], at);
      }
    }
    this.context.putImageData(picture, 0, 0);
    this.text.textContent = image.rows().join("\n");
  }
}

function consoleView() {
  const view = $("console");
  return (line) => {
    view.textContent += `${line}\n`;
    if (view.textContent.length > 20000) view.textContent = view.textContent.slice(-10000);
    view.scrollTop = view.scrollHeight;
  };
}

// Knob, button and keys: the knob's detents as turns, the button as the contact (the
// firmware tells a click from a double or long press), keys as the terminal simulator's.
function controls(board, gestures) {
  const knob = $("knob");
  let angle = 0;
  let position = 0;
  const turn = (detents) => {
    if (!detents) return;
    board.send([`turn ${detents}`]);
    angle += detents * DETENT_DEGREES;
    position = (((position + detents) % 12) + 12) % 12;
    knob.style.setProperty("--knob-angle", `${angle}deg`);
    knob.setAttribute("aria-valuenow", String(position));
  };
  let dragging = null;
  const pointerAngle = (event) => {
    const box = knob.getBoundingClientRect();
    return Math.atan2(event.clientY - (box.top + box.height / 2),
                      event.clientX - (box.left + box.width / 2)) * 180 / Math.PI;
  };
  // A drag round the knob, on it or anywhere on the ring (a finger hides the knob itself).
  const ring = $("wheel");
  ring.addEventListener("pointerdown", (event) => {
    if (event.button > 0) return;
    ring.setPointerCapture(event.pointerId);
    knob.focus({ preventScroll: true });
    dragging = { last: pointerAngle(event), rest: 0 };
  });
  ring.addEventListener("pointermove", (event) => {
    if (!dragging) return;
    const now = pointerAngle(event);
    let delta = now - dragging.last;
    if (delta > 180) delta -= 360;
    if (delta < -180) delta += 360;
    dragging.last = now;
    dragging.rest += delta;
    const detents = Math.trunc(dragging.rest / DETENT_DEGREES);
    dragging.rest -= detents * DETENT_DEGREES;
    turn(detents);
  });
  const drop = () => { dragging = null; };
  ring.addEventListener("pointerup", drop);
  ring.addEventListener("pointercancel", drop);
  let scrolled = 0;
  knob.addEventListener("wheel", (event) => {
    event.preventDefault();
    scrolled += event.deltaY;
    const detents = Math.trunc(scrolled / 40);
    scrolled -= detents * 40;
    turn(-detents);                    // scrolling up turns clockwise
  }, { passive: false });

  const button = $("button");
  const press = (event) => {
    event.preventDefault();
    button.classList.add("down");
    board.send(["press"]);
  };
  const release = () => {
    if (!button.classList.contains("down")) return;
    button.classList.remove("down");
    board.send(["release"]);
  };
  button.addEventListener("pointerdown", press);
  button.addEventListener("pointerup", release);
  button.addEventListener("pointerleave", release);
  button.addEventListener("pointercancel", release);

  // The wheel's keys act only with the knob (or the push button) focused: every other control
  // keeps Enter and Space for itself.
  const wheelKeys = (event) => {
    const target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    let handled = true;
    if (key === "ArrowRight" || key === "]" || (key === "ArrowUp" && target === knob)) turn(1);
    else if (key === "ArrowLeft" || key === "[" || (key === "ArrowDown" && target === knob)) turn(-1);
    else if (key === " " || key === "Enter") board.send(gestures.click);
    else if (key === "d") board.send(gestures.double);
    else if (key === "l") board.send(gestures.long);
    else handled = false;
    if (handled) event.preventDefault();
  };
  knob.addEventListener("keydown", wheelKeys);
  button.addEventListener("keydown", (event) => {
    if (event.key === " " || event.key === "Enter" || event.key === "d" || event.key === "l") {
      wheelKeys(event);
    }
  });
  return { turn, push: (gesture) => board.send(gestures[gesture]) };
}

// Web MIDI where the browser has it: the wheel's MIDI out to the output chosen, the input
// chosen to the wheel's MIDI in. The wheel's own `midi` setting (its menu) decides whether it
// sends or listens, as on a board.
function webMidi(board) {
  const button = $("midi");
  const outs = $("midi-out");
  const ins = $("midi-in");
  let access = null;
  if (!navigator.requestMIDIAccess) {
    button.disabled = true;
    button.title = "this browser has no Web MIDI";
    return;
  }
  const fill = (select, ports) => {
    const chosen = select.value;
    select.replaceChildren(new Option("none", ""));
    for (const port of ports.values()) select.add(new Option(port.name || port.id, port.id));
    select.value = [...ports.keys()].includes(chosen) ? chosen : "";
  };
  const listen = () => {
    for (const input of access.inputs.values()) {
      input.onmidimessage = input.id === ins.value ? (event) => board.midiIn(event.data) : null;
    }
  };
  button.addEventListener("click", async () => {
    if (access) return;
    try {
      access = await navigator.requestMIDIAccess();
    } catch (err) {
      status(`MIDI: the browser refused (${err.message || err})`);
      return;
    }
    const refresh = () => { fill(outs, access.outputs); fill(ins, access.inputs); listen(); };
    access.onstatechange = refresh;
    refresh();
    ins.addEventListener("change", listen);
    $("midi-ports").hidden = false;
    button.setAttribute("aria-pressed", "true");
    status("MIDI: choose where the wheel's notes go and which keyboard it hears");
  });
  board.addEventListener("midi", (event) => {
    const port = access && outs.value ? access.outputs.get(outs.value) : null;
    if (port) port.send(event.detail);
  });
}

// ?settings={"midi":"both","mode":"listen"}: a script's board starts with these settings.
function startSettings(params, board) {
  const text = params.get("settings");
  if (text === null) return null;
  let values;
  try {
    values = JSON.parse(text);
  } catch (err) {
    return `?settings: not JSON (${err.message})`;
  }
  if (!values || typeof values !== "object" || Array.isArray(values)) {
    return "?settings: expected a JSON object such as {\"midi\": \"in\"}";
  }
  board.state.set("settings.json", new TextEncoder().encode(JSON.stringify(values)));
  return null;
}

async function main() {
  const params = new URLSearchParams(location.search);
  const script = params.get("script");
  // Both MicroPythons load (download, compile) while the page fetches what they will run.
  const loaded = loadedWorker();
  const laptop = new Host();
  const [site, flash, hostBundle] = await Promise.all([
    fetch("site.json").then((r) => r.json()), fetchBytes("flash.bin"), fetchBytes("host.bin")]);
  const board = new WebBoard(site, flash, { persist: script === null, loaded });
  const wheel = new Wheel(site);
  const oled = new Oled();
  const sound = new Sound();
  let soundOn = false;
  const say = consoleView();
  const api = { site, board, host: null, ready: false };
  Object.defineProperty(api, "frames", { get: () => board.frames.frames });
  Object.defineProperty(api, "firstFrameMs", { get: () => board.firstFrameAt });
  // Python run on a fresh board in place of boot.py and main.py (make bench's measurements):
  // the lines it printed.
  api.runOnBoard = (code) => new Promise((resolve) => {
    board.addEventListener("quit", () => resolve(board.frames.console), { once: true });
    board.boot("power", [], code);
  });
  window.chromawheel = api;

  // The ring's names are the firmware's: the notes it spells for the state it shows.
  const relabel = () => {
    const frames = board.frames;
    if (!frames) return;
    wheel.relabel(frames.names);
    const line = frames.console[frames.console.length - 1];
    wheel.describe(line);
    wheel.onNames?.(titleOf(line), (wheel.litOrder || []).map((pc) => wheel.leds[pc].dataset.name));
  };
  board.addEventListener("frame", (event) => { wheel.show(event.detail); relabel(); });
  board.addEventListener("display", (event) => oled.show(event.detail));
  board.addEventListener("notes", relabel);
  board.addEventListener("tone", (event) => {
    if (soundOn) sound.blip(event.detail.freq, event.detail.duty);
  });
  // The chord the wheel shows, heard when it changes (the root lowest, the rest above it).
  wheel.onChange = (order) => {
    if (!soundOn || !order.length) return;
    const root = order[0];
    sound.chord(order.map((pc) => 48 + root + ((pc - root + 12) % 12)));
  };
  api.sound = sound;
  board.addEventListener("console", (event) => say(event.detail));
  board.addEventListener("boot", (event) => say(`-- ${event.detail.resetCause === "power" ?
    "power-up" : "reset"} --`));
  board.addEventListener("stopped", (event) => status(`the firmware stopped: ${event.detail}`));

  // The board and the laptop's side start at once, each in a worker of its own: neither waits
  // for the other's runtime (a scripted board boots later, when its script is compiled).
  const hostStarting = laptop.start(site, hostBundle);
  hostStarting.catch(() => {});          // its failure is the await's below, not unhandled
  if (script === null) {
    await board.boot("power");
    status("the wheel is running: turn the knob or press push");
  }
  const host = await hostStarting;
  api.host = host;
  const gestures = {};
  for (const name of ["click", "double", "long"]) {
    gestures[name] = (await host.compileScript(name, site.board.button)).lines;
  }
  const wheelControls = controls(board, gestures);
  webMidi(board);
  $("sound").addEventListener("click", () => {
    soundOn = !soundOn;
    const on = soundOn;
    if (on) {
      sound.ensure();
      wheel.onChange(wheel.litOrder || []);
    }
    $("sound").setAttribute("aria-pressed", String(on));       // a toggle: its label stays
  });
  $("reset").addEventListener("click", () => board.reset("reset"));
  $("power").addEventListener("click", () => board.reset("power"));
  api.studio = new Studio(site, host, board, sound);
  api.installer = new InstallPanel(site);
  const classroom = new Classroom({ ...wheelControls, studio: api.studio });
  wheel.onNames = (title, notes) => classroom.name(title, notes);
  relabel();
  await api.studio.ready;
  if (script === null) await shared(host, board);

  if (script !== null) {
    const compiled = await host.compileScript(script, site.board.button);
    const error = compiled.error || startSettings(params, board);
    if (error) {
      status(compiled.error ? `?script: ${error}` : error);
      document.body.dataset.scriptError = error;
      return;
    }
    // As chromawheel sim --script: virtual time, the boot frame first, then 300 ms (the
    // simulator's SCRIPT_START_MS: the optional parts are in), a last wait, quit.
    const hold = params.has("hold");
    const commands = ["clock virtual 0", hold ? "press" : "wait 300", ...compiled.lines,
                      "wait 50", "quit"];
    board.addEventListener("quit", () => {
      status(`script done: ${board.frames.frames.length} frames (virtual time, as chromawheel sim)`);
      document.body.dataset.scriptDone = String(board.frames.frames.length);
    }, { once: true });
    status("playing the script…");
    await board.boot("power", commands);
  }
  api.ready = true;
  document.body.dataset.ready = "1";
}

// A set shared by its link (#s=, its QR code): the student view, the wheel running the set.
async function shared(host, board) {
  let link;
  try {
    link = await linked(location.hash);
  } catch (err) {
    if (!(err instanceof LinkError) || !location.hash.startsWith("#s=")) return;
    status(err.message);
    return;
  }
  if (link?.kind !== "share") return;
  const result = await showStudentView(link.bytes, { host, board });
  status(result.valid ? `a shared set on the wheel: ${result.name} (${result.melds} melds), ` +
    "read-only" : "the shared set cannot run on the wheel");
}

// The help panel: opened from the header; its links go where site.json says the documents
// are (the repository's pages when published by the Pages workflow).
// It is open at the first visit (this browser has not seen the page) and closed after.
function help(site) {
  const panel = $("help");
  const toggle = $("help-button");
  // On a phone or a portrait tablet the help opens under the wheel, which stays at the top of
  // the first screen (its step 1 says "at the top").
  if (matchMedia("(max-width: 900px)").matches) $("device").after(panel);
  const show = (open) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
  };
  toggle.addEventListener("click", () => {
    show(panel.hidden);
    if (!panel.hidden) panel.scrollIntoView({ block: "nearest" });
  });
  let seen = true;
  try {
    seen = localStorage.getItem("chromawheel.seen") === "1";
    localStorage.setItem("chromawheel.seen", "1");
  } catch (_err) { /* no storage: help stays shut */ }
  if (!seen && !new URLSearchParams(location.search).has("script")) show(true);
  for (const link of panel.querySelectorAll("a[data-doc]")) {
    const href = site?.docs?.[link.dataset.doc];
    if (href) link.href = href;
  }
}

// Offline after one visit, and installable: the service worker (sw.js, written by the build).
// Registered once the page is ready (or has failed): its install fetches every file of the site again (about
// 1.1 MB), which a first visit's own load should not wait behind.
function offline() {
  if (!("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register("sw.js").then(() => navigator.serviceWorker.ready).then(() => {
    document.body.dataset.offlineReady = "1";
  }).catch((err) => console.warn("no service worker: the page needs the network", err));
}

// The console and the key hints: open on a computer, behind "details" on a touch screen.
$("details").open = !matchMedia("(pointer: coarse)").matches;

fetch("site.json").then((r) => r.json()).then(help, () => help(null));

main().catch((err) => {
  status(`the page failed: ${err.message || err}`);
  console.error(err);
}).finally(offline);
