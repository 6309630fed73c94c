// Text on a coloured ground that reads: WCAG 2's relative luminance and contrast ratio, and
// black or white, whichever reads better on a colour (a lit LED's label). Pure, unit-tested.

function channel(v) {
  const c = v / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

export function luminance([r, g, b]) {
  return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
}

export function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// "#000" or "#fff" on `rgb`: the one with more contrast (at least 4.58:1 on any colour).
export function labelOn(rgb) {
  return contrast(rgb, [0, 0, 0]) >= contrast(rgb, [255, 255, 255]) ? "#000" : "#fff";
}
