/**
 * Stands in for telegram-ui's iOS spinner (vite.config.ts aliases it here): the same eight fading
 * bars, drawn in a loop instead of three 20 KB SVG files, which were ~5 KB gzip of the first load.
 */
const SIZES = { s: 24, m: 32, l: 44 } as const;

export const IOSSpinner = ({ size }: { size: keyof typeof SIZES }) => {
  const px = SIZES[size] ?? SIZES.s;
  return (
    <svg width={px} height={px} viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
      {Array.from({ length: 8 }, (_, i) => (
        <rect key={i} x="11" y="1.5" width="2" height="6" rx="1" opacity="0.15" transform={`rotate(${i * 45} 12 12)`}>
          <animate
            attributeName="opacity"
            values="1;0.15"
            dur="0.8s"
            begin={`${(i - 8) * 0.1}s`}
            repeatCount="indefinite"
          />
        </rect>
      ))}
    </svg>
  );
};
