// Module boundaries (Nx): apps may depend on libs, never on each other; libs of type "util"
// may not reach "feature" libs. Tags live in each project's project.json, and every tag value used
// there has a constraint below (scope:shared code runs in the browser and the sandbox too, so it
// may only use other shared code; scope:server may use server and shared code).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['**/node_modules', '**/dist', '**/.next', 'libs/db/src/generated', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:feature', 'type:data', 'type:util'] },
            { sourceTag: 'type:feature', onlyDependOnLibsWithTags: ['type:feature', 'type:data', 'type:util'] },
            { sourceTag: 'type:data', onlyDependOnLibsWithTags: ['type:data', 'type:util'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:server', 'scope:shared'] },
            { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:shared'] },
            { sourceTag: 'scope:sandbox', onlyDependOnLibsWithTags: ['scope:shared', 'scope:sandbox'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Configuration has one door: the validated schemas of libs/config (env.schema.ts for the
    // server, sandboxd-env.ts, tool-env.ts) and its hostEnv()/pickHostEnv() for environment that is
    // passed on to child processes. Tests and scripts outside apps/ and libs/ may set up their own.
    files: ['apps/**/*.ts', 'apps/**/*.tsx', 'libs/**/*.ts'],
    ignores: ['libs/config/**'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read settings through @h/config (add the variable to its schema and .env.example).' },
      ],
    },
  },
  {
    // The browser takes wire types from the contracts, type-only, so no server code or zod reaches
    // its bundle; the few runtime constants come from the contracts' zod-free files.
    files: ['apps/web/src/**/*.ts', 'apps/web/src/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: '@h/contracts', allowTypeImports: true, message: "Import types with `import type`; values from '@h/contracts/<file>' (zod-free files only)." }],
          patterns: [
            { group: ['@h/contracts/agent-events', '@h/contracts/workspace'], allowTypeImports: true, message: 'These files hold zod schemas or server interfaces: import their types only.' },
            { group: ['@h/*', '!@h/contracts', '!@h/contracts/*'], message: 'The web app depends on nothing of the server but the contracts.' },
          ],
        },
      ],
    },
  },
];
