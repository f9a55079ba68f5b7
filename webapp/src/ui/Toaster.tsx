import { useSyncExternalStore, type ComponentType } from 'react';

/*
 * Toasts: the list, and the place in App where they show. Only later screens toast, so the Snackbar
 * that draws them (toast.tsx) is not in the first load: importing toast() from toast.tsx registers it.
 */

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

export function addToast(t: Omit<Toast, 'id'>): number {
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

let View: ComponentType<{ toasts: Toast[] }> | null = null;

/** Set once by toast.tsx, before anything can call toast(). */
export function setToastView(view: ComponentType<{ toasts: Toast[] }>) {
  View = view;
}

export function Toaster() {
  const list = useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
  return View && list.length > 0 ? <View toasts={list} /> : null;
}
