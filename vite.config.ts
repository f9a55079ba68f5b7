import crypto from 'node:crypto';
import { transformSync } from 'esbuild';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { purgeUnusedTelegramUiCss } from './vite.purge-css.ts';

/** Writes .br and .gz beside every asset; the server sends them pre-compressed (no work per request). */
function precompress(): Plugin {
  return {
    name: 'precompress',
    apply: 'build',
    writeBundle(options, bundle) {
      for (const file of Object.keys(bundle).filter((f) => /\.(js|css|svg|json)$/.test(f))) {
        const full = path.join(options.dir!, file);
        const data = fs.readFileSync(full);
        fs.writeFileSync(`${full}.gz`, zlib.gzipSync(data, { level: 9 }));
        fs.writeFileSync(
          `${full}.br`,
          zlib.brotliCompressSync(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }),
        );
      }
    },
  };
}

/**
 * webapp/src/warm-intl.ts as a classic async script at the top of the mini-app's <head>, named by its
 * content (assets are cached as immutable): it runs while the bundle downloads, not after it.
 */
function warmIntl(): Plugin {
  const source = transformSync(fs.readFileSync('webapp/src/warm-intl.ts', 'utf8'), { loader: 'ts', minify: true }).code;
  const fileName = `assets/warm-intl-${crypto.createHash('sha256').update(source).digest('base64url').slice(0, 8)}.js`;
  return {
    name: 'warm-intl',
    apply: 'build',
    buildStart() {
      this.emitFile({ type: 'asset', fileName, source });
    },
    transformIndexHtml(html, ctx) {
      if (!ctx.filename.endsWith(path.join('webapp', 'index.html'))) return html;
      return [{ tag: 'script', attrs: { src: `/${fileName}`, async: true }, injectTo: 'head-prepend' }];
    },
  };
}

// Two HTML entries, one build: the mini-app (webapp/) and the staff admin (admin/).
// The server serves dist/webapp/index.html for /apply and /record/:id and
// dist/admin/index.html for every other non-API route; assets live in dist/assets.
// BUILD_ONLY=webapp|admin and BUILD_OUT=dir build one entry elsewhere (development only).
const entries = { webapp: 'webapp/index.html', admin: 'admin/index.html' };
const only = process.env.BUILD_ONLY as keyof typeof entries | undefined;

export default defineConfig({
  plugins: [react(), purgeUnusedTelegramUiCss(), warmIntl(), precompress()],
  resolve: {
    alias: [
      // telegram-ui's iOS spinner is three 20 KB SVG files; ours draws the same bars in a loop.
      { find: /^\.\/components\/IOSSpinner\/IOSSpinner$/, replacement: path.resolve('webapp/src/ui/ios-spinner.tsx') },
      // telegram-ui's own imports of Subheadline and Headline (h6 / h5 by default) get plain text instead.
      {
        find: /^(\.\.?\/)+(Typography\/)?(Subheadline\/Subheadline|Headline\/Headline)$/,
        replacement: path.resolve('webapp/src/ui/plain-typography.tsx'),
      },
    ],
  },
  build: {
    outDir: process.env.BUILD_OUT ?? 'dist',
    emptyOutDir: true,
    rollupOptions: { input: only ? { [only]: entries[only] } : entries },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8000', '/docs': 'http://127.0.0.1:8000' },
  },
});
