/** The schedule list's icons: apart from the others (icons.tsx), which only later screens load. */
import { stroke, svg, type P } from './svg';

export const IconChevron = ({ size = 20, className }: P) => svg(size, className, <path d="M9 6l6 6-6 6" {...stroke} />);
export const IconChef = ({ size = 72, className }: P) => (
  <svg width={size} height={size} viewBox="0 0 72 72" aria-hidden="true" className={className}>
    <circle cx="36" cy="36" r="36" fill="var(--app-accent-soft)" />
    <path
      d="M24 40c-4.4-.6-7-3.9-7-7.6 0-4.3 3.5-7.6 7.8-7.6.6 0 1.1 0 1.6.2C27.7 20.9 31.5 18 36 18s8.3 2.9 9.6 7c.5-.1 1-.2 1.6-.2 4.3 0 7.8 3.3 7.8 7.6 0 3.7-2.6 7-7 7.6V50H24V40z"
      fill="var(--app-accent)"
    />
    <rect x="24" y="52" width="24" height="5" rx="2.5" fill="var(--app-accent)" />
  </svg>
);
