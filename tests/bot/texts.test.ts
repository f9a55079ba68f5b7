import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts file under a folder. */
const filesOf = (dir: string): string[] =>
  fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((d) =>
      d.isDirectory() ? filesOf(path.join(dir, d.name)) : d.name.endsWith('.ts') ? [path.join(dir, d.name)] : [],
    );

/** The string literals of a source file that hold Cyrillic, comments left out. */
function russianLiterals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
  return [...code.matchAll(/(['"`])(?:(?!\1)[^\\]|\\.)*?[А-Яа-яЁё](?:(?!\1)[^\\]|\\.)*?\1/g)].map((m) => m[0]);
}

describe('the bot’s text catalogue', () => {
  it('holds every Russian text the bot sends: no other file of the bot has one', () => {
    const outside = filesOf('bot')
      .filter((f) => !f.startsWith(path.join('bot', 'texts') + path.sep))
      .flatMap((f) => russianLiterals(fs.readFileSync(f, 'utf8')).map((t) => `${f}: ${t}`));
    expect(outside).toEqual([]);
    // The check finds what it looks for.
    expect(russianLiterals("// «Записаться»\nconst a = 'Записаться';")).toEqual(["'Записаться'"]);
  });
});
