// Saving a session as a snapshot plus an append-only journal: a save costs the step, a torn last record loses only that step.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { parseSavedSession } from '../../../src/sessionModel/common/savedSession';
import { SessionFiles, type SessionFileSystem } from '../../../src/agent/common/sessions/sessionFiles';
import { SessionJournal } from '../../../src/sessionModel/common/sessionJournal';
import { addUserMessage, newSession, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { NodeJournalFolder } from '../../../src/agent/node/nodeJournalFolder';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-journal-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** The port's contract: what is not there is undefined, any other failure throws. */
function folderFiles(folder: string): SessionFileSystem {
  const unlessMissing = <T>(read: () => Promise<T>): Promise<T | undefined> =>
    read().catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
  return {
    names: async () => readdirSync(folder),
    stat: (name) =>
      unlessMissing(async () => {
        const stat = statSync(join(folder, name));
        return { mtime: stat.mtimeMs, size: stat.size };
      }),
    read: (name) => unlessMissing(() => readFile(join(folder, name), 'utf8')),
  };
}

/** One agent step: a call, its 3 KB output, the counters. */
function step(state: AgentSessionState, i: number): void {
  state.transcript.push({ type: 'function_call', call_id: `c${i}`, name: 'read_file', arguments: `{"path":"m${i}.ts"}` });
  state.transcript.push({ type: 'function_call_output', call_id: `c${i}`, output: `line ${String(i).padStart(4, '0')}\n`.repeat(300) });
  state.unsent = [state.transcript.at(-1)!];
  state.previousResponseId = `resp_${i}`;
  state.turns = i + 1;
  state.usage.totalTokens += 1000;
}

/** The state as a whole-file save and load would give it back. */
const asSaved = (state: AgentSessionState) => parseSavedSession(JSON.parse(JSON.stringify(state)));

function session(): AgentSessionState {
  const state = newSession({ id: 'journal1', title: 'read all', model: 'gw-code', now: 1 });
  addUserMessage(state, 'read all');
  return state;
}

describe('the session journal', () => {
  test('a save appends only the step; the snapshot and the journal load back as the state', async () => {
    const journal = new SessionJournal(new NodeJournalFolder(dir));
    const state = session();
    await journal.save(state);
    const appended: number[] = [];
    for (let i = 0; i < 60; i++) {
      step(state, i);
      const before = existsSync(join(dir, 'journal1.journal')) ? statSync(join(dir, 'journal1.journal')).size : 0;
      await journal.save(state);
      appended.push(statSync(join(dir, 'journal1.journal')).size - before);
    }
    // The 60th save writes what the 2nd did, though the session is 30 times longer.
    assert.ok(appended[59] <= appended[1] * 1.1, `${appended[1]} then ${appended[59]} bytes`);
    assert.ok(statSync(join(dir, 'journal1.json')).size < 2_000, 'the snapshot was written once, at the start');
    const loaded = await new SessionFiles(folderFiles(dir)).load('journal1');
    assert.deepEqual(loaded, asSaved(state));
    const listed = await new SessionFiles(folderFiles(dir)).list();
    assert.equal(listed[0].turns, 60);
  });

  test('a torn last record (a crash mid-append) loses that step alone', async () => {
    const journal = new SessionJournal(new NodeJournalFolder(dir));
    const state = session();
    await journal.save(state);
    for (let i = 0; i < 5; i++) {
      step(state, i);
      await journal.save(state);
    }
    const beforeLast = asSaved(state);
    step(state, 5);
    await journal.save(state);
    const path = join(dir, 'journal1.journal');
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.slice(0, text.length - 500));
    const loaded = await new SessionFiles(folderFiles(dir)).load('journal1');
    assert.deepEqual(loaded, beforeLast);
  });

  test('a snapshot every N records starts the journal over; a journal a crash left behind is not applied twice', async () => {
    const journal = new SessionJournal(new NodeJournalFolder(dir), 4);
    const state = session();
    await journal.save(state);
    for (let i = 0; i < 4; i++) {
      step(state, i);
      await journal.save(state);
    }
    const stale = readFileSync(join(dir, 'journal1.journal'), 'utf8');
    step(state, 4);
    await journal.save(state);
    assert.equal(existsSync(join(dir, 'journal1.journal')), false, 'the snapshot took the journal in');
    // A crash between the snapshot's rename and the journal's removal leaves the old records.
    writeFileSync(join(dir, 'journal1.journal'), stale);
    const loaded = await new SessionFiles(folderFiles(dir)).load('journal1');
    assert.deepEqual(loaded, asSaved(state));
    assert.equal(loaded!.transcript.length, 11);
  });

  test('a list that shrank (changes reverted) and a field removed are saved right', async () => {
    const journal = new SessionJournal(new NodeJournalFolder(dir));
    const state = session();
    state.originals.push({ path: 'a.ts', existed: true });
    state.statusReason = 'why';
    await journal.save(state);
    step(state, 0);
    await journal.save(state);
    state.originals = [];
    state.statusReason = undefined;
    await journal.save(state);
    const loaded = await new SessionFiles(folderFiles(dir)).load('journal1');
    assert.deepEqual(loaded!.originals, []);
    assert.equal(loaded!.statusReason, undefined);
    assert.equal(loaded!.transcript.length, 3);
  });
});
