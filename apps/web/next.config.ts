import path from 'node:path';
import type { NextConfig } from 'next';
// The Nest-free entry of the config library (mapped in this app's tsconfig).
import { toolEnv } from '@h/config/tool-env';

// The monorepo has one node_modules at its root: trace and resolve from there.
const repoRoot = path.join(__dirname, '..', '..');

const nextConfig: NextConfig = {
  output: 'standalone',
  outputFileTracingRoot: repoRoot,
  turbopack: { root: repoRoot },
  poweredByHeader: false,
  reactStrictMode: true,
  // In production the api serves this app and /api/* on one origin, so no rewrite exists. For
  // `next dev` without that proxy, set API_INTERNAL_URL (e.g. http://127.0.0.1:3000) to forward
  // /api/* to a running api. Rewrites are read at build time.
  async rewrites() {
    const apiUrl = toolEnv().API_INTERNAL_URL?.replace(/\/+$/, '');
    return apiUrl ? [{ source: '/api/:path*', destination: `${apiUrl}/api/:path*` }] : [];
  },
};

export default nextConfig;
