import path from 'node:path';
import type { NextConfig } from 'next';
import type { ToolEnv } from '@h/config/tool-env';

// The monorepo has one node_modules at its root: trace and resolve from there.
const repoRoot = path.join(__dirname, '..', '..');

// The environment goes through the config library like everywhere else. Next compiles this file
// on its own and resolves its relative imports from the working directory (not this file), so the
// library is required by absolute path while Next's TypeScript hook is active.
const { toolEnv } = require(path.join(repoRoot, 'libs/config/src/tool-env.ts')) as { toolEnv: () => ToolEnv };

const nextConfig: NextConfig = {
  output: 'standalone',
  outputFileTracingRoot: repoRoot,
  turbopack: { root: repoRoot },
  poweredByHeader: false,
  reactStrictMode: true,
  // In production the api serves this app and /api/* on one origin, so no rewrite exists. For
  // `next dev` without that proxy, set API_INTERNAL_URL (e.g. http://127.0.0.1:3000) to forward
  // /api/* (and h2c's /health and /v1/task*) to a running api. Rewrites are read at build time.
  async rewrites() {
    const apiUrl = toolEnv().API_INTERNAL_URL?.replace(/\/+$/, '');
    if (!apiUrl) return [];
    return [
      { source: '/api/:path*', destination: `${apiUrl}/api/:path*` },
      { source: '/health', destination: `${apiUrl}/health` },
      { source: '/v1/task', destination: `${apiUrl}/v1/task` },
      { source: '/v1/task/:path*', destination: `${apiUrl}/v1/task/:path*` },
    ];
  },
};

export default nextConfig;
