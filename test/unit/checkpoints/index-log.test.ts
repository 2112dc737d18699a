// The checkpoint index on real files: a capture appends one line of a bounded size instead of writing
// the whole index; a torn last line (a crash mid-append) loses only that capture, and the next line
// still reads; the log is folded into the whole index under a new generation, and a crash between
// that write and the old log's removal brings none of the old lines back; two writers never mix.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { emptyIndex, serializeIndex, type Checkpoint, type Index } from '../../../src/checkpoints/common/checkpointIndex';
import { IndexFile, MAX_LOG_LINES } from '../../../src/checkpoints/common/indexFile';
import { NodeCheckpointFolder } from '../../../src/checkpoints/node/nodeCheckpoints';
import type { CheckpointFolder, CheckpointRecord } from '../../../src/checkpoints/common/checkpointPorts';

const signal = new AbortController().signal;
let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gateway-index-log-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const hash = (n: number) => n.toString(16).padStart(64, '0');
const FILES = 20;

/** One capture as the store makes it: a new checkpoint listing every touched file, the head moved on. */
function capture(index: Index): void {
  const id = index.next++;
  const files = new Map<string, string | null>();
  for (let f = 0; f < FILES; f++) files.set(`src/module-${f}/file-${f}.ts`, hash(id * 1000 + f));
  const checkpoint: Checkpoint = {
    id,
    kind: 'step',
    label: `Step ${id}: src/module-${id % FILES}/file.ts`,
    at: 1_000 + id,
    turn: id,
    files,
    changed: [`src/module-${id % FILES}/file-${id % FILES}.ts`],
    conversation: { segments: [hash(id)], length: id * 2, rest: hash(id + 1), commandsRun: 0 },
  };
  index.checkpoints.push(checkpoint);
  index.head = { files: new Map(files), segments: [hash(id)], length: id * 2 };
  for (const path of files.keys()) if (!index.baseline.has(path)) index.baseline.set(path, null);
}

const folder = () => new NodeCheckpointFolder(dir);
const logPath = () => join(dir, 'index-log.json');
const indexPath = () => join(dir, 'index.json');
const size = (path: string) => (existsSync(path) ? statSync(path).size : 0);
/** The index as a new window reads it. */
const reload = () => new IndexFile(folder()).load(signal);
const comparable = (index: Index) => serializeIndex(index);

async function captures(file: IndexFile, n: number): Promise<Index> {
  const index = await file.load(signal);
  for (let i = 0; i < n; i++) {
    capture(index);
    await file.write(index, signal);
  }
  return index;
}

describe('the checkpoint index log', () => {
  test('the bytes a capture writes do not grow with the checkpoints before it (the whole index grew 5.8× as much); a new window reads the same index', async () => {
    let written = 0;
    const inner = folder();
    // The real folder, its writes counted.
    const counting: CheckpointFolder = Object.assign(Object.create(inner) as CheckpointFolder, {
      writeAtomic: (n: CheckpointRecord, t: string, s: AbortSignal) => ((written += t.length), inner.writeAtomic(n, t, s)),
      append: (n: CheckpointRecord, t: string, s: AbortSignal) => ((written += t.length), inner.append(n, t, s)),
    });
    const file = new IndexFile(counting);
    const index = await file.load(signal);
    const bytesOf = async (n: number) => {
      const before = written;
      for (let i = 0; i < n; i++) {
        capture(index);
        await file.write(index, signal);
      }
      return written - before;
    };
    const early = await bytesOf(20);
    await bytesOf(30);
    const late = await bytesOf(20);
    // Rewritten whole, captures 51–70 write (51 + … + 70) / (1 + … + 20) = 5.8× what captures 1–20 do.
    assert.ok(late < 2.5 * early, `captures 1–20 wrote ${early} bytes, 51–70 wrote ${late}`);
    assert.equal(comparable(await reload()), comparable(index));
  });

  test('a torn last line (a crash mid-append) reads as the index before it, and the next capture starts a line of its own', async () => {
    const file = new IndexFile(folder());
    const index = await captures(file, 5);
    const whole = readFileSync(logPath(), 'utf8');
    const lines = whole.split('\n').filter(Boolean);
    // The fifth capture's line cut halfway through, as a crash during its write leaves it.
    writeFileSync(logPath(), `${lines.slice(0, -1).join('\n')}\n${lines.at(-1)!.slice(0, 300)}`);
    const reopened = new IndexFile(folder());
    const read = await reopened.load(signal);
    assert.deepEqual(
      read.checkpoints.map((c) => c.id),
      [1, 2, 3, 4],
    );
    assert.equal(read.next, 5);
    capture(read);
    await reopened.write(read, signal);
    const again = await reload();
    assert.deepEqual(
      again.checkpoints.map((c) => c.id),
      [1, 2, 3, 4, 5],
    );
    assert.equal(comparable(again), comparable(read));
    assert.equal(index.checkpoints.length, 5);
  });

  test(`the log is folded into the whole index once larger than it (or at ${MAX_LOG_LINES} lines), so it stays bounded`, async () => {
    const file = new IndexFile(folder());
    const index = await captures(file, 1);
    let largestLog = 0;
    for (let i = 0; i < 120; i++) {
      capture(index);
      // Dropped as the store drops the oldest past its bound, so the whole index stays bounded too.
      if (index.checkpoints.length > 20) index.checkpoints.shift();
      await file.write(index, signal);
      largestLog = Math.max(largestLog, size(logPath()));
    }
    assert.ok(largestLog <= Math.max(64 * 1024, size(indexPath())) + 20_000, `the log reached ${largestLog} bytes`);
    assert.equal(comparable(await reload()), comparable(index));
  });

  test('a crash after the whole index is written but before the old log is removed brings none of its lines back', async () => {
    const file = new IndexFile(folder());
    const index = await captures(file, 4);
    const oldLog = readFileSync(logPath(), 'utf8');
    // The store drops checkpoint 4 and writes the index whole; the process dies before the log goes.
    index.checkpoints.pop();
    await file.writeWhole(index, signal);
    writeFileSync(logPath(), oldLog);
    const read = await reload();
    assert.deepEqual(
      read.checkpoints.map((c) => c.id),
      [1, 2, 3],
    );
    assert.equal(comparable(read), comparable(index));
  });

  test("an index written whole elsewhere (a restore's journal) is not overridden by the log written before it", async () => {
    const file = new IndexFile(folder());
    const index = await captures(file, 3);
    const restored = emptyIndex();
    capture(restored);
    await file.writeSerialized(serializeIndex(restored), signal);
    assert.equal(comparable(await reload()), comparable(restored));
    // The next capture of this window writes whole: the journal's index has no generation for lines to follow.
    capture(index);
    await file.write(index, signal);
    assert.equal(comparable(await reload()), comparable(index));
  });

  test('two windows appending to one index: each line is whole, and the index is the last writer’s', async () => {
    await captures(new IndexFile(folder()), 2);
    const a = new IndexFile(folder());
    const b = new IndexFile(folder());
    const [indexA, indexB] = [await a.load(signal), await b.load(signal)];
    capture(indexA);
    capture(indexB);
    indexB.checkpoints[indexB.checkpoints.length - 1]!.label = 'from window B';
    await Promise.all([a.write(indexA, signal), b.write(indexB, signal)]);
    const lines = readFileSync(logPath(), 'utf8').split('\n').filter(Boolean);
    for (const line of lines) JSON.parse(line);
    const last = JSON.parse(lines.at(-1)!) as { added: { label: string }[] };
    const read = await reload();
    assert.equal(read.checkpoints.at(-1)!.label, last.added[0]!.label);
    assert.equal(read.checkpoints.length, 3);
  });
});
