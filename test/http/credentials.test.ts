// The key precedence, Authorization beats x-api-key beats api_key (docs/decisions.md, "Plans and
// access"): as the credentials are read, as the key is picked, and over HTTP on a real front.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import {
  createKeyReader, keySpellings, pickKey, readCredentials, type CredentialSource,
} from '../../http/credentials.js';
import { bearer, get, startTestServer, type TestServer } from './helpers/harness.js';
import { keyFor } from './helpers/seed.js';

const [first, second, third] = [keyFor(1), keyFor(2), keyFor(3)];
const empty = () => ({ authorization: undefined, xApiKey: undefined, queryKey: undefined });

/** A request whose headers count their reads, as uWS's getHeader would cost them. */
function source(authorization: string | undefined, xApiKey: string | undefined) {
  const reads: string[] = [];
  const from: CredentialSource = {
    get authorization() { reads.push('authorization'); return authorization; },
    get xApiKey() { reads.push('xApiKey'); return xApiKey; },
  };
  return { from, reads };
}

const unit = suite('precedence');

unit('the order is Authorization, x-api-key, api_key', () => {
  assert.equal([...keySpellings], ['authorization', 'xApiKey', 'queryKey']);
});

unit('the first spelling sent wins, whatever the later ones hold', () => {
  const all = { authorization: `Bearer ${first}`, xApiKey: second, queryKey: third };
  assert.equal(pickKey(all), { kind: 'key', key: first, source: 'Authorization' });
  assert.equal(pickKey({ ...all, authorization: undefined }),
    { kind: 'key', key: second, source: 'x-api-key' });
  assert.equal(pickKey({ ...empty(), queryKey: third }),
    { kind: 'key', key: third, source: 'api_key' });
  assert.equal(pickKey(empty()), { kind: 'none' });
});

unit('an invalid first spelling is malformed and never falls back to a valid later one', () => {
  assert.is(pickKey({ authorization: `Basic ${first}`, xApiKey: second, queryKey: third }).kind,
    'malformed');
  assert.is(pickKey({ authorization: undefined, xApiKey: 'nope', queryKey: third }).kind,
    'malformed');
});

unit('reading stops at the first spelling sent: later headers are not read', () => {
  const withBearer = source(`Bearer ${first}`, second);
  assert.equal(readCredentials(withBearer.from, third, empty()),
    { authorization: `Bearer ${first}`, xApiKey: undefined, queryKey: undefined });
  assert.equal(withBearer.reads, ['authorization']);
  const withHeader = source(undefined, second);
  assert.equal(readCredentials(withHeader.from, third, empty()),
    { authorization: undefined, xApiKey: second, queryKey: undefined });
  const withQuery = source(undefined, undefined);
  assert.equal(readCredentials(withQuery.from, third, empty()),
    { authorization: undefined, xApiKey: undefined, queryKey: third });
});

unit('the memoizing reader keeps the precedence once a later spelling was seen', () => {
  const read = createKeyReader();
  assert.is(read({ ...empty(), xApiKey: second }).kind, 'key');
  const both = read({ ...empty(), authorization: `Bearer ${first}`, xApiKey: second });
  assert.is(both.kind === 'key' ? both.key : both.kind, first);
  const bad = read({ ...empty(), authorization: 'Bearer nope', xApiKey: second });
  assert.is(bad.kind, 'malformed');
});

unit.run();

let t: TestServer;
const http = suite('precedence over HTTP');
http.before(async () => {
  t = await startTestServer({ config: { keylessDailyLimit: 1_000 } });
});
http.after(() => t.close());
http.before.each(() => t.clock.advance(61_000));

// wallets needs Whale: which key was used shows in 200 against 403.
const wallets = '/api/v1/wallets';

http('Authorization beats x-api-key and api_key', async () => {
  const whaleFirst = await get(t.url + `${wallets}?api_key=${t.keyOf.Free}`,
    { ...bearer(t.keyOf.Whale), 'x-api-key': t.keyOf.Free });
  assert.is(whaleFirst.status, 200);
  const freeFirst = await get(t.url + `${wallets}?api_key=${t.keyOf.Whale}`,
    { ...bearer(t.keyOf.Free), 'x-api-key': t.keyOf.Whale });
  assert.is(freeFirst.status, 403);
  assert.is(freeFirst.json.plan, 'Free');
});

http('x-api-key beats api_key', async () => {
  assert.is((await get(t.url + `${wallets}?api_key=${t.keyOf.Free}`,
    { 'x-api-key': t.keyOf.Whale })).status, 200);
  const free = await get(t.url + `${wallets}?api_key=${t.keyOf.Whale}`,
    { 'x-api-key': t.keyOf.Free });
  assert.is(free.status, 403);
  assert.is(free.json.plan, 'Free');
});

http('an invalid Authorization is 401 even beside a valid x-api-key', async () => {
  const r = await get(t.url + wallets, { authorization: 'Basic x', 'x-api-key': t.keyOf.Whale });
  assert.is(r.status, 401);
  assert.is(r.json.code, 'invalid_key');
});

http.run();
