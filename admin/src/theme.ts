import {
  createTheme,
  defaultVariantColorsResolver,
  parseThemeColor,
  type CSSVariablesResolver,
  type VariantColorsResolver,
} from '@mantine/core';

/** Teal main colour, white background, black text. The darkest teal shade is the primary one: white
 * text on it and teal text on white reach WCAG AA contrast (4.5:1), which Mantine's default shade does not. */
/** Light colours too pale for text on white or on their own tint. */
const PALE = new Set(['yellow', 'orange', 'lime']);

/**
 * Text of light, outline and subtle variants (menu items, badges, secondary buttons) in the darkest
 * shade of its colour (or near-black for pale ones): Mantine's default shade 6 fails AA contrast.
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (!['light', 'outline', 'subtle'].includes(input.variant)) return colors;
  const parsed = parseThemeColor({ color: input.color ?? input.theme.primaryColor, theme: input.theme });
  if (!parsed.isThemeColor) return colors;
  const text = PALE.has(parsed.color) ? 'var(--mantine-color-gray-9)' : `var(--mantine-color-${parsed.color}-9)`;
  const base = parsed.color;
  return {
    ...colors,
    color: text,
    // Shade 0 behind the text (Mantine's shade 1 leaves teal 9 at 4.3:1); on hover shade 1 with the
    // text darkened a quarter towards black, so a hovered button keeps AA contrast too.
    ...(input.variant === 'light' && {
      background: `var(--mantine-color-${base}-0)`,
      hover: `var(--mantine-color-${base}-1)`,
      hoverColor: `color-mix(in srgb, ${text}, black 25%)`,
    }),
    ...(input.variant === 'outline' && !PALE.has(parsed.color) && { border: `1px solid ${text}` }),
  };
};

/** "dimmed" text (hints, secondary lines) one shade darker than Mantine's: 4.5:1 on white and on gray.0. */
export const cssVariables: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});

export const theme = createTheme({
  variantColorResolver,
  primaryColor: 'teal',
  primaryShade: { light: 9, dark: 8 },
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Modal: { defaultProps: { centered: true, radius: 'md' } },
    Card: { defaultProps: { withBorder: true, radius: 'md', shadow: 'xs' } },
    // Badge texts are shown as written in the spec ('Участники 3/8'), not upper-cased.
    Badge: { defaultProps: { tt: 'none' } },
  },
});
