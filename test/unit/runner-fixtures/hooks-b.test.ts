// Fixture for test/integration/unit-runner.test.ts: runs in the same process as hooks-a, and none of hooks-a's hooks runs for it.
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('b: the other file-level hook did not run for it', () => {
  const ranFor = (globalThis as { hookRanFor?: string[] }).hookRanFor ?? [];
  assert.ok(!ranFor.includes('b: the other file-level hook did not run for it'), `hooks ran for: ${ranFor.join(', ')}`);
});
