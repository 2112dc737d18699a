/**
 * A second process for the file-safety tests (test/integration/file-safety.test.ts): it says "ready", waits for
 * "go" on stdin, so that every child starts its work at the same moment, then runs one of:
 *   lock <lockPath> <logPath> <id> <rounds>  hold the lock `rounds` times, logging "enter id" and "leave id"
 *   append <path> <id> <count>               append `count` long lines
 *   write <path>                             rewrite a 16 MB file atomically (written in 512 KB chunks, so a kill lands mid-file) until killed, saying "wrote" after each
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { appendWhole, withFolderLock, writeFileAtomic } from '../../../src/base/node/fileSafety';

const signal = new AbortController().signal;
const SIZE = 16 * 1024 * 1024;
const [mode, ...args] = process.argv.slice(2);

async function lockRounds(lockPath: string, logPath: string, id: string, rounds: number): Promise<void> {
  for (let round = 0; round < rounds; round++) {
    // Far above any hold here, so a busy machine never makes a live lock look stale; the wait is bounded by attempts.
    await withFolderLock(
      lockPath,
      async () => {
        await appendWhole(logPath, `enter ${id}\n`, { signal });
        // A few turns of the event loop inside: the other process gets its chance to (wrongly) enter.
        for (let turn = 0; turn < 5; turn++) await nextTurn();
        await appendWhole(logPath, `leave ${id}\n`, { signal });
      },
      { signal, staleMs: 60_000, maxAttempts: 1_000_000, owner: id },
    );
  }
}

async function appendLines(path: string, id: string, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await appendWhole(path, `${id} ${i} ${id.repeat(2_000)}\n`, { signal });
}

async function rewriteForever(path: string): Promise<void> {
  // Made once, so that each write starts right after the "wrote" before it, with no pause the kill could land in.
  const versions = [Buffer.alloc(SIZE, 'b'), Buffer.alloc(SIZE, 'c')];
  for (let i = 0; ; i++) {
    await writeFileAtomic(path, versions[i % 2], { signal });
    process.stdout.write('wrote\n');
  }
}

async function main(): Promise<void> {
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  if (mode === 'lock') await lockRounds(args[0], args[1], args[2], Number(args[3]));
  else if (mode === 'append') await appendLines(args[0], args[1], Number(args[2]));
  else if (mode === 'write') await rewriteForever(args[0]);
  else throw new Error(`unknown mode ${mode}`);
  process.exit(0);
}

void main();
