// One of the few test processes test/run-unit.ts starts. The processes share one queue of test files: each
// takes the next file nobody has claimed, runs it, then takes another, so they finish together whatever each
// file costs. A file's tests run inside a suite named after its source, so its top-level hooks (before,
// beforeEach, …) stay with its own tests; the files of one process run one after another, never together
// (node:test runs top-level suites one at a time), each with its own copy of the sources (one bundle a file).
import { AsyncResource } from 'node:async_hooks';
import { closeSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

export interface TestQueue {
  /** In the order to run them: the longest first (as last measured), so no process is left with a long one at the end. */
  files: { source: string; compiled: string }[];
  /** Where `<index>` marks a file claimed and `<index>.done` holds its milliseconds once it ran. */
  claims: string;
}

const queueFile = process.env.GATEWAY_UNIT_TEST_QUEUE;
if (!queueFile) throw new Error('GATEWAY_UNIT_TEST_QUEUE is not set: run the unit tests with npm run test:unit');
const queue = JSON.parse(readFileSync(queueFile, 'utf8')) as TestQueue;

/**
 * node:test files a suite under the test whose async scope registers it. Made while loading, outside every
 * test, this scope files the next suite at the top level (queued behind the one running), not inside it.
 */
const topLevel = new AsyncResource('unit-test-queue');

/** The first file no process has claimed yet (creating a file with 'wx' succeeds for exactly one process). */
function claimNext(): number | undefined {
  for (let index = 0; index < queue.files.length; index++) {
    try {
      closeSync(openSync(join(queue.claims, String(index)), 'wx'));
      return index;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return undefined;
}

function runNextFile(): void {
  const index = claimNext();
  if (index === undefined) return;
  const { source, compiled } = queue.files[index];
  describe(source, () => {
    let started = 0;
    before(() => {
      started = performance.now();
    });
    // Registered before the file's own hooks, so it runs first: the next file is queued before this one ends.
    after(() => {
      writeFileSync(join(queue.claims, `${index}.done`), String(Math.round(performance.now() - started)));
      topLevel.runInAsyncScope(runNextFile);
    });
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      require(compiled);
    } catch (error) {
      // Counted as a failed test, as a file of its own would have been.
      test('loads', () => {
        throw error;
      });
    }
  });
}

runNextFile();
