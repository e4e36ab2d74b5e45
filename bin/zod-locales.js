// Stands in for zod's index of its ~50 error-message locales in the service's bundle
// (bin/orderflow.js): zod reaches it only through `z.locales`, which nothing here calls, and
// its messages stay English (zod configures `en` itself). The rest were ~30 % of the MCP
// module's bytes, compiled on the main thread while the shards warm up.
export { default as en } from 'zod/v4/locales/en.js';
