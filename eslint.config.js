import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importCycles } from './scripts/eslint/import-cycles.js';
import { roomDoors } from './scripts/eslint/room-doors.js';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src-renderer/dist/**', 'test/e2e/screenshots/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly', Buffer: 'readonly', URL: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: "Only src-main/electron/ may import 'electron'." }] }],
    },
  },
  {
    files: ['src-main/**/*.ts', 'src-main/**/*.cts', 'plugins/**/*.ts', 'src-renderer/**/*.ts', 'src-renderer/**/*.tsx'],
    plugins: { junction: { rules: { 'room-doors': roomDoors, 'import-cycles': importCycles } } },
    rules: { 'junction/room-doors': 'error', 'junction/import-cycles': 'error' },
  },
  {
    files: ['src-main/electron/**', 'test/e2e/**'],
    rules: { 'no-restricted-imports': 'off' },
  },
);
