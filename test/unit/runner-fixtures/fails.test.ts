// Fixture for test/integration/unit-runner.test.ts: one failing assertion, on line 6 of this file.
import assert from 'node:assert/strict';
import { test } from 'node:test';

test('fails on purpose', () => {
  assert.equal(1 + 1, 3);
});
