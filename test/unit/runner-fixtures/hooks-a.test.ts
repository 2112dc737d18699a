// Fixture for test/integration/unit-runner.test.ts (npm run test:unit runs test/unit/*.test.ts only): a file-level hook stays with its file.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

const shared = globalThis as { hookRanFor?: string[] };
beforeEach((t) => {
  (shared.hookRanFor ??= []).push(t.name);
});

test('a: its own hook ran for it', () => {
  assert.deepEqual(shared.hookRanFor, ['a: its own hook ran for it']);
});
