/**
 * Issue 40: the palette's sessions share one output. A run alone streams as it comes; two side by side write whole
 * lines (a long one in pieces), never each other's words interleaved, and a run's line never continues another's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SharedRunOutput } from '../../../src/agent/common/sessions/sharedRunOutput';

function output(maxHeld?: number) {
  const writes: string[] = [];
  return { writes, shared: new SharedRunOutput((text) => writes.push(text), maxHeld) };
}

test('a run alone writes its streamed text as it comes', () => {
  const { writes, shared } = output();
  shared.line('\n=== one');
  const run = shared.run();
  run.text('Hel');
  run.text('lo');
  run.line('\n▶ Run echo hi');
  run.end();
  assert.deepEqual(writes, ['\n=== one\n', 'Hel', 'lo', '\n▶ Run echo hi\n']);
});

test('two runs side by side: whole lines each, a long line in ended pieces, the held text written at a tool line and at the end', () => {
  const { writes, shared } = output(12); // 'Working on A' fills it: cut there, the model's own line end then dropped
  const first = shared.run();
  const second = shared.run();
  for (const piece of ['Working ', 'on A', '\nnext ', 'A']) first.text(piece);
  for (const piece of ['Working ', 'on B:', ' reading the code']) second.text(piece);
  first.line('\n▶ Run npm test');
  second.end();
  first.text('after');
  first.end();
  assert.equal(writes.join(''), 'Working on A\nWorking on B:\n reading the code\nnext A\n▶ Run npm test\nafter');
  for (const write of writes) assert.ok(!/A.*B|B.*A/s.test(write), `one run per write: ${JSON.stringify(write)}`);
});

test("a run's first write after another's open line starts below it; an ended run writes nothing more", () => {
  const { writes, shared } = output();
  const first = shared.run();
  first.text('streaming alone');
  const second = shared.run();
  second.line('  ? waiting for your approval: echo hi');
  first.end();
  first.text('late');
  first.line('late line');
  assert.equal(writes.join(''), 'streaming alone\n  ? waiting for your approval: echo hi\n');
});
