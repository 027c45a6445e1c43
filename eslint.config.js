// Lint: typescript-eslint's recommended rules plus the dependency rules of docs/architecture.md.
import tseslint from 'typescript-eslint';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'http', 'https', 'net', 'crypto', 'child_process', 'worker_threads', 'url', 'util', 'stream', 'zlib'];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'release/**', 'test-results/**', 'playwright-report/**', 'bench/data/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      'max-lines': ['warn', { max: 400, skipBlankLines: true, skipComments: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
    },
  },
  {
    // Tests may poke at loosely typed JSON responses.
    files: ['**/*.test.ts', 'e2e/**/*.ts', 'electron/test-support/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    files: ['shared/**/*.ts'],
    ignores: ['shared/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: ['electron', 'react', 'react-dom'].map((name) => ({ name, message: 'shared/ holds contracts only: zod and itself.' })),
        patterns: [
          { group: nodeBuiltins, message: 'shared/ runs in the browser too: no Node built-ins.' },
          { group: ['**/electron/**', '**/renderer/**'], message: 'shared/ must not import electron/ or renderer/.' },
        ],
      }],
    },
  },
  {
    files: ['electron/agent/**/*.ts', 'electron/api/**/*.ts', 'electron/host/**/*.ts', 'electron/serve.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The agent core and API run headless: only electron/main and electron/preload import Electron.' }],
        patterns: [{ group: ['**/renderer/**', '**/main/**', '**/preload/**'], message: 'Headless code must not reach into the shell or the console.' }],
      }],
    },
  },
  {
    files: ['electron/api/**/*.ts'],
    ignores: ['electron/api/**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The API runs headless.' }],
        patterns: [{ group: ['**/agent/*/**', '!**/agent/index.js'], message: 'The API talks to the agent through electron/agent/index.ts only.' }],
      }],
    },
  },
  {
    files: ['renderer/**/*.ts', 'renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        paths: [{ name: 'electron', message: 'The console reaches the agent only through renderer/src/api.' }],
        patterns: [
          { group: nodeBuiltins, message: 'The console runs in a browser: no Node built-ins.' },
          { group: ['**/electron/**'], message: 'The console imports shared/ and itself only.' },
        ],
      }],
    },
  },
);
