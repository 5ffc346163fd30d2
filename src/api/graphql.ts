/**
 * The one graphql instance of the API. graphql 16 ships a CommonJS build (index.js) and an
 * ESM one (index.mjs) without an exports map: Node (and tsx) load the CommonJS build for a bare
 * `import 'graphql'` — as type-graphql, Apollo and graphql-query-complexity do — while Vite
 * (vitest) picks index.mjs for our sources. Two instances break every `instanceof` check
 * ("Cannot determine GraphQL output type", GraphQLErrors losing their codes), so src/api
 * imports graphql only through this file, pinned to the CommonJS entry.
 */
export * from 'graphql/index.js';
