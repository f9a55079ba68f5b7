import { createTheme } from '@mantine/core';

/** Teal main colour, white background, black text (spec §1). */
export const theme = createTheme({
  primaryColor: 'teal',
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif',
  headings: { fontWeight: '700' },
  components: {
    Modal: { defaultProps: { centered: true, radius: 'md' } },
    Card: { defaultProps: { withBorder: true, radius: 'md', shadow: 'xs' } },
  },
});
