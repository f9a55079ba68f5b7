import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';

/*
 * The folders form a one-way graph: contract ← db ← core ← {server, bot} ← main (server/main.ts,
 * platform/ and scripts/, the only places that wire real things). The front ends import only contract/.
 * Each entry: the files, and the folders (or packages) they must not import.
 */
const FOLDER_GRAPH = [
  { files: ['contract/**'], folders: ['db', 'core', 'server', 'bot', 'platform', 'webapp', 'admin'], packages: [] },
  { files: ['db/**'], folders: ['core', 'server', 'bot', 'platform', 'webapp', 'admin'], packages: [] },
  // The domain knows neither the HTTP server nor the Telegram library.
  {
    files: ['core/**'],
    folders: ['server', 'bot', 'platform', 'webapp', 'admin'],
    packages: ['fastify', '@fastify/*', 'grammy', '@grammyjs/*'],
  },
  {
    files: ['server/**'],
    ignores: ['server/main.ts'],
    folders: ['bot', 'platform', 'webapp', 'admin'],
    packages: ['grammy', '@grammyjs/*'],
  },
  { files: ['bot/**'], folders: ['server', 'platform', 'webapp', 'admin'], packages: ['fastify', '@fastify/*'] },
  // The platform wires whole studios (like server/main.ts wires one): it may use every folder but the pages.
  { files: ['platform/**'], folders: ['webapp', 'admin'], packages: [] },
  { files: ['webapp/**', 'admin/**'], folders: ['db', 'core', 'server', 'bot', 'platform'], packages: [] },
];

/*
 * Route handlers and bot handlers translate to and from core commands: they may read repositories for
 * views, never call one that writes (a write is a function named for it: insert…, update…, delete…, …).
 */
const ADAPTER_HANDLERS = ['server/routes/**', 'bot/features/**', 'bot/conversations/**'];
const WRITE_IMPORT = {
  group: ['**/db/repositories/*'],
  importNamePattern:
    '^(insert|update|delete|set|save|upsert|enqueue|write|record|consume|claim|extend|release|take|close|mark|anonymi[sz]e|erase|clear|prune|purge|add|remove|subscribe|unsubscribe|unlink|bump|revoke)',
  message: 'Handlers call core commands for changes; only reads of db/repositories may be imported here.',
};

const folderRules = FOLDER_GRAPH.flatMap(({ files, ignores, folders, packages }) => {
  const patterns = [
    ...folders.map((f) => ({
      // A relative path that climbs to the top-level folder: `../core/x`, `../../server`.
      regex: `^(\\.\\./)+${f}(/|$)`,
      message: `The folder graph is contract ← db ← core ← {server, bot} ← {main, platform}; this folder must not import ${f}/.`,
    })),
    ...packages.map((p) => ({
      group: [p, `${p}/**`],
      allowTypeImports: p === 'grammy' && files[0] === 'server/**',
      message: `This layer must not depend on ${p}.`,
    })),
  ];
  const rule = (extra) => ({ rules: { 'no-restricted-imports': ['error', { patterns: [...patterns, ...extra] }] } });
  const handlers = ADAPTER_HANDLERS.filter((h) => h.startsWith(files[0].split('/')[0] + '/'));
  // A later entry wins for the files it matches, so the handlers' entry repeats the folder's patterns.
  return [
    { files, ...(ignores && { ignores }), ...rule([]) },
    ...(handlers.length > 0 ? [{ files: handlers, ...rule([WRITE_IMPORT]) }] : []),
  ];
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-*/**', 'node_modules/**', 'data/**', 'test-results/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.browser },
      parserOptions: {
        projectService: { allowDefaultProject: ['*.js', 'scripts/*.js'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
      // A promise nobody awaits loses its error; a promise where a callback's result is ignored is a bug.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },
  {
    // Migrations see the schema of their own time, not today's: Kysely<any> is their type.
    files: ['db/migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  ...folderRules,
  {
    // The front ends follow the Rules of React (hooks and the compiler's checks).
    files: ['webapp/**/*.{ts,tsx}', 'admin/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
  },
);
