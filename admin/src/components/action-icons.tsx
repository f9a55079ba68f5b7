import { Svg, type IconProps } from './icons';

// Icons of the lazy pages only, so the first load does not carry them.
export const IconDownload = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 17v2a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2v-2" />
    <path d="M7 11l5 5 5-5M12 4v12" />
  </Svg>
);
export const IconChecklist = (p: IconProps) => (
  <Svg {...p}>
    <path d="M9.615 20H7a2 2 0 0 1-2-2V6a2 2 0 0 1 2-2h8a2 2 0 0 1 2 2v8" />
    <path d="M14 19l2 2 4-4M9 8h4M9 12h2" />
  </Svg>
);
