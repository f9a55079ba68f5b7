import { useSyncExternalStore } from 'react';
import { Snackbar } from '@telegram-apps/telegram-ui';
import { IconCheck, IconError } from './icons';

export interface Toast {
  id: number;
  kind: 'success' | 'error';
  title: string;
  description?: string;
}

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((fn) => fn());

export function toast(t: Omit<Toast, 'id'>): number {
  const id = nextId++;
  // One at a time, like Telegram: a new toast replaces the previous one.
  toasts = [{ ...t, id }];
  emit();
  return id;
}

export function dismissToast(id: number) {
  toasts = toasts.filter((t) => t.id !== id);
  emit();
}

/** Tests: forget every toast. */
export function clearToasts() {
  toasts = [];
  emit();
}

const subscribe = (fn: () => void) => {
  listeners.add(fn);
  return () => listeners.delete(fn);
};

export function Toaster() {
  const list = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return (
    <>
      {list.map((t) => (
        <Snackbar
          key={t.id}
          className={`toast toast--${t.kind}`}
          role={t.kind === 'error' ? 'alert' : 'status'}
          aria-live={t.kind === 'error' ? 'assertive' : 'polite'}
          before={t.kind === 'error' ? <IconError /> : <IconCheck />}
          description={t.description}
          duration={t.kind === 'error' ? 6000 : 3500}
          onClose={() => dismissToast(t.id)}
        >
          {t.title}
        </Snackbar>
      ))}
    </>
  );
}
