// Client addresses: uWS's binary peer formatted, trusted proxies by address and CIDR.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { clientAddress, createTrustCheck, formatPeerAddress } from '../../http/client-ip.js';

const raw = (bytes: number[]) => new Uint8Array(bytes).buffer;

test('peer addresses: IPv4, IPv4-mapped, compressed IPv6', () => {
  assert.is(formatPeerAddress(raw([10, 0, 0, 7])), '10.0.0.7');
  assert.is(formatPeerAddress(raw([...Array(10).fill(0), 255, 255, 127, 0, 0, 1])), '127.0.0.1');
  assert.is(formatPeerAddress(raw([...Array(15).fill(0), 1])), '::1');
  assert.is(formatPeerAddress(raw([0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1])),
    '2001:db8::1');
  assert.is(formatPeerAddress(raw([1, 2, 3])), 'unknown');
});

test('trusted proxies: addresses and CIDRs; a bad entry is a config error', () => {
  const trusted = createTrustCheck(['10.0.0.0/8', '192.168.1.5', 'fd00::/8']);
  assert.ok(trusted('10.200.3.4'));
  assert.ok(trusted('192.168.1.5'));
  assert.not.ok(trusted('192.168.1.6'));
  assert.ok(trusted('fd12::1'));
  assert.not.ok(trusted('not an ip'));
  for (const bad of ['10.0.0.0/33', 'example.com', '10.0.0.0/x', '']) {
    assert.throws(() => createTrustCheck([bad]), /config\.trustProxy/);
  }
  assert.not.ok(createTrustCheck([])('127.0.0.1'));
});

test('X-Forwarded-For only from a trusted peer; right-most untrusted hop; garbage stops it', () => {
  const trusted = createTrustCheck(['10.0.0.0/8']);
  assert.is(clientAddress('10.0.0.1', '1.1.1.1, 2.2.2.2, 10.0.0.9', trusted), '2.2.2.2');
  assert.is(clientAddress('8.8.8.8', '1.1.1.1', trusted), '8.8.8.8');
  assert.is(clientAddress('10.0.0.1', '', trusted), '10.0.0.1');
  assert.is(clientAddress('10.0.0.1', 'bogus, 10.0.0.3', trusted), '10.0.0.3');
  assert.is(clientAddress('10.0.0.1', '::ffff:3.3.3.3', trusted), '3.3.3.3');
  const long = Array(300).fill('9.9.9.9').join(', ') + ', 4.4.4.4';
  assert.is(clientAddress('10.0.0.1', long, trusted), '4.4.4.4', 'the right end is kept');
});

test.run();
