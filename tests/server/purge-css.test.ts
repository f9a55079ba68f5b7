import { describe, expect, it } from 'vitest';
import { purge } from '../../vite.purge-css';

// The mini-app build leaves out telegram-ui's CSS for components no chunk uses (vite.purge-css.ts).
const USED = 'tgui-0123456789abcdef';
const UNUSED = 'tgui-fedcba9876543210';
const used = new Set([USED]);

describe('telegram-ui CSS purge', () => {
  it('keeps rules of used classes and plain rules, drops rules that need an unused class', () => {
    expect(purge(`.${USED}{color:red}.${UNUSED}{color:blue}body{margin:0}`, used)).toBe(
      `.${USED}{color:red}body{margin:0}`,
    );
  });

  it('keeps the selectors of a list that can match, and a rule whose unused class is only inside :not()', () => {
    expect(purge(`.${UNUSED} a,.${USED}>b{x:1}.${USED}:not(.${UNUSED}){y:2}`, used)).toBe(
      `.${USED}>b{x:1}.${USED}:not(.${UNUSED}){y:2}`,
    );
  });

  it('purges inside @media and drops an @media left empty; keyframes and variables stay', () => {
    const css = `@media (hover:hover){.${UNUSED}:hover{a:b}}@media (x){.${USED}{c:d}.${UNUSED}{e:f}}@keyframes k{0%{opacity:0}to{opacity:1}}:root{--tgui--bg_color:#fff}`;
    expect(purge(css, used)).toBe(
      `@media (x){.${USED}{c:d}}@keyframes k{0%{opacity:0}to{opacity:1}}:root{--tgui--bg_color:#fff}`,
    );
  });
});
