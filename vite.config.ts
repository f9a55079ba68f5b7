import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Two HTML entries, one build: the mini-app (webapp/) and the staff admin (admin/).
// The server serves dist/webapp/index.html for /apply and /record/:id and
// dist/admin/index.html for every other non-API route; assets live in dist/assets.
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    rollupOptions: {
      input: { webapp: 'webapp/index.html', admin: 'admin/index.html' },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8000', '/docs': 'http://127.0.0.1:8000' },
  },
});
