// Prisma 7 reads the datasource URL from here, not from schema.prisma. The CLI runs offline through
// `npm run prisma -- ...` (prisma/engine/prisma-cli.mjs), which swaps the native schema engine for
// Prisma's Wasm build; see prisma/README.md.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: {
    url: process.env.DATABASE_URL ?? 'postgresql://root@127.0.0.1:5432/h',
    // Unset on purpose: the offline engine creates and drops a throw-away shadow database itself.
    shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL || undefined,
  },
});
