import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Two HTML entries, one build: the mini-app (webapp/) and the staff admin (admin/).
// The server serves dist/webapp/index.html for /apply and /record/:id and
// dist/admin/index.html for every other non-API route; assets live in dist/assets.
// BUILD_ONLY=webapp|admin and BUILD_OUT=dir build one entry elsewhere (development only).
const entries = { webapp: 'webapp/index.html', admin: 'admin/index.html' };
const only = process.env.BUILD_ONLY as keyof typeof entries | undefined;

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: process.env.BUILD_OUT ?? 'dist',
    emptyOutDir: true,
    rollupOptions: { input: only ? { [only]: entries[only] } : entries },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8000', '/docs': 'http://127.0.0.1:8000' },
  },
});
