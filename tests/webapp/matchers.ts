/** The few DOM matchers these tests use (the project has no jest-dom). */
import { expect } from 'vitest';

const text = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ');

expect.extend({
  toBeInTheDocument(received: Element | null) {
    const pass = Boolean(received && received.ownerDocument?.contains(received));
    return { pass, message: () => `expected element ${pass ? 'not ' : ''}to be in the document` };
  },
  toHaveTextContent(received: Element, expected: string | RegExp) {
    const t = text(received);
    const pass = typeof expected === 'string' ? t.includes(expected.replace(/\s+/g, ' ')) : expected.test(t);
    return { pass, message: () => `expected "${t}" ${pass ? 'not ' : ''}to contain ${String(expected)}` };
  },
  toBeDisabled(received: Element) {
    const pass = (received as HTMLButtonElement).disabled === true || received.getAttribute('aria-disabled') === 'true';
    return { pass, message: () => `expected element ${pass ? 'not ' : ''}to be disabled` };
  },
  toHaveAttribute(received: Element, name: string, value?: string) {
    const actual = received.getAttribute(name);
    const pass = value === undefined ? actual !== null : actual === value;
    return { pass, message: () => `expected attribute ${name}=${actual} ${pass ? 'not ' : ''}to be ${value}` };
  },
  toHaveValue(received: HTMLInputElement, value: string) {
    const pass = received.value === value;
    return { pass, message: () => `expected value "${received.value}" ${pass ? 'not ' : ''}to be "${value}"` };
  },
});

declare module 'vitest' {
  interface Assertion {
    toBeInTheDocument(): void;
    toHaveTextContent(expected: string | RegExp): void;
    toBeDisabled(): void;
    toHaveAttribute(name: string, value?: string): void;
    toHaveValue(value: string): void;
  }
}
