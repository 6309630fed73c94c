// The studio's words and the set's JSON as text: pure functions (no page), unit-tested under
// Node (tests/js). The messages themselves are the command line's (core/meldset_compiler.py is
// the one source of truth); only their places are put in a teacher's words.

export const KINDS = ["interval", "chord", "scale"];        // core/meldset.py's order
const SET_KEYS = ["format", "version", "name", "title", "description", "melds"];

// The JSON source as the shipped sets write it: one meld a line.
export function formatSet(set) {
  if (set === null || typeof set !== "object" || Array.isArray(set) ||
      !Array.isArray(set.melds)) {
    return `${JSON.stringify(set, null, 2)}\n`;
  }
  const lines = ["{"];
  const keys = Object.keys(set);
  keys.forEach((key, i) => {
    const comma = i < keys.length - 1 ? "," : "";
    if (key !== "melds") {
      lines.push(`  ${JSON.stringify(key)}: ${JSON.stringify(set[key])}${comma}`);
      return;
    }
    lines.push('  "melds": [');
    set.melds.forEach((meld, j) => {
      const more = j < set.melds.length - 1 ? "," : "";
      lines.push(`    ${formatMeld(meld)}${more}`);
    });
    lines.push(`  ]${comma}`);
  });
  lines.push("}");
  return `${lines.join("\n")}\n`;
}

function formatMeld(meld) {
  if (meld === null || typeof meld !== "object" || Array.isArray(meld)) {
    return JSON.stringify(meld);
  }
  const parts = Object.keys(meld).map((key) => {
    const value = meld[key];
    const shown = Array.isArray(value)
      ? `[${value.map((v) => JSON.stringify(v)).join(", ")}]` : JSON.stringify(value);
    return `${JSON.stringify(key)}: ${shown}`;
  });
  return `{${parts.join(", ")}}`;
}

// A set's keys in the order the shipped sets write them, others after.
export function ordered(set) {
  const out = {};
  for (const key of SET_KEYS) if (key in set) out[key] = set[key];
  for (const key of Object.keys(set)) if (!(key in out)) out[key] = set[key];
  return out;
}

// "melds[4].degrees[2]" -> {meld: 4, field: "degrees", index: 2}; "name" -> {field: "name"}.
export function place(where) {
  const match = /^melds\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?$/.exec(where);
  if (match) {
    return { meld: Number(match[1]), field: match[2] || "meld",
             index: match[3] === undefined ? null : Number(match[3]) };
  }
  return { meld: null, field: where.split(/[.[]/)[0] || "set", index: null };
}

// The validator's places in a teacher's words, counting from 1: "melds[4].degrees[2]" ->
// "meld 5, degree 3"; the set's "name" is its file name.
const FIELD_WORDS = { id: "short name", name: "name", kind: "kind", degrees: "degrees" };
export function friendly(text) {
  return String(text)
    .replace(/melds\[(\d+)\](?:\.(\w+)(?:\[(\d+)\])?)?/g, (_all, i, field, j) => {
      let words = `meld ${Number(i) + 1}`;
      if (field === "degrees" && j !== undefined) words += `, degree ${Number(j) + 1}`;
      else if (field) words += `, ${FIELD_WORDS[field] || field}`;
      return words;
    })
    .replace(/^([^:]+\.json): name: /, "$1: file name: ");
}

// The field (an element id) a validator place belongs to, for the selected meld `selected`.
export function fieldOf(where, selected) {
  const at = place(where);
  if (at.meld !== null) {
    if (at.meld !== selected) return "meld-list";
    return { id: "meld-id", name: "meld-name", kind: "meld-kind", degrees: "editor-wheel" }[
      at.field] || "editor-wheel";
  }
  return { name: "set-name", title: "set-title", description: "set-description",
           melds: "meld-list" }[at.field] || "source";
}

// A title as a set's file name, in the characters and the length a set name may have
// (site.json "device": core/meldset.py's SET_NAME_CHARS and MAX_SET_NAME), "-" between words.
export function fileNameOf(title, { set_name_chars: chars, set_name_max: limit }) {
  let plain = "";
  for (const ch of String(title).normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()) {
    plain += chars.includes(ch) ? ch : "-";
  }
  plain = plain.replace(/-+/g, "-").replace(/^[-_]+/, "").slice(0, limit).replace(/[-_]+$/, "");
  return plain || "my-set";
}

// The degrees in a message said "degree 2", counting from 1.
export function degreesCounted(text) {
  return String(text).replace(/degrees\[(\d+)\]/g, (_, j) => `degree ${Number(j) + 1}`);
}
