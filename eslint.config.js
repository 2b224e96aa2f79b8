import js from '@eslint/js';
import boundaries from 'eslint-plugin-boundaries';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const processEnvRule = { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Read configuration through server/config.ts.' };
/** `x as unknown as T` hides a wrong type; server code types transactions with withTransaction (server/db/client.ts). */
const doubleCastRule = {
  selector: "TSAsExpression > TSAsExpression[typeAnnotation.type='TSUnknownKeyword']",
  message: 'No `as unknown as` in server/: type the value (withTransaction/DbExecutor for transactions, db.execute<Row> for raw SQL).',
};

/**
 * Module boundaries (issue 16, decision 019-l). Each client feature (app/features/<name>/) and server
 * module (server/modules/<name>/) is an element whose public entry is its index.ts. The `#client/*`,
 * `#server/*` and `#shared/*` subpath imports are resolved by eslint-import-resolver-typescript.
 */
const boundaryElements = [
  { type: 'feature', pattern: 'app/features/*', capture: ['name'] },
  { type: 'module', pattern: 'server/modules/*', capture: ['name'] },
  { type: 'admin-route', pattern: 'app/routes/admin' },
  { type: 'client-shared', pattern: 'app/(components|lib)' },
  { type: 'server-shared', pattern: 'server/(db|lib|plugins|adapters)' },
  { type: 'shared', pattern: 'shared' },
];
const notIndex = '!index.ts';
const boundaryPolicies = [
  {
    from: { element: { types: ['feature', 'admin-route', 'client-shared'] } },
    disallow: { to: { element: { types: 'feature', fileInternalPath: notIndex } } },
    message: 'Import another feature through its public entry, #client/features/{{to.element.captured.name}}/index.ts (decision 019-l).',
  },
  {
    from: { element: { types: ['module', 'server-shared'] } },
    disallow: { to: { element: { types: 'module', fileInternalPath: notIndex } } },
    message: 'Import another module through its public entry, #server/modules/{{to.element.captured.name}}/index.ts (decision 019-l).',
  },
  {
    from: { element: { types: 'module' } },
    disallow: { to: { element: { types: 'module' } }, dependency: { specifiers: 'create*Repository' } },
    message: "A module never builds another module's repository: call its service, or let app.ts pass the repository in (decision 019-l).",
  },
  {
    from: { element: { types: ['client-shared'] } },
    disallow: { to: { element: { types: ['feature', 'admin-route'] } } },
    message: 'app/components and app/lib are shared layers: they import no feature or route (decision 019-l).',
  },
  {
    from: { element: { types: ['feature', 'admin-route', 'client-shared'] } },
    disallow: { to: { element: { types: ['module', 'server-shared'] } } },
    message: 'The client imports nothing from server/: share code through shared/ (decision 019-l).',
  },
  {
    from: { element: { types: ['module', 'server-shared'] } },
    disallow: { to: { element: { types: ['feature', 'admin-route', 'client-shared'] } } },
    message: 'The server imports nothing from app/: share code through shared/ (decision 019-l).',
  },
  {
    from: { element: { types: 'shared' } },
    disallow: { dependency: { source: ['#client/**', '#server/**', '#tests/**'] } },
    message: 'shared/ is pure and used by both sides: it imports nothing from app/ or server/ (decision 019-l).',
  },
];

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', '.react-router/', 'data/', 'bench/.data/', 'test-results/', 'playwright-report/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-syntax': ['error', processEnvRule],
    },
  },
  {
    // Build tooling, scripts, tests and benchmarks may read the environment directly.
    files: ['server/config.ts', 'vite.config.ts', 'scripts/**', 'tests/**', 'bench/**', 'playwright.config.ts', 'playwright.scale.config.ts', 'eslint.config.js'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  { files: ['server/**/*.ts'], ignores: ['server/config.ts'], rules: { 'no-restricted-syntax': ['error', processEnvRule, doubleCastRule] } },
  { files: ['server/config.ts'], rules: { 'no-restricted-syntax': ['error', doubleCastRule] } },
  {
    files: ['app/**/*.{ts,tsx}', 'server/**/*.ts', 'shared/**/*.ts'],
    plugins: { boundaries },
    settings: {
      'import/resolver': { typescript: { project: './tsconfig.json' } },
      'boundaries/elements': boundaryElements,
    },
    rules: { 'boundaries/dependencies': ['error', { default: 'allow', policies: boundaryPolicies }] },
  },
  {
    files: ['app/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
);
