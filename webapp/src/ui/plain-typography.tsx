/**
 * Stand in for telegram-ui's Subheadline and Headline (vite.config.ts aliases them here): the same
 * text, but not an h6 / h5 unless a caller asks for one. The library renders a cell's subtitle or an
 * input's label as a heading, which breaks the page's heading order for screen readers.
 */
import { forwardRef, type ComponentProps } from 'react';
import { Subheadline as LibrarySubheadline } from '@telegram-apps/telegram-ui/dist/components/Typography/Subheadline/Subheadline.js';
import { Headline as LibraryHeadline } from '@telegram-apps/telegram-ui/dist/components/Typography/Headline/Headline.js';

export const Subheadline = forwardRef<HTMLElement, ComponentProps<typeof LibrarySubheadline>>((props, ref) => (
  <LibrarySubheadline ref={ref} Component="span" {...props} />
));
Subheadline.displayName = 'Subheadline';

export const Headline = (props: ComponentProps<typeof LibraryHeadline>) => (
  <LibraryHeadline Component="span" {...props} />
);
