// The Node layer's file-safety module (src/base/node/fileSafety.ts) on real temporary folders, with real
// second processes where the promise is about two processes: one lock holder at a time, whole appended lines,
// and a file killed mid-rewrite that still holds one whole version.
import assert from 'node:assert/strict';
import { build } from 'esbuild';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, watch } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LockTimeoutError, appendWhole, withFolderLock, writeFileAtomic } from '../../src/base/node/fileSafety';
import { VirtualClock } from '../unit/helpers/clock';

const CHILD = 'test/unit/helpers/fileSafetyChild.ts';
const never = new AbortController().signal;
let folder: string;
/** The child compiled once: five children started through tsx spent more CPU time loading tsx than testing. */
let childScript: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'gw-file-safety-'));
  childScript = join(folder, 'fileSafetyChild.js');
  await build({
    entryPoints: [CHILD],
    outfile: childScript,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'warning',
  });
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A child process of helpers/fileSafetyChild.ts that has said "ready"; `go` starts its work. */
async function child(...args: string[]): Promise<{ process: ChildProcess; go: () => void; lines: string[]; lineCount: () => Promise<void> }> {
  const proc = spawn(process.execPath, [childScript, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines: string[] = [];
  let waiting: (() => void) | undefined;
  proc.stdout!.setEncoding('utf8');
  proc.stdout!.on('data', (chunk: string) => {
    lines.push(...chunk.split('\n').filter(Boolean));
    waiting?.();
  });
  const nextLine = () => new Promise<void>((resolve) => (waiting = resolve));
  while (!lines.includes('ready')) await nextLine();
  return { process: proc, go: () => proc.stdin!.write('go\n'), lines, lineCount: nextLine };
}

async function exitOf(proc: ChildProcess): Promise<number | null> {
  if (proc.exitCode !== null) return proc.exitCode;
  const [code] = (await once(proc, 'exit')) as [number | null];
  return code;
}

describe('atomic write', () => {
  test('replaces the content and leaves no temporary file', async () => {
    const file = join(folder, 'plain.json');
    await writeFileAtomic(file, 'old', { signal: never });
    await writeFileAtomic(file, 'new', { signal: never });
    assert.equal(await readFile(file, 'utf8'), 'new');
    assert.deepEqual(
      (await readdir(folder)).filter((n) => n.startsWith('plain.json')),
      ['plain.json'],
    );
  });

  test('a write that fails leaves what was there and removes its temporary file', async () => {
    // A folder in the file's place: the temporary file is written, the rename over the folder fails.
    const target = join(folder, 'taken');
    await mkdir(target);
    await writeFile(join(target, 'inside'), 'kept');
    await assert.rejects(writeFileAtomic(target, 'new', { signal: never }));
    assert.equal(await readFile(join(target, 'inside'), 'utf8'), 'kept');
    assert.deepEqual(
      (await readdir(folder)).filter((n) => n.startsWith('taken')),
      ['taken'],
    );
  });

  test('a process killed while rewriting leaves one whole version', async () => {
    const file = join(folder, 'killed.txt');
    await writeFile(file, 'a'.repeat(16 * 1024 * 1024));
    const writer = await child('write', file);
    writer.go();
    // Killed as soon as a write is seen under way (inotify through fs.watch), so in the middle of writing a file.
    while (!writer.lines.includes('wrote')) await writer.lineCount();
    const watcher = watch(folder);
    await new Promise<void>((resolve) => watcher.on('change', (kind) => kind === 'change' && resolve()));
    writer.process.kill('SIGKILL');
    watcher.close();
    await exitOf(writer.process);
    const text = await readFile(file, 'utf8');
    assert.equal(text.length, 16 * 1024 * 1024);
    assert.ok(/^(b+|c+)$/.test(text), 'the file holds one whole version');
  });
});

describe('append', () => {
  test('two processes appending at once never tear a line', async () => {
    const file = join(folder, 'appended.log');
    const writers = await Promise.all([child('append', file, 'x', '300'), child('append', file, 'y', '300')]);
    for (const writer of writers) writer.go();
    assert.deepEqual(await Promise.all(writers.map((w) => exitOf(w.process))), [0, 0]);
    const lines = (await readFile(file, 'utf8')).split('\n').slice(0, -1);
    assert.equal(lines.length, 600);
    for (const line of lines) assert.match(line, /^(x \d+ x{2000}|y \d+ y{2000})$/);
    // Each writer's lines in its own order: an append never overtakes the one before it.
    for (const id of ['x', 'y']) {
      const order = lines.filter((l) => l.startsWith(id)).map((l) => Number(l.split(' ')[1]));
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
      );
    }
  });
});

describe('folder lock', () => {
  test('two processes never hold the lock at once', async () => {
    const lock = join(folder, 'shared.lock');
    const log = join(folder, 'holders.log');
    const lockers = await Promise.all([child('lock', lock, log, 'p', '150'), child('lock', lock, log, 'q', '150')]);
    for (const locker of lockers) locker.go();
    assert.deepEqual(await Promise.all(lockers.map((l) => exitOf(l.process))), [0, 0]);
    const lines = (await readFile(log, 'utf8')).split('\n').slice(0, -1);
    assert.equal(lines.length, 600);
    for (let i = 0; i < lines.length; i += 2) {
      assert.match(lines[i], /^enter [pq]$/);
      assert.equal(lines[i + 1], lines[i].replace('enter', 'leave'), `line ${i + 1}: another holder entered`);
    }
    // Both held it while the other waited: the test would prove nothing if they had run one after the other.
    assert.ok(lines.slice(0, 300).some((l) => l.endsWith('p')) && lines.slice(0, 300).some((l) => l.endsWith('q')), 'the holders took turns');
    assert.equal(existsSync(lock), false, 'released');
  });

  test('a lock left long ago is broken, and so is one dated in the future', async () => {
    for (const offset of [-60_000, +60_000]) {
      const clock = new VirtualClock();
      const lock = join(folder, `left${offset}.lock`);
      await mkdir(lock);
      const date = new Date(clock.now() + offset);
      await utimes(lock, date, date);
      let ran = false;
      await withFolderLock(lock, async () => void (ran = true), { signal: never, staleMs: 2_000, clock });
      assert.ok(ran);
      assert.ok(clock.sleeps.length < 3, `waited ${clock.sleeps.length} times`);
      assert.equal(existsSync(lock), false);
    }
  });

  test('a live lock is waited for, within a bound, and the owner is written into the lock', async () => {
    const clock = new VirtualClock({ start: Date.now() });
    const lock = join(folder, 'live.lock');
    await withFolderLock(
      lock,
      async () => {
        assert.match(await readFile(join(lock, 'owner'), 'utf8'), /^first pid \d+\n$/);
        const second = withFolderLock(lock, async () => 'never', { signal: never, staleMs: 60_000, maxAttempts: 5, clock });
        await assert.rejects(second, LockTimeoutError);
      },
      { signal: never, staleMs: 60_000, owner: 'first' },
    );
    assert.equal(existsSync(lock), false);
  });

  test('an abort ends the wait, and a failing holder still releases the lock', async () => {
    const lock = join(folder, 'aborted.lock');
    await mkdir(lock);
    const clock = new VirtualClock();
    const waiting = new AbortController();
    clock.onSleep = () => waiting.abort(new Error('closed'));
    await assert.rejects(
      withFolderLock(lock, async () => assert.fail('ran without the lock'), { signal: waiting.signal, staleMs: 60_000, clock }),
      /closed/,
    );
    assert.ok(existsSync(lock), 'a lock the waiter never held is not removed');
    await rm(lock, { recursive: true });
    await assert.rejects(
      withFolderLock(lock, async () => Promise.reject(new Error('work failed')), { signal: never, staleMs: 60_000 }),
      /work failed/,
    );
    assert.equal(existsSync(lock), false, 'released in finally');
  });

  test('appendWhole with nothing to append creates no file', async () => {
    const file = join(folder, 'empty.log');
    await appendWhole(file, '', { signal: never });
    assert.equal(existsSync(file), false);
  });
});
