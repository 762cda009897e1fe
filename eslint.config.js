// Type-aware lint for every workspace. The rules that matter most here are the
// promise rules: a floating promise in ingest or command dispatch loses data silently.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { readdirSync } from 'node:fs';

// Web features: one folder each under apps/web/src/features; a feature never imports another
// one (what two features share lives in src/lib or src/components). The folder list is read
// here, so a new feature is covered without touching this file.
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Import paths that reach feature `other` from a file anywhere inside another feature. */
function featureImportPatterns(other) {
  const relative = [1, 2, 3, 4, 5].flatMap((depth) => {
    const up = '../'.repeat(depth);
    return [`${up}${other}`, `${up}${other}/**`];
  });
  return [...relative, `**/features/${other}`, `**/features/${other}/**`];
}

const featureBoundaries = WEB_FEATURES.map((feature) => ({
  files: [`apps/web/src/features/${feature}/**/*.{ts,tsx}`],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: WEB_FEATURES.filter((other) => other !== feature).flatMap(featureImportPatterns),
            message: `A feature does not import another feature: move what both use to src/lib (non-UI) or src/components (shared UI).`,
          },
        ],
      },
    ],
  },
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      globals: { ...globals.node },
      parserOptions: { projectService: { allowDefaultProject: ['vitest.config.ts', 'playwright.config.ts'] }, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    // Tests read JSON answers whose shape the assertions themselves check.
    files: ['**/*.test.ts', '**/*.test.tsx', '**/test/**/*.ts', 'tests/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    // Web: every user-visible text is an i18n key, so no literal words in JSX text or in
    // the attributes people read (title, placeholder, label, alt, aria-label).
    files: ['apps/web/src/**/*.tsx'],
    ignores: ['apps/web/src/**/*.test.tsx', 'apps/web/src/test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXText[value=/[A-Za-z\\u00C0-\\u024F\\u0400-\\u04FF\\u4E00-\\u9FFF]/]',
          message: 'Literal text in JSX: use t() with a key in every language.',
        },
        {
          selector:
            'JSXAttribute[name.name=/^(title|placeholder|label|alt|aria-label|okText|cancelText|content|description|subTitle|tooltip)$/] > Literal[value=/[A-Za-z\\u00C0-\\u024F\\u0400-\\u04FF\\u4E00-\\u9FFF]/]',
          message: 'Literal text in a user-visible attribute: use t() with a key in every language.',
        },
      ],
    },
  },
  ...featureBoundaries,
);
