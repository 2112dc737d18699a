// Saved session files, without VS Code: damaged files are skipped, old formats get defaults,
// unchanged files are not re-read, and a session keeps the workspace folder it started in.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseSavedSession, parseSavedSessionText } from '../../../src/sessionModel/common/savedSession';
import { newSession } from '../../../src/sessionModel/common/sessionState';
import { SessionFiles, SessionReadError, type SessionFileSystem } from '../../../src/agent/common/sessions/sessionFiles';
import { NO_FOLDER_MESSAGE, rootForNewSession, rootForSavedSession } from '../../../src/sessionModel/common/sessionRoot';

const valid = () => {
  const state = newSession({ id: 'good', title: 'a task', model: 'gw-code', now: 10, rootUri: 'file:///work/api' });
  state.status = 'done';
  state.originals = [{ path: 'new.ts', existed: false }];
  return state;
};

describe('parseSavedSession', () => {
  test('a valid session comes back as it was saved', () => {
    const state = valid();
    const json = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    assert.deepEqual(json(parseSavedSessionText(JSON.stringify(state))), json(state));
    assert.equal(parseSavedSessionText(JSON.stringify(state))?.rootUri, 'file:///work/api');
    assert.deepEqual(parseSavedSessionText(JSON.stringify(state))?.originals, [{ path: 'new.ts', existed: false }]);
  });

  test('originals: today a path and whether it existed; an older file also their text, kept until migrated', () => {
    const parsed = parseSavedSession({
      id: 's',
      status: 'done',
      originals: [
        { path: 'a.ts', existed: true },
        { path: 'b.ts', before: 'old b' },
        { path: 'c.ts' },
        { path: 'd.ts', existed: true, before: 'old d' },
        { path: 'e.ts', before: 3 },
      ],
    });
    assert.deepEqual(parsed?.originals, [
      { path: 'a.ts', existed: true },
      { path: 'b.ts', existed: true, before: 'old b' },
      { path: 'c.ts', existed: false },
      { path: 'd.ts', existed: true, before: 'old d' },
    ]);
  });

  test('null, {}, arrays, numbers, garbage and cut writes are not sessions', () => {
    for (const raw of ['null', '{}', '[]', '42', '"s1"', 'garbage', '{"id":"tr","title":"x","stat']) assert.equal(parseSavedSessionText(raw), undefined, raw);
    assert.equal(parseSavedSession({ id: 7, status: 'done' }), undefined, 'id must be a string');
    assert.equal(parseSavedSession({ id: 's', status: 'finished' }), undefined, 'status must be known');
  });

  test('an older file without usage, unsent, pending calls or commands gets defaults', () => {
    const old = parseSavedSession({
      id: 'old',
      title: 'old format',
      status: 'done',
      updatedAt: 5,
      transcript: [{ role: 'user', content: 'hi' }],
      originals: [],
    });
    assert.ok(old);
    assert.deepEqual(old.usage, { inputTokens: 0, outputTokens: 0, reasoningTokens: 0, totalTokens: 0 });
    assert.deepEqual([old.unsent, old.pendingCalls, old.commandsRun], [[], [], []]);
    assert.deepEqual(old.transcript, [{ role: 'user', content: 'hi' }]);
    assert.equal(old.turns, 0);
    assert.equal(old.rootUri, undefined);
  });

  test('malformed parts are dropped rather than kept to crash the view later', () => {
    const state = parseSavedSession({
      id: 's',
      status: 'paused',
      usage: 'lots',
      originals: [null, { path: 'a.ts', before: null }, { before: 'x' }],
      transcript: [null, { type: 'function_call_output', call_id: 'c' }],
      commandsRun: ['npm test', 3],
    });
    assert.ok(state);
    assert.equal(state.usage.totalTokens, 0);
    assert.deepEqual(state.originals, [{ path: 'a.ts', existed: false }]);
    assert.deepEqual(state.transcript, []);
    assert.deepEqual(state.commandsRun, ['npm test']);
    assert.equal(state.title, 's');
  });
});

/** An in-memory sessions folder that counts reads; the names in `unreadable` exist but fail to read (EACCES). */
function memoryFolder(files: Record<string, string>, unreadable: readonly string[] = []) {
  const mtimes = new Map<string, number>(Object.keys(files).map((name) => [name, 1]));
  const reads: string[] = [];
  const fs: SessionFileSystem = {
    names: async () => Object.keys(files),
    stat: async (name) => (name in files ? { mtime: mtimes.get(name) ?? 1, size: files[name].length } : undefined),
    read: async (name) => {
      reads.push(name);
      if (unreadable.includes(name)) throw new Error(`EACCES: permission denied, open '${name}'`);
      return name in files ? files[name] : undefined;
    },
  };
  const write = (name: string, body: string) => {
    files[name] = body;
    mtimes.set(name, (mtimes.get(name) ?? 0) + 1);
  };
  return { fs, reads, write };
}

describe('SessionFiles', () => {
  test('a damaged file is skipped and logged; the others still list', async () => {
    const warnings: string[] = [];
    const { fs } = memoryFolder({ 'good.json': JSON.stringify(valid()), 'null.json': 'null', 'empty.json': '{}', 'cut.json': '{"id":', 'notes.txt': 'x' });
    const files = new SessionFiles(fs, { warn: (message) => warnings.push(message), error: (message) => warnings.push(message) });
    assert.deepEqual(
      (await files.list()).map((s) => s.id),
      ['good'],
    );
    assert.equal(warnings.length, 3);
    assert.equal(await files.load('null'), undefined);
    assert.equal(await files.load('missing'), undefined);
  });

  test('a file that exists but cannot be read is an error, not "no session": logged, and thrown by load', async () => {
    const log: string[] = [];
    const { fs } = memoryFolder({ 'good.json': JSON.stringify(valid()), 'locked.json': JSON.stringify({ ...valid(), id: 'locked' }) }, ['locked.json']);
    const files = new SessionFiles(fs, { warn: (message) => log.push(`warn ${message}`), error: (message) => log.push(`error ${message}`) });
    await assert.rejects(files.load('locked'), (error) => error instanceof SessionReadError && /locked\.json.*EACCES/.test(error.message));
    assert.equal(await files.load('missing'), undefined, 'a file that is not there is no session, silently');
    assert.deepEqual(
      (await files.list()).map((s) => s.id),
      ['good'],
      'the other sessions still list',
    );
    assert.equal(log.length, 2);
    assert.ok(
      log.every((line) => /^error Could not read agent session file locked\.json: EACCES/.test(line)),
      log.join('\n'),
    );
  });

  test('a sessions folder that cannot be read is an error, not an empty list', async () => {
    const log: string[] = [];
    const { fs } = memoryFolder({});
    fs.names = () => Promise.reject(new Error('EIO: i/o error, scandir'));
    const files = new SessionFiles(fs, { warn: (message) => log.push(message), error: (message) => log.push(message) });
    await assert.rejects(files.list(), SessionReadError);
    assert.deepEqual(log, ['Could not read the agent sessions folder: EIO: i/o error, scandir']);
  });

  test('a file whose name is not its id is skipped', async () => {
    const { fs } = memoryFolder({ 'other.json': JSON.stringify(valid()) });
    const files = new SessionFiles(fs);
    assert.deepEqual(await files.list(), []);
    assert.equal(await files.load('other'), undefined);
  });

  test('listing again re-reads only files that changed, were saved, or are new', async () => {
    const b = { ...valid(), id: 'b', updatedAt: 20 };
    const { fs, reads, write } = memoryFolder({ 'good.json': JSON.stringify(valid()), 'b.json': JSON.stringify(b) });
    const files = new SessionFiles(fs);
    assert.deepEqual(
      (await files.list()).map((s) => s.id),
      ['b', 'good'],
    );
    reads.length = 0;
    await files.list();
    assert.deepEqual(reads, [], 'nothing changed: nothing re-read');
    write('good.json', JSON.stringify({ ...valid(), updatedAt: 30 }));
    assert.deepEqual(
      (await files.list()).map((s) => s.id),
      ['good', 'b'],
    );
    assert.deepEqual(reads, ['good.json']);
    reads.length = 0;
    files.invalidate('b');
    await files.list();
    assert.deepEqual(reads, ['b.json'], 'a save by this store re-reads even with the same mtime and size');
  });

  test('a deleted file leaves the list', async () => {
    const folder = memoryFolder({ 'good.json': JSON.stringify(valid()) });
    const files = new SessionFiles(folder.fs);
    assert.equal((await files.list()).length, 1);
    folder.fs.names = async () => [];
    assert.deepEqual(await files.list(), []);
  });

  test('load always reads afresh, so a caller can change its copy', async () => {
    const { fs, reads } = memoryFolder({ 'good.json': JSON.stringify(valid()) });
    const files = new SessionFiles(fs);
    const listed = (await files.list())[0];
    const loaded = await files.load('good');
    assert.notEqual(loaded, listed);
    assert.equal(reads.length, 2);
  });
});

describe('session root folder', () => {
  const api = { uri: 'file:///work/api', name: 'api' };
  const web = { uri: 'file:///work/web', name: 'web' };

  test('a new session starts in the first folder; with none open it is refused before anything is asked', () => {
    assert.deepEqual(rootForNewSession([web, api]), { ok: true, uri: web.uri });
    assert.deepEqual(rootForNewSession([]), { ok: false, message: NO_FOLDER_MESSAGE });
  });

  test('a saved session keeps its folder after the folders are reordered', () => {
    assert.deepEqual(rootForSavedSession(api.uri, [web, api], 'revert its changes'), { ok: true, uri: api.uri });
  });

  test('when its folder is no longer open, Continue and Revert are refused, naming the folder', () => {
    const decision = rootForSavedSession(api.uri, [web], 'revert its changes');
    assert.equal(decision.ok, false);
    assert.match(!decision.ok ? decision.message : '', /\/work\/api.*not open.*revert its changes/);
  });

  test('an older session without a recorded folder uses the first folder, as it did', () => {
    assert.deepEqual(rootForSavedSession(undefined, [web, api], 'continue it'), { ok: true, uri: web.uri });
    assert.equal(rootForSavedSession(undefined, [], 'continue it').ok, false);
  });
});
