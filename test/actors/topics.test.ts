// Topic, actor and view names come from one place; the HTTP front and the runtime agree on them.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { pairActorName, shardActorName, shardTopics, supervisorTopics, viewName }
  from '../../actors/topics.js';

test('view names are <kind>/<symbol>, builder markets included', () => {
  assert.is(viewName('deep-view', 'BTC'), 'deep-view/BTC');
  assert.is(viewName('pair', 'xyz:TSLA'), 'pair/xyz:TSLA');
  assert.is(viewName('wallets', '0xabc'), 'wallets/0xabc');
});

test('actor names are distinct per pair and per shard', () => {
  assert.is(pairActorName('ETH'), 'pair:ETH');
  assert.is.not(pairActorName('ETH'), pairActorName('BTC'));
  assert.is(shardActorName(0), 'shard-0');
  assert.is.not(shardActorName(0), shardActorName(1));
});

test('topics are the handler names of the shard actor and the supervisor', async () => {
  const { default: ShardActor } = await import('../../actors/shard/shard-actor.js');
  for (const topic of Object.values(shardTopics)) {
    assert.type((ShardActor.prototype as unknown as Record<string, unknown>)[topic], 'function',
      `shard handles ${topic}`);
  }
  assert.is(supervisorTopics.publish, 'shardPublish');
});

test.run();
