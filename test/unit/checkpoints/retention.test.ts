// Checkpoint folders across sessions on a real disk (temp folders, the Node ports): deleting a
// session with its checkpoints, a delete a crash interrupts at each step, the order in which
// retention drops checkpoints past the total bound, orphan folders, and the bounds of a pass.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import {
  CheckpointRetention,
  SessionDeletedPartly,
  removeSessionFiles,
  retentionNotice,
  retentionVictims,
  type CheckpointShelf,
  type SessionSummary,
} from '../../../src/checkpoints/common/checkpointRetention';
import { checkpointStorageBytes } from '../../../src/settings/common/valueSets';
import { DEFAULT_CHECKPOINT_STORAGE_MB } from '../../../src/settings/common/valueSets';
import { journalName, snapshotName } from '../../../src/sessionModel/common/sessionJournal';
import { effectiveValue } from '../../../src/settings/common/gatewaySettings';
import { NodeCheckpointFolder } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeJournalFolder } from '../../../src/agent/node/nodeJournalFolder';
import { NodeCheckpointShelf } from '../../../src/checkpoints/node/nodeCheckpointShelf';
import { VirtualClock } from '../helpers/clock';

const signal = new AbortController().signal;
let dir: string;
let shelfRoot: string;
let sessionsDir: string;
let workspace: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-retention-'));
  shelfRoot = join(dir, 'agent-checkpoints');
  sessionsDir = join(dir, 'agent-sessions');
  workspace = join(dir, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'app.ts'), 'changed by the session\n');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A saved session (snapshot and journal) and a checkpoint folder of `blobBytes` in one blob. */
async function saveSession(id: string, blobBytes = 1_000): Promise<void> {
  const journal = new NodeJournalFolder(sessionsDir);
  await journal.writeAtomic(snapshotName(id), JSON.stringify({ id }));
  await journal.append(journalName(id), '{"seq":1}\n');
  const folder = new NodeCheckpointFolder(join(shelfRoot, id));
  await folder.putBlob(`${id}:`.padEnd(blobBytes, 'x'), signal);
  await folder.writeAtomic('index', JSON.stringify({ checkpoints: [] }), signal);
}

const shelfEntries = () => (existsSync(shelfRoot) ? readdirSync(shelfRoot).sort() : []);
const sessionFiles = () => (existsSync(sessionsDir) ? readdirSync(sessionsDir).sort() : []);
const summary = (id: string, status: SessionSummary['status'], updatedAt: number, running = false): SessionSummary => ({
  id,
  title: `task ${id}`,
  status,
  updatedAt,
  running,
});

interface Harness {
  retention: CheckpointRetention;
  clock: VirtualClock;
  forgotten: string[];
  claimed: Set<string>;
}

function harness(
  options: { shelf?: CheckpointShelf; exists?: (id: string) => boolean; bounds?: { maxFolders: number; maxEntries: number; timeMs: number } } = {},
): Harness {
  const clock = new VirtualClock({ start: 1_000_000 });
  const forgotten: string[] = [];
  const claimed = new Set<string>();
  const retention = new CheckpointRetention({
    shelf: options.shelf ?? new NodeCheckpointShelf(shelfRoot),
    clock,
    claim: (id) => {
      if (claimed.has(id)) return undefined;
      claimed.add(id);
      return () => claimed.delete(id);
    },
    forget: (id) => forgotten.push(id),
    sessionExists: (id) => Promise.resolve(options.exists?.(id) ?? existsSync(join(sessionsDir, snapshotName(id)))),
    ...(options.bounds ? { bounds: options.bounds } : {}),
  });
  return { retention, clock, forgotten, claimed };
}

const removeFromDisk = (id: string) => (inner: AbortSignal) => removeSessionFiles(new NodeJournalFolder(sessionsDir), id, inner);

describe('deleting a session', () => {
  test('removes its saved files and its checkpoint folder, and nothing else', async () => {
    await saveSession('s1');
    await saveSession('s2');
    const { retention, forgotten } = harness();
    await retention.deleteSession('s1', removeFromDisk('s1'), signal);
    assert.deepEqual(sessionFiles(), ['s2.journal', 's2.json']);
    assert.deepEqual(shelfEntries(), ['s2']);
    assert.deepEqual(forgotten, ['s1']);
    assert.deepEqual(readdirSync(workspace), ['app.ts'], "the session's file changes stay");
  });

  test('an aborted signal changes nothing', async () => {
    await saveSession('s1');
    const aborted = AbortSignal.abort();
    await assert.rejects(harness().retention.deleteSession('s1', removeFromDisk('s1'), aborted));
    assert.deepEqual(sessionFiles(), ['s1.journal', 's1.json']);
    assert.deepEqual(shelfEntries(), ['s1']);
  });

  test('a crash before the snapshot goes leaves the session whole, with every checkpoint', async () => {
    await saveSession('s1');
    const crash = () => Promise.reject(new Error('crash'));
    await assert.rejects(harness().retention.deleteSession('s1', crash, signal), /crash/);
    assert.deepEqual(sessionFiles(), ['s1.journal', 's1.json']);
    assert.deepEqual(readdirSync(join(shelfRoot, 's1')).sort(), ['blobs', 'index.json']);
  });

  test('a crash between the snapshot and the journal leaves no session: only a stray journal', async () => {
    await saveSession('s1');
    const real = new NodeJournalFolder(sessionsDir);
    const crashing = { remove: (name: string) => (name.endsWith('.journal') ? Promise.reject(new Error('crash')) : real.remove(name)) };
    await assert.rejects(
      harness().retention.deleteSession('s1', (inner) => removeSessionFiles(crashing, 's1', inner), signal),
      /crash/,
    );
    assert.deepEqual(sessionFiles(), ['s1.journal'], 'the snapshot (what lists a session) went first');
    // The next start: its folder is an orphan and goes.
    const report = await harness().retention.enforce([], 1 << 30, signal);
    assert.deepEqual(report.orphans, ['s1']);
    assert.deepEqual(shelfEntries(), []);
  });

  test('a crash after the session went and before its folder did leaves an orphan the next pass removes', async () => {
    await saveSession('s1');
    const real = new NodeCheckpointShelf(shelfRoot);
    const crashing: CheckpointShelf = { ...bind(real), retire: () => Promise.reject(new Error('disk gone')) };
    await assert.rejects(harness({ shelf: crashing }).retention.deleteSession('s1', removeFromDisk('s1'), signal), SessionDeletedPartly);
    assert.deepEqual(sessionFiles(), []);
    assert.deepEqual(shelfEntries(), ['s1']);
    const report = await harness().retention.enforce([], 1 << 30, signal);
    assert.deepEqual(report.orphans, ['s1']);
    assert.deepEqual(shelfEntries(), []);
  });

  test('a crash mid-removal leaves a retired folder: never at the session path, never listed, purged by the next pass', async () => {
    await saveSession('s1');
    const real = new NodeCheckpointShelf(shelfRoot);
    const crashing: CheckpointShelf = { ...bind(real), purgeRetired: () => Promise.reject(new Error('crash')) };
    await assert.rejects(harness({ shelf: crashing }).retention.deleteSession('s1', removeFromDisk('s1'), signal), SessionDeletedPartly);
    const [retired] = shelfEntries();
    assert.match(retired!, /^s1\.retired-[0-9a-f]{8}$/);
    assert.deepEqual(await real.folders({ maxFolders: 10, maxEntries: 10 }, signal), []);
    const report = await harness().retention.enforce([], 1 << 30, signal);
    assert.equal(report.purged, 1);
    assert.deepEqual(shelfEntries(), []);
  });
});

describe('retention across sessions', () => {
  test('past the bound, finished sessions go least recently used first; paused ones only after them; a running one never', () => {
    const folders = ['done-old', 'stopped-mid', 'done-new', 'paused-old', 'running'].map((sessionId) => ({ sessionId, bytes: 100, truncated: false }));
    const sessions = [
      summary('done-new', 'done', 300),
      summary('paused-old', 'paused', 50),
      summary('done-old', 'done', 100),
      summary('running', 'running', 10, true),
      summary('stopped-mid', 'stopped', 200),
    ];
    const ids = (maxBytes: number) => retentionVictims(folders, sessions, maxBytes).map((s) => s.id);
    assert.deepEqual(ids(500), []);
    assert.deepEqual(ids(400), ['done-old']);
    assert.deepEqual(ids(250), ['done-old', 'stopped-mid', 'done-new']);
    assert.deepEqual(ids(150), ['done-old', 'stopped-mid', 'done-new', 'paused-old']);
    assert.deepEqual(ids(0), ['done-old', 'stopped-mid', 'done-new', 'paused-old'], 'the running session keeps its checkpoints whatever the total');
  });

  test('on disk: the oldest finished sessions lose their checkpoints until the rest fit; the sessions stay; the notice names them', async () => {
    for (const id of ['a', 'b', 'c']) await saveSession(id, 10_000);
    const sessions = [summary('a', 'done', 1), summary('b', 'done', 2), summary('c', 'paused', 0)];
    const { retention, forgotten } = harness();
    const report = await retention.enforce(sessions, 25_000, signal);
    assert.deepEqual(
      report.dropped.map((s) => s.id),
      ['a'],
    );
    assert.deepEqual(shelfEntries(), ['b', 'c']);
    assert.deepEqual(forgotten, ['a']);
    assert.ok(sessionFiles().includes('a.json'), 'only the checkpoints go');
    assert.match(retentionNotice(report, 25_000)!, /"task a" \(a\)/);
  });

  test('a session that is claimed (started) while the pass runs keeps its checkpoints', async () => {
    for (const id of ['a', 'b']) await saveSession(id, 10_000);
    const { retention, claimed } = harness();
    claimed.add('a');
    const report = await retention.enforce([summary('a', 'done', 1), summary('b', 'done', 2)], 15_000, signal);
    assert.deepEqual(
      report.dropped.map((s) => s.id),
      ['b'],
    );
    assert.deepEqual(shelfEntries(), ['a']);
  });

  test('the setting: a number in range in MB, anything else the default', () => {
    const mb = 1024 * 1024;
    assert.equal(checkpointStorageBytes(undefined), DEFAULT_CHECKPOINT_STORAGE_MB * mb);
    assert.equal(checkpointStorageBytes('9999'), DEFAULT_CHECKPOINT_STORAGE_MB * mb);
    assert.equal(checkpointStorageBytes(Number.NaN), DEFAULT_CHECKPOINT_STORAGE_MB * mb);
    assert.equal(checkpointStorageBytes(1), 64 * mb);
    assert.equal(checkpointStorageBytes(1e12), 16_384 * mb);
    assert.equal(checkpointStorageBytes(1000.7), 1000 * mb);
  });

  test("a workspace's value neither raises nor lowers the bound: only the user's applies", () => {
    const name = 'agent.checkpointStorageMB';
    assert.equal(effectiveValue(name, { defaultValue: 512, workspaceValue: 16_384 }), 512);
    assert.equal(effectiveValue(name, { defaultValue: 512, workspaceFolderValue: 64 }), 512);
    assert.equal(effectiveValue(name, { defaultValue: 512, globalValue: 2_048, workspaceValue: 64 }), 2_048);
  });
});

describe('orphan folders', () => {
  test('a folder whose session is gone is removed; one whose session exists, or appeared since the list, or runs, stays', async () => {
    for (const id of ['orphan', 'kept', 'late', 'busy']) await saveSession(id);
    rmSync(join(sessionsDir, snapshotName('orphan')));
    rmSync(join(sessionsDir, snapshotName('busy')));
    const { retention, claimed } = harness({ exists: (id) => id === 'late' || id === 'kept' });
    claimed.add('busy');
    // `late` is not in the list the pass was given: it was saved after the list was taken.
    const report = await retention.enforce([summary('kept', 'done', 1)], 1 << 30, signal);
    assert.deepEqual(report.orphans, ['orphan']);
    assert.deepEqual(shelfEntries(), ['busy', 'kept', 'late']);
  });

  test('names that are not session ids are left alone', async () => {
    mkdirSync(join(shelfRoot, 'not.a-session'), { recursive: true });
    writeFileSync(join(shelfRoot, 'stray.txt'), 'x');
    const report = await harness().retention.enforce([], 1 << 30, signal);
    assert.deepEqual(report.orphans, []);
    assert.deepEqual(shelfEntries(), ['not.a-session', 'stray.txt']);
  });
});

describe('bounds', () => {
  test('a pass lists at most maxFolders folders and measures at most maxEntries files of each', async () => {
    for (const id of ['a', 'b', 'c']) await saveSession(id, 100);
    for (let i = 0; i < 5; i++) writeFileSync(join(shelfRoot, 'a', 'blobs', `${String(i).padStart(64, '0')}`), 'y'.repeat(10));
    const folders = await new NodeCheckpointShelf(shelfRoot).folders({ maxFolders: 2, maxEntries: 4 }, signal);
    assert.equal(folders.length, 2);
    const a = folders.find((f) => f.sessionId === 'a');
    if (a) assert.equal(a.truncated, true);
    const whole = await new NodeCheckpointShelf(shelfRoot).folders({ maxFolders: 10, maxEntries: 100 }, signal);
    assert.equal(whole.find((f) => f.sessionId === 'b')!.truncated, false);
    assert.ok(whole.find((f) => f.sessionId === 'b')!.bytes >= 100);
  });

  test('a pass stops at its time bound (virtual time) and the next one carries on', async () => {
    for (const id of ['o1', 'o2', 'o3', 'o4']) await saveSession(id);
    const real = new NodeCheckpointShelf(shelfRoot);
    const clocks: VirtualClock[] = [];
    const slow: CheckpointShelf = {
      ...bind(real),
      retire: async (id, inner) => {
        clocks[0]!.advance(4_000);
        return real.retire(id, inner);
      },
    };
    const first = harness({ shelf: slow, exists: () => false, bounds: { maxFolders: 100, maxEntries: 100, timeMs: 10_000 } });
    clocks.push(first.clock);
    const report = await first.retention.enforce([], 1 << 30, signal);
    assert.equal(report.outOfTime, true);
    assert.equal(report.orphans.length, 3, '0 s, 4 s, 8 s start a removal; at 12 s the bound has passed');
    assert.match(retentionNotice(report, 1 << 30)!, /time bound/);
    const second = await harness({ exists: () => false }).retention.enforce([], 1 << 30, signal);
    assert.equal(second.orphans.length, 1);
    assert.deepEqual(shelfEntries(), []);
  });
});

/** The shelf's methods bound to it, to override one in a spread. */
function bind(shelf: NodeCheckpointShelf): CheckpointShelf {
  return {
    folders: (bounds, inner) => shelf.folders(bounds, inner),
    retire: (id, inner) => shelf.retire(id, inner),
    purgeRetired: (max, inner) => shelf.purgeRetired(max, inner),
  };
}
