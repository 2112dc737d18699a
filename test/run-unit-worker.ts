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
  /** Where `<index>` marks a file claimed and `<index>.done` holds its {@link FileCost} once it ran. */
  claims: string;
}

/** What a file cost: wall milliseconds, and CPU milliseconds of this process and the child processes it waited for. */
export interface FileCost {
  ms: number;
  cpuMs: number;
}

/** Clock ticks a second of /proc's CPU times (USER_HZ: 100 on every Linux build node runs on). */
const TICKS_PER_SECOND = 100;

/**
 * CPU milliseconds this process spent, with those of its ended children: the wall time of a file says little on
 * a machine others share, its CPU time does not change with the load. Children are known only on Linux (/proc).
 */
function cpuMilliseconds(): number {
  const { user, system } = process.cpuUsage();
  let children = 0;
  try {
    // The fields after the command name (which may hold spaces and parentheses): cutime and cstime are the 14th and 15th.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
    children = ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
  } catch {
    // Not Linux: this process's own time only.
  }
  return (user + system) / 1000 + children;
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
    let cpuAtStart = 0;
    before(() => {
      started = performance.now();
      cpuAtStart = cpuMilliseconds();
    });
    // Registered before the file's own hooks, so it runs first: the next file is queued before this one ends.
    after(() => {
      const cost: FileCost = { ms: Math.round(performance.now() - started), cpuMs: Math.round(cpuMilliseconds() - cpuAtStart) };
      writeFileSync(join(queue.claims, `${index}.done`), JSON.stringify(cost));
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
