import { defineConfig } from 'prisma/config';

// The app applies migrations itself (src/catalog/migrate.ts); this file lets Prisma's own
// CLI (generate, and migrate where its engine is available) find the same schema and folder.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://localhost:5432/graft' },
});
