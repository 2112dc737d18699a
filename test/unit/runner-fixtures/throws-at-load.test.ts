// Fixture for test/integration/unit-runner.test.ts: a file that throws while loading counts as a failed test, not as nothing.
import { test } from 'node:test';

function load(): void {
  throw new Error('this file cannot load');
}
load();

test('never registered', () => undefined);
