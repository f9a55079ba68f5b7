/**
 * Telegram's theme colours are not all readable: iOS's hint grey #8e8e93 on white is 3.3:1, a
 * link blue on its own tint 3.1:1, white on the dark theme's button blue 3.5:1. WCAG 2.1 AA asks
 * for 4.5:1 for text, so before the theme is applied each text colour is moved towards black (on
 * light backgrounds) or white (on dark ones) just as far as it takes, keeping its hue; the
 * button colour likewise against the button text. Colours that already pass are left alone.
 */

type Rgb = [number, number, number];
const TARGET = 4.6; // a little above 4.5: browsers round differently

const parse = (hex: string): Rgb | null => {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const n = parseInt(m[1], 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};
const hex = (c: Rgb) => `#${c.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')}`;
const mix = (a: Rgb, b: Rgb, t: number): Rgb => [0, 1, 2].map((i) => a[i] + (b[i] - a[i]) * t) as Rgb;

function luminance([r, g, b]: Rgb): number {
  const ch = (v: number) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(b);
}

export function contrast(a: string, b: string): number {
  const [x, y] = [parse(a), parse(b)];
  if (!x || !y) return 21;
  const [l1, l2] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (l1 + 0.05) / (l2 + 0.05);
}

/**
 * `fg` moved away from the backgrounds until it reads on each of them, including its own tint
 * over each (how tinted chips and bezeled buttons draw it).
 */
export function readableOn(fg: string, backgrounds: string[], tint = 0): string {
  const start = parse(fg);
  const bgs = backgrounds.map(parse).filter((c): c is Rgb => c !== null);
  if (!start || bgs.length === 0) return fg;
  const darkBackground = bgs.reduce((s, c) => s + luminance(c), 0) / bgs.length < 0.18;
  const goal: Rgb = darkBackground ? [255, 255, 255] : [0, 0, 0];
  const worst = (c: Rgb) =>
    Math.min(
      ...bgs.flatMap((bg) => {
        const plain = contrast(hex(c), hex(bg));
        return tint > 0 ? [plain, contrast(hex(c), hex(mix(bg, c, tint)))] : [plain];
      }),
    );
  for (let t = 0; t <= 1.0001; t += 0.04) {
    const c = mix(start, goal, t);
    if (worst(c) >= TARGET) return t === 0 ? fg : hex(c);
  }
  return hex(goal);
}

const TEXT_KEYS = [
  'text_color',
  'hint_color',
  'subtitle_text_color',
  'section_header_text_color',
  'link_color',
  'accent_text_color',
  'destructive_text_color',
] as const;
/** Drawn on their own tint too (chips, bezeled buttons, notices). */
const TINTED = new Set<string>(['link_color', 'accent_text_color', 'destructive_text_color']);

/** The theme with every text colour (and the button) readable; unknown or malformed keys kept as they are. */
export function readableTheme(tp: Record<string, string>): Record<string, string> {
  const out = { ...tp };
  const backgrounds = [tp.bg_color, tp.secondary_bg_color, tp.section_bg_color].filter(
    (c): c is string => typeof c === 'string',
  );
  for (const key of TEXT_KEYS) {
    if (typeof tp[key] === 'string') out[key] = readableOn(tp[key], backgrounds, TINTED.has(key) ? 0.16 : 0);
  }
  if (typeof tp.button_color === 'string' && typeof tp.button_text_color === 'string')
    out.button_color = readableOn(tp.button_color, [tp.button_text_color]);
  return out;
}
