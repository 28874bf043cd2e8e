import { createRequire } from 'node:module';
import path from 'node:path';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { antdStaticStylePlugin } from './vite-plugins/antd-static-style-plugin.ts';
import { routePreloadPlugin } from './vite-plugins/route-preload-plugin.ts';

// react-router's package exports name only its development build (dev warnings on), whatever
// the mode: remix-run/react-router#14102. The production build sits beside it.
const reactRouterDist = path.join(
  path.dirname(createRequire(import.meta.url).resolve('react-router/package.json')),
  'dist',
  'production',
  'index.mjs',
);

export default defineConfig(({ command }) => ({
  plugins: [
    react(),
    antdStaticStylePlugin(),
    routePreloadPlugin(),
    // A .br and a .gz beside every text asset worth it; the server picks one by Accept-Encoding.
    compression({ algorithms: ['brotliCompress', 'gzip'], threshold: 1024 }),
  ],
  resolve: {
    alias: command === 'build' ? [{ find: /^react-router$/, replacement: reactRouterDist }] : [],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    chunkSizeWarningLimit: 2000,
    rolldownOptions: {
      treeshake: {
        // The ui/ barrels only re-export. Known free of side effects, a screen importing through
        // one imports the component's chunk itself: otherwise, when screens reach a component
        // both through its barrel and directly, the barrel gets a chunk of its own holding
        // nothing but an import of the component's chunk, one more request for those screens.
        moduleSideEffects: [
          { test: /[\\/]src[\\/]ui[\\/][\w-]+[\\/]index\.ts$/, sideEffects: false },
        ],
      },
      output: {
        // Fewer, larger chunks: a page load fetches its chunks over the six connections a
        // browser opens to the server, so every dozen small files costs a couple of round trips.
        codeSplitting: {
          groups: [
            // The node_modules code of the first paint, as one chunk beside the app's entry.
            { name: 'vendor', tags: ['$initial'], test: /[\\/]node_modules[\\/]/, priority: 2 },
            // The component library as one chunk per set of screens that share a piece of it;
            // pieces under 60 kB join the closest set.
            {
              name: 'antd',
              test: /[\\/]node_modules[\\/](antd|@ant-design|@rc-component|rc-[\w-]+)[\\/]/,
              entriesAware: true,
              entriesAwareMergeThreshold: 60_000,
              priority: 1,
            },
          ],
        },
        // Group chunks are named after every screen that loads them: keep the group name only.
        chunkFileNames: ({ name }) => `assets/${name.split('~')[0]}-[hash].js`,
      },
    },
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:4000',
      '/auth': 'http://127.0.0.1:4000',
      '/upload': 'http://127.0.0.1:4000',
      '/files': 'http://127.0.0.1:4000',
      '/runtime-config.js': 'http://127.0.0.1:4000',
    },
  },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'vite-plugins/**/*.test.ts'],
    setupFiles: ['src/test/setup.ts'],
    css: false,
    testTimeout: 20_000,
    // One jsdom and one module graph for every file of a worker, not a fresh one per file: the
    // suite took 191 s, 75 of them building jsdom environments, and takes 55 s so. Testing Library
    // unmounts each test's render, and src/test/setup.ts resets timers, mocks, storage, cookies
    // and the address after each file, so nothing of one file is left for the next (passes with
    // the files shuffled too).
    isolate: false,
  },
}));
