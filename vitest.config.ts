import { defineConfig } from 'vitest/config';

// One Vitest run, several projects: unit tests sit beside the code they test; the server's
// integration tests (real HTTP, real SQLite files in temp dirs) live in server/test.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'api',
          root: 'packages/api',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      'web/vite.config.ts',
      {
        test: {
          name: 'server-unit',
          root: 'server',
          include: ['src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server-integration',
          root: 'server',
          include: ['test/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // Each file starts its own servers; two cores, so two files at a time (one when
          // `npm test` runs this beside the end-to-end suite: IVORY_TEST_WORKERS). A project with
          // its own worker count needs its own group to run beside the others.
          maxWorkers: Number(process.env.IVORY_TEST_WORKERS ?? 2),
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
