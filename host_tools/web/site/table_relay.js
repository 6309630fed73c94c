// The table view's Web MIDI side that needs no browser (unit-tested under Node): which bytes
// are the table link's, where a wheel's message goes, the worker's bytes as whole messages.
//
// The page is a member of the link on one bus (core/link.py: every member hears every
// message). Wheels cabled to the computer each by its own USB hear only the page, so the page
// makes them a bus: what one wheel sends goes to every other wheel's output (not back to its
// own), and to the page's own member of the link (table_worker.js).

// 7D (MIDI's non-commercial ID), "CW": a ChromaWheel's SysEx.
export function isLink(bytes) {
  return bytes.length >= 5 && bytes[0] === 0xf0 && bytes[1] === 0x7d && bytes[2] === 0x43 &&
    bytes[3] === 0x57;
}

// The outputs a message heard on input `input` goes to: every output but the one of the same
// device (Web MIDI names a USB device's input and output alike).
export function relayTargets(input, outputs) {
  return outputs.filter((output) => (output.name || output.id) !== (input.name || input.id));
}

// "f07d...f7f07d...f7" (the worker's queue, whole messages) as one Uint8Array a message.
export function messages(hex) {
  const bytes = Uint8Array.from(hex.match(/../g) || [], (h) => parseInt(h, 16));
  const out = [];
  let start = 0;
  for (let at = 0; at < bytes.length; at++) {
    if (bytes[at] === 0xf7) {
      out.push(bytes.subarray(start, at + 1));
      start = at + 1;
    }
  }
  return out;
}

export function hex(bytes) {
  let text = "";
  for (const b of bytes) text += b.toString(16).padStart(2, "0");
  return text;
}

// The seats' colours, as the wheels flash them (firmware/link.py SEAT_COLOURS; P3's blue
// lighter, to read on the dark page).
export const SEAT_COLOURS = ["#ff2800", "#00dc3c", "#4d8dff", "#e6b400"];

// The view's words for a table (table_page.py's view): {head, seats: [{seat, total, playing,
// leading, heard}], status}.
export function describe(view) {
  const heard = view.members.length;
  const status = view.heard
    ? `${heard} wheel${heard === 1 ? "" : "s"} heard (${view.members.map((s) => `P${s}`).join(" ") || "no seats"}); ${view.entries} entries; digest ${view.digest || "-"}`
    : "no wheel heard for 3 s: is a wheel's link on usb or both, and its cable in?";
  if (!view.known) {
    return { head: "waiting for a wheel's game (start a new game on a wheel: score mode)",
             seats: [], status };
  }
  const head = view.over
    ? `${view.title}: game over, winner ${view.leaders.map((p) => `P${p + 1}`).join(", ")}`
    : `${view.title}, round ${view.round} of ${view.rounds}: P${view.dealer + 1} deals, P${view.current + 1} to play`;
  const seats = view.totals.map((total, p) => ({
    seat: p + 1, total, playing: !view.over && p === view.current,
    leading: view.leaders.includes(p), heard: view.members.includes(p + 1),
  }));
  return { head, seats, status };
}
