// The peer: the pair endpoint written the obvious way with fastify. Each request checks the
// Bearer key (SHA-256 digest lookup, as the service stores keys) and builds its JSON with
// JSON.stringify from in-memory objects. Run as a child: `node --import tsx fastify-peer.ts
// SEED_FILE KEY_DIGEST_HEX`; prints `peer listening on http://...`.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [seedFile, keyDigest] = process.argv.slice(2);
if (!seedFile || !/^[0-9a-f]{64}$/.test(keyDigest ?? '')) {
  process.stderr.write('usage: fastify-peer.ts SEED_FILE KEY_DIGEST_HEX\n');
  process.exit(2);
}
const pairs = new Map<string, Record<string, unknown>>(
  Object.entries(JSON.parse(readFileSync(seedFile, 'utf8')) as Record<string, never>));
const digests = new Set([keyDigest]);

const app = Fastify({ logger: false });
app.get<{ Params: { symbol: string } }>('/api/v1/pair/:symbol', async (request, reply) => {
  const header = request.headers.authorization ?? '';
  const key = header.startsWith('Bearer ') ? header.slice(7) : '';
  if (!digests.has(createHash('sha256').update(key).digest('hex'))) {
    return reply.code(401).send({ code: 'invalid_key' });
  }
  const pair = pairs.get(request.params.symbol);
  if (!pair) return reply.code(404).send({ code: 'unknown_symbol' });
  // Serialized per request from the in-memory object, as a straightforward service would.
  reply.header('content-type', 'application/json');
  return JSON.stringify(pair);
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`peer listening on ${address}\n`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
