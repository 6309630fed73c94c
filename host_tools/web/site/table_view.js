// The table view (table.html): the table the wheels at one table share, large, for a screen
// everyone sees. The page joins the table link over Web MIDI (the wheels' USB, their `link`
// setting on usb or both) as a member with no seat: it asks the wheels for the game, keeps
// the log as they do (table_worker.js), relays each wheel's messages to the others
// (table_relay.js) and shows the seats' totals, whose turn, the round and the last entries.

import { Host } from "./host.js";
import { describe, hex, isLink, messages, relayTargets, SEAT_COLOURS } from "./table_relay.js";

const TICK_MS = 50;
const $ = (id) => document.getElementById(id);

const now = () => Math.round(performance.now());

function render(view) {
  const words = describe(view);
  $("table-head").textContent = words.head;
  $("table-status").textContent = words.status;
  $("table-status").classList.toggle("broken", !view.heard);
  const seats = $("table-seats");
  seats.replaceChildren();
  for (const seat of words.seats) {
    const tile = document.createElement("div");
    tile.className = "seat";
    tile.dataset.seat = seat.seat;
    tile.style.borderColor = SEAT_COLOURS[seat.seat - 1];
    tile.classList.toggle("playing", seat.playing);
    tile.classList.toggle("absent", !seat.heard);
    const name = document.createElement("div");
    name.className = "name";
    name.textContent = `P${seat.seat}${seat.leading ? " ★" : ""}`;
    name.style.color = SEAT_COLOURS[seat.seat - 1];
    const total = document.createElement("div");
    total.className = "total";
    total.textContent = seat.total;
    const note = document.createElement("div");
    note.className = "note";
    note.textContent = seat.playing ? "to play" : seat.heard ? "" : "no wheel heard";
    tile.append(name, total, note);
    seats.append(tile);
  }
  const news = $("table-news");
  news.replaceChildren();
  for (const [line, seat] of [...view.news].reverse()) {
    const item = document.createElement("li");
    item.textContent = line;
    item.style.borderColor = SEAT_COLOURS[seat - 1];
    news.append(item);
  }
}

async function main() {
  const api = { view: null, sent: [], started: false };
  window.chromawheelTable = api;
  const member = new Host(new URL("table_worker.js", import.meta.url));
  const [site, bundle] = await Promise.all([
    fetch("site.json").then((r) => r.json()),
    fetch("host.bin").then((r) => r.arrayBuffer()).then((b) => new Uint8Array(b))]);
  await member.ask({ t: "start", table: site.host, bundle, now: now(),
                     wheel: 1 + Math.floor(Math.random() * 0x3ffe) });
  let access = null;
  const outputs = () => (access ? [...access.outputs.values()] : []);
  const send = (targets, bytes) => {
    for (const output of targets) output.send(bytes);
    api.sent.push({ to: targets.map((o) => o.name || o.id), hex: hex(bytes) });
  };
  const listen = () => {
    for (const input of access.inputs.values()) {
      input.onmidimessage = (event) => {
        const bytes = event.data;
        if (isLink(bytes)) send(relayTargets(input, outputs()), bytes);
        member.ask({ t: "heard", hex: hex(bytes), now: now() });
      };
    }
    const names = [...access.inputs.values()].map((i) => i.name || i.id);
    $("table-ports").textContent = names.length ? `MIDI: ${names.join(", ")}` : "MIDI: no device";
  };
  $("table-connect").addEventListener("click", async () => {
    if (access) return;
    if (!navigator.requestMIDIAccess) {
      $("table-ports").textContent = "this browser has no Web MIDI (Chrome or Edge have it)";
      return;
    }
    try {
      access = await navigator.requestMIDIAccess({ sysex: true });
    } catch (err) {
      $("table-ports").textContent = `MIDI: the browser refused (${err.message || err})`;
      return;
    }
    access.onstatechange = listen;
    listen();
    $("table-connect").hidden = true;
  });
  let busy = false;
  setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      const { out, view } = await member.ask({ t: "update", now: now() });
      for (const message of messages(out)) send(outputs(), message);
      api.view = view;
      render(view);
    } finally {
      busy = false;
    }
  }, TICK_MS);
  api.started = true;
}

main().catch((err) => {
  $("table-status").textContent = `the table view did not start: ${err.message || err}`;
});
