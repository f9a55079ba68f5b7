import crypto from 'node:crypto';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * Drops telegram-ui's CSS for components the bundle never uses. telegram-ui ships one stylesheet
 * for all of its ~50 components (~11 KB gzip, most of the mini-app's CSS); its class names are
 * hashed (`tgui-` and 16 hex digits) and appear in a component's JavaScript as string literals, so a
 * rule whose selector needs a class that no emitted chunk mentions can never match and is left out.
 * Keyframes, font faces and rules without such classes are kept as they are.
 */
/** Global, so only with matchAll (it starts from a copy at lastIndex 0; never call test/exec on it). */
const CLASS = /tgui-[0-9a-f]{16}/g;

export function purgeUnusedTelegramUiCss(): Plugin {
  return {
    name: 'purge-unused-telegram-ui-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const used = new Set<string>();
      for (const out of Object.values(bundle))
        if (out.type === 'chunk') for (const m of out.code.matchAll(CLASS)) used.add(m[0]);
      const renamed = new Map<string, string>();
      for (const out of Object.values(bundle)) {
        if (out.type !== 'asset' || !out.fileName.endsWith('.css')) continue;
        const css = typeof out.source === 'string' ? out.source : new TextDecoder().decode(out.source);
        // Only a page's own stylesheet: a chunk's code cannot be changed here to name a renamed file.
        const base = path.basename(out.fileName);
        const inChunk = Object.values(bundle).some((c) => c.type === 'chunk' && c.code.includes(base));
        if (inChunk || [...css.matchAll(CLASS)].length === 0) continue;
        const source = purge(css, used);
        if (source === css) continue;
        // The name's hash must follow the new content: assets are cached for a year as immutable.
        const hash = crypto.createHash('sha256').update(source).digest('base64url').slice(0, 8);
        const fileName = out.fileName.replace(/-[\w-]{8}\.css$/, `-${hash}.css`);
        renamed.set(base, path.basename(fileName));
        delete bundle[out.fileName];
        this.emitFile({ type: 'asset', fileName, source });
      }
      // The pages that name a renamed stylesheet name the new file.
      const rename = (text: string) => [...renamed].reduce((t, [from, to]) => t.replaceAll(from, to), text);
      for (const out of Object.values(bundle))
        if (out.type === 'asset' && out.fileName.endsWith('.html') && typeof out.source === 'string')
          out.source = rename(out.source);
    },
  };
}

/** Whether a selector can match: every hashed class it requires (outside :not()) is used somewhere. */
function canMatch(selector: string, used: Set<string>): boolean {
  const required = selector.replace(/:not\((?:[^()]|\([^()]*\))*\)/g, '');
  return [...required.matchAll(CLASS)].every((m) => used.has(m[0]));
}

/** Index of the brace closing the block opened at `open`, skipping strings. */
function closing(css: string, open: number): number {
  let depth = 0;
  for (let i = open; i < css.length; i++) {
    const c = css[i];
    if (c === '"' || c === "'") {
      const end = css.indexOf(c, i + 1);
      i = end < 0 ? css.length : end;
    } else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return css.length;
}

/** Splits a selector list on its top-level commas (not those inside :is(), :not(), …). */
function selectors(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    if (list[i] === '(') depth++;
    else if (list[i] === ')') depth--;
    else if (list[i] === ',' && depth === 0) {
      out.push(list.slice(start, i));
      start = i + 1;
    }
  }
  out.push(list.slice(start));
  return out;
}

export function purge(css: string, used: Set<string>): string {
  let out = '';
  let i = 0;
  while (i < css.length) {
    const open = css.indexOf('{', i);
    if (open < 0) {
      out += css.slice(i);
      break;
    }
    let prelude = css.slice(i, open);
    // Statements before the block (@charset, @import, …) stay.
    const semi = prelude.lastIndexOf(';');
    if (semi >= 0) {
      out += prelude.slice(0, semi + 1);
      prelude = prelude.slice(semi + 1);
    }
    const close = closing(css, open);
    const body = css.slice(open + 1, close);
    const head = prelude.trim();
    if (/^@(media|supports|layer|container)\b/.test(head)) {
      const inner = purge(body, used);
      if (inner.trim()) out += `${prelude}{${inner}}`;
    } else if (head.startsWith('@')) {
      out += `${prelude}{${body}}`;
    } else {
      const kept = selectors(prelude).filter((s) => canMatch(s, used));
      if (kept.length > 0) out += `${kept.join(',')}{${body}}`;
    }
    i = close + 1;
  }
  return out;
}
