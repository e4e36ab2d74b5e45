// `orderflow serve` as a process (the cached bundle `npm start` runs) serves the dashboard:
// the page with its security headers, its hashed script `immutable`, the account API refusing
// a request without a session, and a sign-in with an account made by `orderflow users create`.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../helpers/eventually.js';
import { binPath, startServeProcess } from '../helpers/service-process.js';

const serve = suite('orderflow serve: dashboard');

serve('pages, assets and a sign-in from the bundled service', async () => {
  const dataDir = join(await tempDir(), 'data');
  const service = await startServeProcess(['--data-dir', dataDir, '--shards', '1']);
  try {
    const page = await fetch(`${service.baseUrl}/`);
    assert.is(page.status, 200);
    assert.is(page.headers.get('content-security-policy'),
      "default-src 'self'; frame-ancestors 'none'");
    assert.is(page.headers.get('x-content-type-options'), 'nosniff');
    assert.is(page.headers.get('referrer-policy'), 'same-origin');
    const html = await page.text();
    assert.not.match(html, /<script>|<script [^>]*>[^<]/, 'no inline script');
    const script = /src="(\/assets\/app-[A-Z0-9]+\.js)"/.exec(html);
    assert.ok(script, html);
    const asset = await fetch(service.baseUrl + script[1]);
    assert.is(asset.status, 200);
    assert.match(asset.headers.get('cache-control') ?? '', /immutable/);
    assert.match(asset.headers.get('content-type') ?? '', /javascript/);
    assert.is((await fetch(`${service.baseUrl}/assets/app-NOPE.js`)).status, 404);
    assert.is((await fetch(`${service.baseUrl}/api/v1/account/keys`)).status, 401);
    const created = spawnSync(process.execPath, [binPath, 'users', 'create', '--email',
      'op@example.com', '--plan', 'Pro', '--data-dir', dataDir],
    { encoding: 'utf8', input: 'operator passphrase\n' });
    assert.is(created.status, 0, created.stderr);
    const signIn = await fetch(`${service.baseUrl}/api/v1/account/session`, {
      method: 'POST', headers: { 'content-type': 'application/json', origin: service.baseUrl },
      body: JSON.stringify({ email: 'op@example.com', password: 'operator passphrase' }),
    });
    assert.is(signIn.status, 200);
    assert.match(signIn.headers.get('set-cookie') ?? '', /^of_session=/);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

serve.run();
