"""The studio's meld-card editor, run by the page's second MicroPython: a meld's degrees on a
wheel of 12 sectors (semitones above the root, the root at the top), as the cardboard meld
card draws them.

A sector is off, required or optional. A marked sector holds one degree of docs/music.md's
vocabulary that sounds that many semitones above the root; where several do (b3 and #9, b5 and
#11, 6 and bb7 and 13), the editor picks the one the letter rule needs (no two degrees share
a letter where the meld can avoid it), offers the others in place, and keeps the one the user
picks. The root's sector holds the required 1; the octave, 8, shares it and is switched on its
own. Names are spelled from a root by core/spelling.py, as the display spells them.

edit() answers JSON for the page (host_worker.js): the meld's new degrees (as the JSON source
writes them, low to high) and what each sector shows."""

import json

from core import degrees
from core.notes import format_note
from core.parse import DegreeError, NoteError, parse_degree, parse_note
from core.spelling import spell

SECTORS = 12
ONE = degrees.encode(1, 0)
OCTAVE = degrees.encode(8, 0)


def _code(text):
    return parse_degree(text)


def _candidates():
    """Each sector's degrees (codes) in the vocabulary, the root's sector holding only 1."""
    table = [[] for _ in range(SECTORS)]
    for text in degrees.VOCABULARY:
        code = _code(text)
        if code == OCTAVE:
            continue
        table[degrees.semitones(code) % 12].append(code)
    return table


CANDIDATES = _candidates()


def _pref(texts):
    return [_code(t) for t in texts]


def preferences(kind, marked):
    """Each sector's degrees from most to least usual for a meld of this kind with these
    sectors marked (the letter rule comes first; these break its ties)."""
    third = 3 in marked or 4 in marked
    seventh = 10 in marked or 11 in marked
    if kind == "chord":
        extended = third or seventh
        order = {
            1: ("b9", "b2") if extended else ("b2", "b9"),
            2: ("9", "2") if extended else ("2", "9"),          # add9 and 9, but sus2
            3: ("b3", "#9", "#2"),
            5: ("11", "4") if third else ("4", "11"),           # sus4 and 7sus4, but 11
            6: ("b5", "#11", "#4"),
            8: ("#5", "b6"),                                    # aug, but 7(b13) as b6
            9: (("13", "6", "bb7") if seventh else
                ("bb7", "6", "13") if 3 in marked and 6 in marked and 7 not in marked else
                ("6", "13", "bb7")),
        }
    elif kind == "interval":
        order = {1: ("b2", "b9"), 2: ("2", "9"), 3: ("b3", "#2", "#9"), 5: ("4", "11"),
                 6: ("#4", "b5", "#11"), 8: ("b6", "#5"), 9: ("6", "bb7", "13")}
    else:                                                       # scales, and no kind yet
        order = {1: ("b2", "b9"), 2: ("2", "9"), 3: ("b3", "#2", "#9"), 5: ("4", "11"),
                 6: ("b5", "#4", "#11"), 8: ("#5", "b6"), 9: ("6", "bb7", "13")}
    table = []
    for sector in range(SECTORS):
        table.append(_pref(order[sector]) if sector in order else list(CANDIDATES[sector]))
    return table


def _letter(code):
    return (degrees.number(code) - 1) % 7


def _cost(chosen):
    """How many degrees share their letter with another one; how many of those share it with
    an unaltered one (b2 beside #2 reads better than b3 beside 3); the letters left out (a
    high one rather than a low one: C D E F♯ G♯ B♭, not C D E G♭ A♭ B♭)."""
    seen = {}
    plain = {}
    for code in chosen:
        letter = _letter(code)
        seen[letter] = seen.get(letter, 0) + 1
        if not degrees.alter(code):
            plain[letter] = plain.get(letter, 0) + 1
    shared = 0
    beside_plain = 0
    for code in chosen:
        letter = _letter(code)
        if seen[letter] > 1:
            shared += 1
            if degrees.alter(code) and plain.get(letter):
                beside_plain += 1
    left_out = 0
    for letter in range(7):
        if letter not in seen:
            left_out += 7 - letter
    return shared, beside_plain, left_out


def letter_rule(kind, marked, fixed):
    """{sector: code} for every marked sector: `fixed` ({sector: code}) kept, the others given
    the degrees that share the fewest letters, then the most usual ones for the kind."""
    prefs = preferences(kind, marked)
    free = [s for s in sorted(marked) if s not in fixed]
    best = None
    best_choice = None
    # At most 7 sectors have a choice (2 or 3 degrees): at most 432 ways, tried them all.
    choice = [0] * len(free)
    while True:
        chosen = dict(fixed)
        rank = 0
        for k in range(len(free)):
            chosen[free[k]] = prefs[free[k]][choice[k]]
            rank += choice[k]
        shared, beside_plain, left_out = _cost(list(chosen.values()))
        key = (shared, beside_plain, rank, left_out)
        if best is None or key < best:
            best = key
            best_choice = chosen
        k = 0
        while k < len(free):
            choice[k] += 1
            if choice[k] < len(prefs[free[k]]):
                break
            choice[k] = 0
            k += 1
        if k == len(free):
            break
    return best_choice


class NotOnTheWheel(ValueError):
    """Degrees the wheel cannot show (the JSON view can): the reason."""


def read(texts):
    """The wheel's view of a degree list: ({sector: (code, optional)}, octave) or
    NotOnTheWheel."""
    if not isinstance(texts, list):
        raise NotOnTheWheel("the degrees are not a list")
    sectors = {}
    octave = None
    for j in range(len(texts)):
        text = texts[j]
        if not isinstance(text, str):
            raise NotOnTheWheel("degrees[%d] is not text" % j)
        optional = len(text) > 2 and text[0] == "(" and text[-1] == ")"
        try:
            code = _code(text[1:-1] if optional else text)
        except DegreeError as err:
            raise NotOnTheWheel("degrees[%d]: %s" % (j, err)) from None
        if code == OCTAVE:
            if octave is not None:
                raise NotOnTheWheel("degrees[%d]: a second 8" % j)
            octave = optional
            continue
        sector = degrees.semitones(code) % 12
        if sector in sectors:
            raise NotOnTheWheel("degrees[%d] %r sounds as %r: one sector holds one degree" % (
                j, text, degrees.to_text(sectors[sector][0])))
        sectors[sector] = (code, optional)
    if 0 not in sectors or sectors[0][0] != ONE:
        raise NotOnTheWheel("no 1 for the root")
    return sectors, octave


def read_what_it_can(texts):
    """The degrees of a list read() refuses that the card can still place, for a view that
    shows the meld while it cannot be edited: ({sector: (code, optional)}, octave); a degree
    that does not read, or sounds in a sector taken by an earlier one, is left out."""
    sectors = {}
    octave = None
    for text in texts if isinstance(texts, list) else []:
        if not isinstance(text, str):
            continue
        optional = len(text) > 2 and text[0] == "(" and text[-1] == ")"
        try:
            code = _code(text[1:-1] if optional else text)
        except DegreeError:
            continue
        if code == OCTAVE:
            if octave is None:
                octave = optional
            continue
        sector = degrees.semitones(code) % 12
        if sector not in sectors:
            sectors[sector] = (code, optional)
    return sectors, octave


def write(sectors, octave):
    """The degree list for the JSON source: low to high, optional ones in parentheses."""
    items = [(code, optional) for code, optional in sectors.values()]
    if octave is not None:
        items.append((OCTAVE, octave))
    items.sort(key=lambda item: degrees.semitones(item[0]))
    out = []
    for code, optional in items:
        text = degrees.to_text(code)
        out.append("(" + text + ")" if optional else text)
    return out


def _next_state(state, kind, sector):
    if sector == 0:
        return "required"                      # the root stays required
    if state == "off":
        return "required"
    if state == "required" and kind == "chord":
        return "optional"                      # only chords have optional degrees
    return "off"


def _unicode_degree(code):
    return format_note((0, degrees.alter(code)), True)[1:] + str(degrees.number(code))


def _root(text):
    try:
        return parse_note(text)
    except NoteError:
        return (0, 0)


def _tap(sector, kind, sectors, auto):
    """A tap on `sector`: off -> required -> optional (chords) -> off; the root stays
    required. True when the meld changed."""
    state = "off"
    if sector in sectors:
        state = "optional" if sectors[sector][1] else "required"
    if sector == 0:
        if sectors[0][1]:
            sectors[0] = (ONE, False)
            return True
        return False
    after = _next_state(state, kind, sector)
    if after == state:
        return False
    if after == "off":
        del sectors[sector]
        auto.discard(sector)
    else:
        if sector not in sectors:
            auto.add(sector)
            sectors[sector] = (CANDIDATES[sector][0], False)
        sectors[sector] = (sectors[sector][0], after == "optional")
    return True


def _pick(text, sectors, auto):
    """A sector's alternative picked (kept from now on). True when the meld changed."""
    code = _code(text)
    sector = degrees.semitones(code) % 12
    if sector not in sectors or code == OCTAVE:
        return False
    auto.discard(sector)                        # the user's pick is kept from now on
    if sectors[sector][0] == code:
        return False
    sectors[sector] = (code, sectors[sector][1])
    return True


def _respell(kind, sectors, auto):
    """The letter rule's sectors spelled again for what is marked now. True when one
    changed."""
    if not auto:
        return False
    fixed = dict((s, sectors[s][0]) for s in sectors if s not in auto)
    spelled = letter_rule(kind, set(sectors), fixed)
    changed = False
    for sector in auto:
        if sectors[sector][0] != spelled[sector]:
            sectors[sector] = (spelled[sector], sectors[sector][1])
            changed = True
    return changed


def _auto(request, kind, sectors):
    """The sectors the letter rule spells. A meld the editor has not seen (from a file or a
    link: "auto" null): those its degrees spell as the rule would (b3 becomes #9 when a 3 is
    tapped beside it); the others were someone's pick, kept."""
    if request.get("auto") is None:
        ruled = letter_rule(kind, set(sectors), {})
        auto = set(s for s in sectors if sectors[s][0] == ruled[s])
    else:
        auto = set(request["auto"]) & set(sectors)
    auto.discard(0)
    return auto


def _octave_name(octave):
    return None if octave is None else ("optional" if octave else "required")


def edit(request_json):
    """request: {"kind", "degrees", "auto": [sectors spelled by the editor] (null for a meld
    the editor has not seen), "root": a note name to spell from, "action": null, {"tap":
    sector}, {"degree": text} (a sector's alternative picked) or {"octave": true/false}}.

    answer: {"degrees", "notes" (each degree spelled from the root, as the display spells
    it), "auto", "changed", "editable", "why", "octave": null/"required"/"optional",
    "sectors": [{"sector", "state", "degree", "label", "note", "alternatives":
    [{"degree", "label", "note"}]}]}."""
    request = json.loads(request_json)
    kind = request.get("kind")
    texts = request.get("degrees")
    root = _root(request.get("root") or "C")
    action = request.get("action") or {}
    answer = {"degrees": texts, "auto": sorted(request.get("auto") or []), "changed": False,
              "editable": True, "why": None, "octave": None, "sectors": []}
    try:
        sectors, octave = read(texts)
    except NotOnTheWheel as err:
        # Not editable (a tap would rewrite the list and lose what the card cannot hold), but
        # shown: the positions it can read stay on the card while the JSON is put right.
        answer["editable"] = False
        answer["why"] = str(err)
        sectors, octave = read_what_it_can(texts)
        answer["octave"] = _octave_name(octave)
        answer["sectors"] = _views(sectors, root, kind)
        return json.dumps(answer)
    auto = _auto(request, kind, sectors)
    changed = False
    if "tap" in action:
        changed = _tap(int(action["tap"]) % SECTORS, kind, sectors, auto)
    elif "degree" in action:
        changed = _pick(action["degree"], sectors, auto)
    elif "octave" in action and bool(action["octave"]) != (octave is not None):
        octave = False if action["octave"] else None
        changed = True
    changed = _respell(kind, sectors, auto) or changed
    new_texts = write(sectors, octave)
    notes = []
    for text in new_texts:
        name = format_note(spell(root, _code(text.strip("()"))), True)
        notes.append("(" + name + ")" if text[0] == "(" else name)
    answer.update(degrees=new_texts, changed=changed or new_texts != texts, auto=sorted(auto),
                  octave=_octave_name(octave), notes=notes, sectors=_views(sectors, root, kind))
    return json.dumps(answer)


def _views(sectors, root, kind):
    """What each of the 12 sectors shows for {sector: (code, optional)} spelled from root (an
    unused one by the kind's most usual degree there)."""
    usual = preferences(kind, set(sectors))
    views = []
    for sector in range(SECTORS):
        item = {"sector": sector, "state": "off", "degree": None, "label": None, "note": None,
                "alternatives": []}
        if sector not in sectors:
            # An unused circle names its note too (as a tap would first spell it), so a
            # teacher finds F without counting semitones.
            item["note"] = format_note(spell(root, usual[sector][0]), True)
        else:
            code, optional = sectors[sector]
            item["state"] = "optional" if optional else "required"
            item["degree"] = degrees.to_text(code)
            item["label"] = _unicode_degree(code)
            item["note"] = format_note(spell(root, code), True)
            others = CANDIDATES[sector]
            at = others.index(code)
            for k in range(1, len(others)):     # the next one first: a chip cycles them all
                other = others[(at + k) % len(others)]
                item["alternatives"].append({
                    "degree": degrees.to_text(other), "label": _unicode_degree(other),
                    "note": format_note(spell(root, other), True)})
        views.append(item)
    return views
