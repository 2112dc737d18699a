// Fixture for test/integration/unit-runner.test.ts: a test that ends its process; the file never reaches its end, and the run fails.
import { test } from 'node:test';

test('ends the process', () => {
  console.log('ending the process now');
  process.exit(0);
});
