// `orderflow serve` refuses bad ORDERFLOW_ALLOWED_HOSTS and ORDERFLOW_ALLOWED_ORIGINS values at
// start-up: one line naming the variable and the bad entry, and exit 2.
import { spawnSync } from 'node:child_process';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { binPath } from '../helpers/service-process.js';

const refusals: [Record<string, string>, RegExp][] = [
  [{ ORDERFLOW_ALLOWED_HOSTS: 'http://orderflow.example.com' },
    /ORDERFLOW_ALLOWED_HOSTS must be a comma list of host names .*\(was 'http:\/\/orderflow/],
  [{ ORDERFLOW_ALLOWED_HOSTS: 'ok.example.com, bad host' }, /\(was 'bad host' in/],
  [{ ORDERFLOW_ALLOWED_HOSTS: 'orderflow.example.com:8443' }, /without scheme, port or path/],
  [{ ORDERFLOW_ALLOWED_ORIGINS: 'app.example.com' },
    /ORDERFLOW_ALLOWED_ORIGINS must be a comma list of origins .*\(was 'app\.example\.com'/],
  [{ ORDERFLOW_ALLOWED_ORIGINS: 'https://app.example.com/' }, /no path/],
  [{ ORDERFLOW_ALLOWED_ORIGINS: '*' }, /\(was '\*'/],
  [{ ORDERFLOW_ALLOWED_ORIGINS: 'https://app.example.com:70000' }, /\(was 'https:/],
];

for (const [env, message] of refusals) {
  test(`refuses ${JSON.stringify(env)} with one line and exit 2`, () => {
    const result = spawnSync(process.execPath, [binPath, 'serve', '--port', '0'],
      { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 60_000 });
    assert.is(result.status, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.is(result.stderr.trim().split('\n').length, 1, result.stderr);
  });
}

test.run();
