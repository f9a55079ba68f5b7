/** Small inline icons (no icon font, nothing to download); the schedule list's own are in schedule-icons.tsx. */
import { stroke, svg, type P } from './svg';
import '../later.css';

export const IconCheck = ({ size = 24, className }: P) =>
  svg(
    size,
    className,
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" className="icon-fill-success" />
      <path d="M7.5 12.5l3 3 6-6.5" stroke="#fff" strokeWidth={2.2} strokeLinecap="round" strokeLinejoin="round" />
    </>,
  );
export const IconError = ({ size = 24, className }: P) =>
  svg(
    size,
    className,
    <>
      <circle cx="12" cy="12" r="10" fill="currentColor" className="icon-fill-error" />
      <path d="M12 7v6M12 16.5v.5" stroke="#fff" strokeWidth={2.2} strokeLinecap="round" />
    </>,
  );
export const IconCalendar = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <rect x="3.5" y="5" width="17" height="15.5" rx="3" {...stroke} />
      <path d="M3.5 10h17M8 3v4M16 3v4" {...stroke} />
    </>,
  );
export const IconPin = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <path d="M12 21s-7-6.2-7-11.5A7 7 0 0 1 19 9.5C19 14.8 12 21 12 21z" {...stroke} />
      <circle cx="12" cy="9.5" r="2.5" {...stroke} />
    </>,
  );
export const IconPeople = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <circle cx="9" cy="8" r="3.5" {...stroke} />
      <path
        d="M2.5 20c.6-3.6 3.2-5.5 6.5-5.5s5.9 1.9 6.5 5.5M16 4.8a3.5 3.5 0 0 1 0 6.5M18.5 14.8c1.7.7 2.8 2.4 3 5.2"
        {...stroke}
      />
    </>,
  );
export const IconUser = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <circle cx="12" cy="8" r="4" {...stroke} />
      <path d="M4 20.5c.8-4 3.9-6 8-6s7.2 2 8 6" {...stroke} />
    </>,
  );
export const IconAllergy = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <path d="M12 3l8.5 15a1.5 1.5 0 0 1-1.3 2.2H4.8a1.5 1.5 0 0 1-1.3-2.2L12 3z" {...stroke} />
      <path d="M12 9.5v4.5M12 17v.3" {...stroke} />
    </>,
  );
export const IconComment = ({ size = 22, className }: P) =>
  svg(size, className, <path d="M4 5.5h16v10H9l-5 4v-14z" {...stroke} />);
export const IconWallet = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <rect x="3" y="6" width="18" height="13" rx="3" {...stroke} />
      <path d="M16 12.5h2M3 9.5h18" {...stroke} />
    </>,
  );
export const IconClock = ({ size = 22, className }: P) =>
  svg(
    size,
    className,
    <>
      <circle cx="12" cy="12" r="9" {...stroke} />
      <path d="M12 7v5l3 2" {...stroke} />
    </>,
  );
export const IconMinus = ({ size = 22, className }: P) => svg(size, className, <path d="M6 12h12" {...stroke} />);
export const IconPlus = ({ size = 22, className }: P) =>
  svg(size, className, <path d="M12 6v12M6 12h12" {...stroke} />);
