// Lint: size limits (files ~300 lines, functions ~60) and the import boundaries between layers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// The composition root and the front door: a layer takes what they decide (runners, identities, settings)
// as parameters. Only the adapters (cli, mcp), tests and a process's own entry file (`*-main.ts`) import them.
const ROOT_FILES = ['memory', 'config', 'config-types', 'index', 'internals'];
const rootFilePatterns = (folder) => ({
  group: ROOT_FILES.flatMap((f) => [`../${f}.js`, `../../${f}.js`, `../../../${f}.js`]),
  message: `src/${folder} must not import the composition root, the config or the front door (memory.ts and wiring/ pass what it needs).`,
});

const restrict = (folder, forbidden, roots) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: [
        ...forbidden.map((f) => ({
          // A scoped package's subpath (`@anthropic-ai/sdk/tools/…`) is not one of our folders.
          group: [`**/${f}/*`, `**/${f}/**`, `../${f}/*`, `../../${f}/*`, '!@*/**'],
          message: `src/${folder} must not import src/${f} (see ARCHITECTURE.md: imports point downward).`,
        })),
        ...(roots ? [rootFilePatterns(folder)] : []),
      ],
    },
  ],
});

// The layers that use gitmem as a harness does: through the front door (index.ts, memory.ts) only.
const FRONT_DOOR_USERS = ['cli', 'mcp', 'palace', 'adapters', 'harness'];

// Every file of a layer keeps the downward rule; its non-test, non-entry files also stay off the root.
const layer = (folder, forbidden) => [
  { files: [`src/${folder}/**/*.ts`], rules: restrict(folder, forbidden, false) },
  ...(FRONT_DOOR_USERS.includes(folder)
    ? []
    : [
        {
          files: [`src/${folder}/**/*.ts`],
          ignores: ['src/**/*.test.ts', 'src/**/*-main.ts'],
          rules: restrict(folder, forbidden, true),
        },
      ]),
];

const ALL = [
  'blocks',
  'memfs',
  'git',
  'hooks',
  'sync',
  'worktree',
  'sandbox',
  'reflection',
  'llm',
  'read',
  'search',
  'conflicts',
  'doctor',
  'wiring',
  'tools',
  'cli',
  'mcp',
  'palace',
  'adapters',
  'harness',
];
const except = (...allowed) => ALL.filter((x) => !allowed.includes(x));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-check/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: Object.fromEntries(
        [
          'process',
          'console',
          'Buffer',
          'URL',
          'performance',
          'setTimeout',
          'clearTimeout',
          'setInterval',
          'clearInterval',
          'TextDecoder',
          'AbortController',
          'fetch',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: {
      'max-lines': ['error', { max: 320, skipBlankLines: true, skipComments: true }],
      'max-lines-per-function': ['error', { max: 60, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['test/**/*.ts', 'src/**/*.test.ts', 'bench/**'],
    rules: { 'max-lines-per-function': 'off', 'max-lines': ['error', { max: 600 }] },
  },
  ...layer('blocks', except('blocks')),
  ...layer('git', except('git')),
  ...layer('hooks', except('hooks', 'git', 'blocks')),
  ...layer('memfs', except('memfs', 'git', 'blocks', 'hooks')),
  ...layer('sandbox', except('sandbox')),
  ...layer('sync', except('sync', 'git', 'hooks', 'memfs', 'blocks')),
  ...layer('worktree', except('worktree', 'git', 'hooks', 'memfs', 'blocks', 'sandbox')),
  ...layer('llm', except('llm', 'sandbox')),
  ...layer('read', except('read', 'git', 'blocks', 'memfs', 'hooks')),
  // search reads git objects and memory files, and embeds through llm; nothing below imports it.
  ...layer('search', except('search', 'git', 'blocks', 'memfs', 'llm', 'sandbox')),
  // conflicts resolves kept branches (sync's and the workers') and proposes through llm; doctor checks everything.
  ...layer('conflicts', except('conflicts', 'git', 'hooks', 'memfs', 'blocks', 'sync', 'worktree', 'llm', 'sandbox')),
  ...layer('doctor', ['reflection', 'cli', 'mcp', 'wiring', 'palace', 'adapters', 'tools']),
  ...layer('reflection', ['cli', 'mcp', 'wiring', 'palace', 'adapters', 'conflicts', 'doctor', 'tools']),
  // The tool catalogue: what every surface (MCP, AI SDK, CLI) shows a model, as data over the layers' own limits.
  ...layer('tools', except('tools', 'blocks', 'git', 'memfs', 'search')),
  // harness adapters (gitmem/anthropic, gitmem/ai-sdk): the Memory handle plus pure building blocks; nothing imports them.
  ...layer('adapters', ['cli', 'mcp', 'palace', 'git', 'hooks', 'worktree', 'sandbox', 'wiring']),
  // The CLI may start the palace; the palace, like the CLI and MCP, uses the public API only (index.ts, memory.ts).
  ...layer('cli', except('palace', 'harness', 'tools')),
  // gitmem connect / disconnect: edits harness settings files; a front-door user like the CLI, which runs it.
  ...layer('harness', except()),
  ...layer('mcp', except()),
  ...layer('palace', except('palace')),
  {
    // The palace's page runs in the browser: its globals, and no Node built-ins.
    files: ['src/palace/web/**/*.ts'],
    languageOptions: {
      globals: Object.fromEntries(
        [
          'window',
          'document',
          'EventSource',
          'MessageEvent',
          'Event',
          'MouseEvent',
          'HTMLElement',
          'HTMLInputElement',
          'HTMLSelectElement',
          'HTMLTextAreaElement',
          'Response',
          'URLSearchParams',
        ].map((g) => [g, 'readonly']),
      ),
    },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'the palace page runs in a browser' },
            { group: ['../../*'], message: 'the page imports only src/palace/api-types.ts and tree-index.ts' },
          ],
        },
      ],
    },
  },
);
