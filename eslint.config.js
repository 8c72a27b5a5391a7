// Lint: size limits (files ~300 lines, functions ~60) and the import boundaries between layers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const layer = (folder, forbidden) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: forbidden.map((f) => ({
          group: [`**/${f}/*`, `**/${f}/**`, `../${f}/*`, `../../${f}/*`],
          message: `src/${folder} must not import src/${f} (see ARCHITECTURE.md: imports point downward).`,
        })),
      },
    ],
  },
});

const ALL = ['blocks', 'memfs', 'git', 'hooks', 'sync', 'worktree', 'sandbox', 'reflection', 'llm', 'read', 'search', 'conflicts', 'doctor', 'cli', 'mcp'];
const except = (...allowed) => ALL.filter((x) => !allowed.includes(x));

export default tseslint.config(
  { ignores: ['dist/**', 'dist-check/**', 'node_modules/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: Object.fromEntries(
        ['process', 'console', 'Buffer', 'URL', 'performance', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'TextDecoder', 'AbortController', 'fetch'].map((g) => [g, 'readonly']),
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
  layer('blocks', except('blocks')),
  layer('git', except('git')),
  layer('hooks', except('hooks', 'git', 'blocks')),
  layer('memfs', except('memfs', 'git', 'blocks', 'hooks')),
  layer('sandbox', except('sandbox')),
  layer('sync', except('sync', 'git', 'hooks', 'memfs', 'blocks')),
  layer('worktree', except('worktree', 'git', 'hooks', 'memfs', 'blocks', 'sandbox')),
  layer('llm', except('llm', 'sandbox')),
  layer('read', except('read', 'git', 'blocks', 'memfs', 'hooks')),
  // search reads git objects and memory files, and embeds through llm; nothing below imports it.
  layer('search', except('search', 'git', 'blocks', 'memfs', 'llm', 'sandbox')),
  // conflicts resolves kept branches (sync's and the workers') and proposes through llm; doctor checks everything.
  layer('conflicts', except('conflicts', 'git', 'hooks', 'memfs', 'blocks', 'sync', 'worktree', 'llm', 'sandbox')),
  layer('doctor', ['reflection', 'cli', 'mcp']),
  layer('reflection', ['cli', 'mcp']),
  layer('cli', except()),
  layer('mcp', except()),
);
