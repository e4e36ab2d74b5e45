// Child process for the kill -9 test: a supervisor on a given store that publishes one event,
// reports on stdout only after each step is durable, and follows clock commands from stdin.
// It runs only when ORDERFLOW_WEBHOOK_CHILD=1, so the test runner can import it harmlessly.
import { createInterface } from 'node:readline';
import { open } from 'lmdb';
import { ManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createWebhookSupervisor } from '../../actors/webhooks/supervisor.js';
import { fakeKeys } from './fixtures.js';

async function main(): Promise<void> {
  const [dir, url, startMs] = process.argv.slice(2);
  const root = open({ path: dir });
  const clock = new ManualClock(Number(startMs));
  const sup = createWebhookSupervisor({
    root, clock, logger: silentLogger, keys: fakeKeys({ ofk_aaaaaaaa: 'Pro' }),
    allowPrivate: true, random: () => 0,
  });
  const { id } = await sup.endpoints.add('ofk_aaaaaaaa', url);
  const { eventId } = await sup.publish('test', { child: true }, [id]);
  process.stdout.write(JSON.stringify({ published: eventId, endpointId: id }) + '\n');
  sup.start();
  for await (const line of createInterface({ input: process.stdin })) {
    const [verb, amount] = line.split(' ');
    if (verb !== 'advance') continue;
    clock.advance(Number(amount));
    await sup.tick();
    await sup.idle();
    const [d] = sup.deliveries(id);
    process.stdout.write(JSON.stringify({ attempts: d.attempts, status: d.status }) + '\n');
  }
}

if (process.env.ORDERFLOW_WEBHOOK_CHILD === '1') {
  main().catch((error) => {
    process.stderr.write(String(error?.stack ?? error) + '\n');
    process.exit(1);
  });
}
