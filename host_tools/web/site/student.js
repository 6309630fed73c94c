// The student view: a set shared by its link (#s=, its QR code) on the page's wheel, read-only,
// without the studio: the wheel runs it (on a copy of the board's flash that is never kept),
// the set's title and melds are listed, and a button opens it in the studio as a copy.

import { setHash } from "./studio_link.js";
import { previewSettings } from "./studio_send.js";
import { KINDS } from "./studio_text.js";

const $ = (id) => document.getElementById(id);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export async function showStudentView(bytes, { host, board }) {
  document.body.dataset.view = "student";
  $("student").hidden = false;
  let name = "shared-set";
  let set = null;
  try {
    set = JSON.parse(decoder.decode(bytes));
    if (typeof set.name === "string" && set.name) name = set.name;
  } catch (_err) { /* the check below says what is wrong */ }
  const result = await host.check(`${name}.json`, bytes);
  if (!result.valid) {
    $("student-title").textContent = "This set cannot run on the wheel";
    $("student-why").textContent = result.lines.join("; ");
    return result;
  }
  $("student-title").textContent = set.title || set.name;
  $("student-description").textContent = set.description || "";
  $("student-melds").replaceChildren(...set.melds.map((meld) => {
    const item = document.createElement("li");
    item.textContent = `${meld.name} (${meld.id}), ${meld.kind}`;
    return item;
  }));
  $("student-edit").href = location.pathname + setHash(decoder.decode(bytes));
  await board.preview((flash) => {
    flash.set(`melds/${result.name}.cwm`, result.blob);
    const kind = KINDS.indexOf(set.melds[0].kind);       // opened at its first meld
    const settings = previewSettings(flash.get("settings.json"), result.name, kind, 0);
    flash.set("settings.json", encoder.encode(JSON.stringify(settings)));
  });
  document.body.dataset.preview = result.name;
  return result;
}
