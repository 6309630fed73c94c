// What `new meld` and `duplicate` add to a set: pure (no page), unit-tested under Node.
// `new meld` adds the first of these that the set lacks (a valid meld at once), chords or,
// after a scale, scales; a kind chosen for a new untouched meld picks that kind's first.

export const STARTERS = {
  chord: [["maj", "major triad", ["1", "3", "5"]], ["min", "minor triad", ["1", "b3", "5"]],
          ["7", "dominant seventh", ["1", "3", "5", "b7"]],
          ["maj7", "major seventh", ["1", "3", "5", "7"]],
          ["m7", "minor seventh", ["1", "b3", "5", "b7"]],
          ["dim", "diminished triad", ["1", "b3", "b5"]],
          ["aug", "augmented triad", ["1", "3", "#5"]],
          ["sus4", "suspended fourth", ["1", "4", "5"]],
          ["sus2", "suspended second", ["1", "2", "5"]],
          ["6", "major sixth", ["1", "3", "5", "6"]],
          ["m6", "minor sixth", ["1", "b3", "5", "6"]],
          ["dim7", "diminished seventh", ["1", "b3", "b5", "bb7"]],
          ["m7b5", "half-diminished seventh", ["1", "b3", "b5", "b7"]]],
  scale: [["major", "major scale", ["1", "2", "3", "4", "5", "6", "7"]],
          ["blues", "blues scale", ["1", "b3", "4", "b5", "5", "b7"]],
          ["minor", "natural minor scale", ["1", "2", "b3", "4", "5", "b6", "b7"]],
          ["pent", "major pentatonic", ["1", "2", "3", "5", "6"]],
          ["m-pent", "minor pentatonic", ["1", "b3", "4", "5", "b7"]],
          ["harm-min", "harmonic minor scale", ["1", "2", "b3", "4", "5", "b6", "7"]],
          ["dorian", "dorian mode", ["1", "2", "b3", "4", "5", "6", "b7"]],
          ["mixolydian", "mixolydian mode", ["1", "2", "3", "4", "5", "6", "b7"]]],
  interval: [["P5", "perfect fifth", ["1", "5"]], ["M3", "major third", ["1", "3"]],
             ["m3", "minor third", ["1", "b3"]], ["P4", "perfect fourth", ["1", "4"]],
             ["M2", "major second", ["1", "2"]], ["m7", "minor seventh", ["1", "b7"]]],
};

const plain = (degrees) => JSON.stringify((degrees || []).map((d) => String(d).replace(/[()]/g, "")));

// The first of the kind's starters whose shape, short name and name `melds` lack, or null.
export function starter(kind, melds) {
  const ids = new Set(melds.map((m) => String(m.id).toLowerCase()));
  const names = new Set(melds.map((m) => String(m.name).toLowerCase()));
  const shapes = new Set(melds.filter((m) => m.kind === kind).map((m) => plain(m.degrees)));
  for (const [id, name, degrees] of STARTERS[kind] || []) {
    if (!shapes.has(JSON.stringify(degrees)) && !ids.has(id.toLowerCase()) && !names.has(name)) {
      return { id, name, kind, degrees: degrees.slice() };
    }
  }
  return null;
}

// The meld `new meld` adds after `selected`: a starter, else "new meld N".
export function newMeld(melds, selected) {
  const kind = selected && selected.kind === "scale" ? "scale" : "chord";
  const meld = starter(kind, melds);
  if (meld) return meld;
  const ids = new Set(melds.map((m) => String(m.id)));
  const names = new Set(melds.map((m) => String(m.name).toLowerCase()));
  let n = 1;
  while (ids.has(`new${n}`) || names.has(`new meld ${n}`)) n += 1;
  return { id: `new${n}`, name: `new meld ${n}`, kind, degrees: ["1"] };
}

// A copy of `meld` with a short name and a name the set lacks ("maj-2", "major triad 2"),
// each within the validator's limits.
export function duplicateOf(meld, melds, limits) {
  const copy = JSON.parse(JSON.stringify(meld));
  const taken = (key, value) => melds.some(
    (m) => String(m[key]).toLowerCase() === String(value).toLowerCase());
  for (let n = 2; ; n++) {
    const id = `${String(meld.id).slice(0, limits.id - 2)}-${n}`;
    const name = `${String(meld.name).slice(0, limits.name - 4)} ${n}`;
    if (!taken("id", id) && !taken("name", name)) {
      copy.id = id;
      copy.name = name;
      return copy;
    }
  }
}

// A meld with the same degrees (optional or not) among `melds`, or -1.
export function sameShape(meld, melds) {
  return melds.findIndex((m) => m.kind === meld.kind && plain(m.degrees) === plain(meld.degrees));
}
