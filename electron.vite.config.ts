import { resolve } from 'node:path'
import vue from '@vitejs/plugin-vue'
import { defineConfig } from 'electron-vite'
import { serviceWorker } from './scripts/service-worker'

export default defineConfig({
  main: {
    // encoding-sniffer calls only whatwg-encoding's labelToName; the package's decode would bring iconv-lite, a third
    // of a megabyte every start loads and nothing calls (src/main/fetch/encoding-labels.ts).
    // @fastify/static calls glob only for `wildcard: false`, which the pages never ask: it loads when first called
    // (src/main/server/glob-on-first-use.ts). Both: docs/adr/0229-a-start-that-loads-what-it-answers-with.md.
    resolve: {
      alias: [
        { find: /^whatwg-encoding$/, replacement: resolve('src/main/fetch/encoding-labels.ts') },
        { find: /^glob$/, replacement: resolve('src/main/server/glob-on-first-use.ts') },
        // @fastify/rate-limit makes an ip-address Address6 only in its default key, which the sync endpoint replaces.
        { find: /^ip-address$/, replacement: resolve('src/main/server/ip-address-on-first-use.ts') },
      ],
    },
    build: {
      // Pure-JavaScript dependencies are bundled, tree-shaken, into the build: loading their hundreds of files
      // one by one was most of a start (docs/adr/0054-a-start-that-answers-first.md). Native modules (better-sqlite3),
      // pino (its worker transports load files by path) and whatever loads lazily (playwright-core) stay outside.
      externalizeDeps: {
        exclude: [
          'kysely',
          'zod',
          're2js',
          'cheerio',
          'encoding-sniffer',
          'jsonc-parser',
          'fastify',
          '@fastify/static',
          '@fastify/rate-limit',
          '@fastify/cookie',
          '@fastify/swagger',
          'fastify-type-provider-zod',
        ],
      },
      // The Electron shell, and the headless shell's entry: `npm run headless` runs the built JavaScript, so
      // its process is the app itself and the signals reach it (docs/adr/0032). The page reader's worker
      // thread is an entry of its own, out/main/read-worker.js (docs/adr/0040), and so is the import reader's,
      // out/main/import-worker.js (docs/adr/0080), and the big reads', out/main/big-read-worker.js (docs/adr/0093).
      rollupOptions: {
        // Fastify's Ajv and fast-json-stringify compilers load from node_modules when first used, which a start
        // never does (server/http.ts), and so does light-my-request (Fastify requires it for `inject` only)
        // (docs/adr/0229-a-start-that-loads-what-it-answers-with.md).
        external: ['@fastify/ajv-compiler', '@fastify/fast-json-stringify-compiler', 'light-my-request'],
        output: { comments: false },
        input: {
          index: resolve('src/main/electron/index.ts'),
          headless: resolve('src/main/headless/cli.ts'),
          'read-worker': resolve('src/main/sites/read-worker.ts'),
          'import-worker': resolve('src/main/library/import-worker.ts'),
          'big-read-worker': resolve('src/main/reads/big-read-worker.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      // CommonJS, so the window can stay sandboxed (an ESM preload needs sandbox: false).
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    // The Readers' page's service worker, its cache named after the build (docs/adr/0099).
    plugins: [vue(), serviceWorker(resolve('src/renderer/reader/service-worker.js'))],
    build: {
      minify: true,
      // The owner's window and the Readers' page, one build.
      rollupOptions: { input: { index: resolve('src/renderer/index.html'), reader: resolve('src/renderer/reader.html') } },
    },
  },
})
