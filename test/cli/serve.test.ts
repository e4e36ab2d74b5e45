// `orderflow serve` as a process: it answers /healthz, refuses bad arguments with exit 2, and
// SIGTERM/SIGINT end it gracefully with exit code 0. The process runs the cached bundle (with the
// MCP SDK and zod bundled in), which the in-process suites do not load.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { binPath, startServeProcess } from '../helpers/service-process.js';
import { eventually, tempDir } from '../helpers/eventually.js';

const serve = suite('orderflow serve');

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  serve(`answers /healthz and stops on ${signal} with exit code 0`, async () => {
    const dataDir = join(await tempDir(), 'data');
    const service = await startServeProcess(['--data-dir', dataDir, '--shards', '1']);
    const health = await fetch(`${service.baseUrl}/healthz`);
    assert.is(health.status, 200);
    const startedMs = Date.now();
    service.child.kill(signal);
    const code = await Promise.race([
      service.exited,
      new Promise((resolve) => setTimeout(() => resolve('still running'), 8_000)),
    ]);
    if (code === 'still running') service.child.kill('SIGKILL');
    assert.is(code, 0, `exit code after ${signal}: ${String(code)}; ${service.stderr()}`);
    // The 5 s budget is a product rule; the margin is for a loaded CI machine.
    assert.ok(Date.now() - startedMs < 8_000);
  });
}

serve('the bundled service answers MCP clients once /readyz says ready', async () => {
  const service = await startServeProcess(['--data-dir', join(await tempDir(), 'data'),
    '--shards', '1']);
  const client = new Client({ name: 'cli-test', version: '1.0.0' });
  try {
    await eventually(async () => (await fetch(`${service.baseUrl}/readyz`)).status === 200,
      { timeoutMs: 30_000, message: '/readyz never said ready' });
    await client.connect(new StreamableHTTPClientTransport(
      new URL(`${service.baseUrl}/api/mcp/public`)));
    const { tools } = await client.listTools();
    assert.ok(tools.some((tool) => tool.name === 'get_screener'), JSON.stringify(tools));
    const result = await client.callTool({ name: 'get_screener', arguments: {} });
    assert.not.ok(result.isError, JSON.stringify(result.content));
  } finally {
    await client.close();
    service.child.kill('SIGTERM');
    await service.exited;
  }
});

const refusals: [string[], RegExp][] = [
  [['--port', 'abc'], /--port must be a whole number \(was 'abc'\)/],
  [['--port', '70000'], /config\.port must be an integer from 0 to 65535 \(was 70000\)/],
  [['--feed', 'bogus'], /--feed must be sim, live or replay:FILE \(was 'bogus'\)/],
  [['--speed=-1'], /--speed must be a positive number or max/],
  [['--clock-start', 'yesterday'], /--clock-start must be an ISO 8601 instant/],
  [['--limits', 'off', '--host', '0.0.0.0'], /limitsEnabled must be on unless host is loopback/],
  [['--no-such-flag'], /Unknown option '--no-such-flag'/],
  [['--role', 'edge'], /--role must be one of all, ingest, front \(was 'edge'\)/],
  [['--role', 'front'], /--role front needs ORDERFLOW_REDIS_URL/],
  [['--nice', '20'], /--nice must be an integer from 0 \(normal\) to 19 \(lowest\) \(was '20'\)/],
  [['--nice=-5'], /--nice must be an integer from 0 .* \(was '-5'\)/],
  [['--nice', 'low'], /--nice must be an integer from 0 .* \(was 'low'\)/],
  [['--realtime'], /--realtime is for --role front/],
  [['--realtime', '--role', 'all'], /--realtime is for --role front/],
  [['--informed', '1.5'], /--informed must be a share from 0 to 1, e\.g\. 0\.8; .*\(was '1\.5'\)/],
  [['--informed=-0.2'], /--informed must be a share from 0 to 1.*\(was '-0\.2'\)/],
  [['--informed', 'half'], /--informed must be a share from 0 to 1.*\(was 'half'\)/],
];

for (const [args, message] of refusals) {
  serve(`refuses ${args.join(' ')} with one line and exit 2`, () => {
    const result = spawnSync(process.execPath, [binPath, 'serve', ...args], { encoding: 'utf8' });
    assert.is(result.status, 2, result.stderr);
    assert.match(result.stderr, message);
    assert.is(result.stderr.trim().split('\n').length, 1, result.stderr);
  });
}

serve('--help prints the options and exits 0', () => {
  const result = spawnSync(process.execPath, [binPath, 'serve', '--help'], { encoding: 'utf8' });
  assert.is(result.status, 0);
  assert.match(result.stdout, /--clock-start ISO/);
});

serve.run();
