import { createTheme } from '@mantine/core';

/** Teal main colour, white background, black text. The darkest teal shade is the primary one: white
 * text on it and teal text on white reach WCAG AA contrast (4.5:1), which Mantine's default shade does not. */
export const theme = createTheme({
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
