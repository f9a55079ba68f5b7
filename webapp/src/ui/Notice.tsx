import type { ReactNode } from 'react';

/** A coloured notice card: info (teal), warning (amber), danger (red), muted (grey). */
export function Notice({
  tone,
  title,
  children,
  icon,
}: {
  tone: 'info' | 'warning' | 'danger' | 'muted';
  title: ReactNode;
  children?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className={`notice notice--${tone}`} role={tone === 'danger' || tone === 'warning' ? 'alert' : 'status'}>
      {icon && <div className="notice__icon">{icon}</div>}
      <div className="notice__body">
        <div className="notice__title">{title}</div>
        {children && <div className="notice__text">{children}</div>}
      </div>
    </div>
  );
}
