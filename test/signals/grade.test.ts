// The rule grade (docs/signals.md, "Grade"): the count of agreeing logics nudged by the score,
// never better than C: B and better are letters only a setup's outcomes earn.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gradeFromLogics } from '../../actors/signals/grade.js';

test('a score against the side lowers one logic to D; two logics against stay C', () => {
  assert.is(gradeFromLogics(1, -1, 50), 'D');
  assert.is(gradeFromLogics(1, -80, 50), 'D');
  assert.is(gradeFromLogics(2, -10, 50), 'C');
  assert.is(gradeFromLogics(1, null, 50), 'C');
  assert.is(gradeFromLogics(1, 0, 50), 'C');
  assert.throws(() => gradeFromLogics(0, null, 50), /logicCount/);
});

test('no count of logics or score makes a B, an A or an A+ without evidence', () => {
  for (const count of [1, 2, 3, 4, 6]) {
    for (const score of [null, 0, 49, 50, 100]) {
      assert.is(gradeFromLogics(count, score, 50), 'C', `${count} logics, score ${score}`);
    }
  }
  assert.is(gradeFromLogics(3, -20, 50), 'C');
  assert.is(gradeFromLogics(4, -20, 50), 'C');
});

test.run();
