// SSRF refusals: private, loopback and link-local targets in IPv4 and IPv6 forms, names that
// resolve to them (a faked resolver), and the https rule; public targets pass.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { refusedAddressReason } from '../../actors/webhooks/address.js';
import { checkWebhookUrl, type LookupFn } from '../../actors/webhooks/url-check.js';

const dns: Record<string, string[]> = {
  'hooks.example.test': ['93.184.216.34'],
  'rebind.example.test': ['127.0.0.1'],
  'mixed.example.test': ['93.184.216.34', '10.0.0.7'],
  'six.example.test': ['2606:4700::1111'],
  'six-local.example.test': ['::1'],
  localhost: ['127.0.0.1'],
};
const lookups: string[] = [];
const fakeLookup: LookupFn = async (host) => {
  lookups.push(host);
  const addresses = dns[host];
  if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const strict = { allowPrivate: false, lookup: fakeLookup };

test('refused address ranges, IPv4', () => {
  for (const a of ['127.0.0.1', '127.255.0.9', '10.1.2.3', '172.16.0.1', '172.31.255.255',
    '192.168.1.1', '169.254.169.254', '100.64.0.1', '100.127.255.255', '0.0.0.0', '224.0.0.1',
    '255.255.255.255']) {
    assert.ok(refusedAddressReason(a), a);
  }
  for (const a of ['93.184.216.34', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1',
    '100.63.255.255', '11.0.0.1']) {
    assert.is(refusedAddressReason(a), null, a);
  }
});

test('refused address ranges, IPv6 forms', () => {
  const refused: Record<string, RegExp> = {
    '::1': /loopback/, '::': /unspecified/, '::ffff:127.0.0.1': /loopback.*mapped/,
    '::ffff:7f00:1': /loopback.*mapped/, '::ffff:10.0.0.1': /private/, '::127.0.0.1': /loopback/,
    'fe80::1': /link-local/, 'febf::1': /link-local/, 'fc00::1': /unique local/,
    'fdff:ffff::1': /unique local/, '64:ff9b::a9fe:a9fe': /link-local.*NAT64/,
    '2002:c0a8:0101::1': /private.*6to4/, 'ff02::1': /multicast/, 'fe80::1%eth0': /not an IP/,
  };
  for (const [a, why] of Object.entries(refused)) {
    assert.match(refusedAddressReason(a) ?? 'null', why, a);
  }
  for (const a of ['2606:4700::1111', '::ffff:93.184.216.34', '2a00:1450::1', 'fbff::1']) {
    assert.is(refusedAddressReason(a), null, a);
  }
});

test('URL shape: https only, no credentials, no fragment, bounded length', async () => {
  for (const url of ['http://93.184.216.34/h', 'ftp://93.184.216.34/', 'not a url', '',
    'https://user:pw@93.184.216.34/', 'https://93.184.216.34/#x',
    'https://93.184.216.34/' + 'a'.repeat(2100)]) {
    const r = await checkWebhookUrl(url, strict);
    assert.not.ok(r.ok, url);
    if (!r.ok) assert.is(r.error.code, 'invalid_url', url);
  }
  const r = await checkWebhookUrl('http://93.184.216.34/h', strict);
  if (!r.ok) assert.match(r.error.message, /https.*was "http:\/\/93\.184\.216\.34\/h"/);
});

test('loopback, private and link-local targets are refused, literal or by name', async () => {
  for (const url of ['https://127.0.0.1/h', 'https://localhost/h', 'https://api.localhost/h',
    'https://[::1]/h', 'https://[::ffff:127.0.0.1]/h', 'https://[fe80::1]/h',
    'https://[fc00::5]/h', 'https://169.254.169.254/latest', 'https://10.0.0.1/',
    'https://172.16.5.4/', 'https://192.168.0.10/', 'https://100.64.1.1/', 'https://0.0.0.0/',
    'https://2130706433/', 'https://0x7f.0.0.1/', 'https://rebind.example.test/h',
    'https://mixed.example.test/h', 'https://six-local.example.test/h']) {
    const r = await checkWebhookUrl(url, strict);
    assert.not.ok(r.ok, url);
    if (!r.ok) assert.is(r.error.code, 'url_refused', url);
  }
  const r = await checkWebhookUrl('https://rebind.example.test/h', strict);
  if (!r.ok) assert.match(r.error.message, /resolves to 127\.0\.0\.1 \(loopback\)/);
  assert.ok(lookups.includes('rebind.example.test'));
});

test('names that do not resolve are refused with the cause', async () => {
  const r = await checkWebhookUrl('https://nowhere.example.test/h', strict);
  assert.not.ok(r.ok);
  if (!r.ok) {
    assert.is(r.error.code, 'unresolvable');
    assert.match(r.error.message, /ENOTFOUND/);
  }
});

test('public targets pass and are pinned to the checked address', async () => {
  const a = await checkWebhookUrl('https://hooks.example.test/in?x=1', strict);
  assert.ok(a.ok);
  if (a.ok) assert.equal([a.target.address, a.target.family, a.target.host],
    ['93.184.216.34', 4, 'hooks.example.test']);
  const b = await checkWebhookUrl('https://six.example.test/in', strict);
  assert.ok(b.ok && b.target.family === 6);
  const c = await checkWebhookUrl('https://[2606:4700::1111]:8443/in', strict);
  assert.ok(c.ok && c.target.host === '2606:4700::1111' && c.target.address === c.target.host);
});

test('allowPrivate admits http and private addresses (self-hosting, tests)', async () => {
  const open = { allowPrivate: true, lookup: fakeLookup };
  for (const url of ['http://127.0.0.1:9/h', 'https://localhost/h', 'http://[::1]:80/',
    'https://rebind.example.test/']) {
    assert.ok((await checkWebhookUrl(url, open)).ok, url);
  }
  assert.not.ok((await checkWebhookUrl('ftp://127.0.0.1/', open)).ok);
});

test.run();
