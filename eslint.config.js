import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      'test-results/**',
      'playwright-report/**',
      '.ivory-data/**',
      'packages/api/src/gen/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
    },
  },
  {
    // Calls to the platform go through typed-call.ts (call, callOrNull, stream, collect), keyed by
    // method name, so a request that does not match its generated type fails the typecheck.
    files: ['web/src/**/*.{ts,tsx}', 'packages/api/src/**/*.ts'],
    ignores: ['packages/api/src/client.ts', 'packages/api/src/typed-call.ts', '**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.property.name=/^(unary|unaryOrNull|collect|stream)$/][arguments.1.type='Literal']",
          message:
            "An untyped platform call: use call/callOrNull/stream/collect from typed-call.ts with the method's 'service/Method' name.",
        },
      ],
    },
  },
);
