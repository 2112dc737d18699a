// The running-sessions service without VS Code: one run per session, the folder a session needs, and the
// sessions a closed window left running paused at startup. Checkpoints on a real shelf in a temp folder.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { INTERRUPTED_REASON, interruptedNotice, RunningSessions, untoldInterrupted } from '../../../src/agent/common/sessions/runningSessions';
import { SessionCheckpoints, type SavedSessions } from '../../../src/agent/common/sessions/sessionCheckpoints';
import { NO_FOLDER_MESSAGE, type OpenFolder } from '../../../src/sessionModel/common/sessionRoot';
import { SessionRuns, type SessionRunsOptions } from '../../../src/agent/common/sessions/sessionRuns';
import type { GitWorktrees } from '../../../src/agent/common/sessions/worktreePorts';
import { worktreeBranchFor, worktreePathFor } from '../../../src/sessionModel/common/sessionWorktree';
import { newSession, type AgentSessionState } from '../../../src/sessionModel/common/sessionState';
import { silentLogger, systemClock } from '../../../src/base/common/ports';
import { NodeCheckpointFolder } from '../../../src/checkpoints/node/nodeCheckpoints';
import { NodeCheckpointShelf } from '../../../src/checkpoints/node/nodeCheckpointShelf';
import { SandboxDecision } from '../../../src/terminal/common/sandboxDecision';
import type { AgentEngine } from '../../../src/agent/common/engine/engine';

/** Saved sessions in memory, each load a fresh copy (as the file store's are). */
class MemorySessions implements SavedSessions {
  readonly saved = new Map<string, AgentSessionState>();
  failSaveOf: string | undefined;
  save(state: AgentSessionState): Promise<void> {
    if (state.id === this.failSaveOf) return Promise.reject(new Error('disk full'));
    this.saved.set(state.id, structuredClone(state));
    return Promise.resolve();
  }
  replace(state: AgentSessionState): Promise<void> {
    return this.save(state);
  }
  load(id: string): Promise<AgentSessionState | undefined> {
    const state = this.saved.get(id);
    return Promise.resolve(state && structuredClone(state));
  }
  list(): Promise<AgentSessionState[]> {
    return Promise.resolve([...this.saved.values()]);
  }
  remove(id: string): Promise<void> {
    this.saved.delete(id);
    return Promise.resolve();
  }
}

const temp: string[] = [];
after(() => Promise.all(temp.map((folder) => rm(folder, { recursive: true, force: true }))));

async function setup(
  open: OpenFolder[] = [{ uri: 'file:///w', name: 'w' }],
  availableModels?: () => Promise<readonly string[]>,
  extra: Partial<SessionRunsOptions> = {},
) {
  const shelfRoot = await mkdtemp(join(tmpdir(), 'session-runs-'));
  temp.push(shelfRoot);
  const store = new MemorySessions();
  const runs = new RunningSessions();
  const folders = { open: () => open, pathOf: (uri: string) => uri.replace('file://', '') };
  const unavailable = (): never => {
    throw new Error('no disk here');
  };
  const checkpoints = new SessionCheckpoints({
    store,
    runs,
    folders,
    machine: {
      files: unavailable,
      workspaceRestore: unavailable,
      checkpointFolder: (id) => new NodeCheckpointFolder(join(shelfRoot, id)),
      checkpointShelf: new NodeCheckpointShelf(shelfRoot),
      checkpointStorageBytes: () => 1024 * 1024,
    },
    editorFiles: unavailable,
    protectedFiles: () => [],
    logger: silentLogger,
    clock: systemClock,
  });
  const resolved: string[] = [];
  const sandbox = new SandboxDecision({
    sandbox: { available: () => Promise.resolve({ ok: false, reason: 'none' }), forSession: unavailable },
    home: {
      path: '/home/u',
      realPath: (path) => {
        resolved.push(path);
        return Promise.resolve(path);
      },
    },
    settings: () => ({ approval: 'ask', protectedFiles: [], sandboxNetwork: false }),
    logger: silentLogger,
    warnUser: () => {},
  });
  const engines: string[] = [];
  const sessions = new SessionRuns({
    store,
    runs,
    folders,
    checkpoints,
    sandbox,
    engineFor: (state) => {
      engines.push(state.id);
      throw new Error('no engine in this test');
    },
    resolveAgentModel: () => Promise.resolve('gw-code'),
    agentModel: () => 'gw-code',
    availableModels,
    logger: silentLogger,
    ...extra,
  });
  return { store, runs, sessions, engines, resolved };
}

function saved(id: string, status: AgentSessionState['status'], rootUri = 'file:///w'): AgentSessionState {
  const state = newSession({ id, title: id, model: 'gw-code', now: 1, rootUri });
  state.status = status;
  return state;
}

describe('SessionRuns', () => {
  test('at startup the sessions a closed window left running or waiting are paused as interrupted; the others stay', async () => {
    const { store, sessions } = await setup();
    for (const state of [saved('a', 'running'), saved('b', 'awaiting_approval'), saved('c', 'done'), saved('d', 'paused')]) await store.save(state);
    const paused = await sessions.recoverInterrupted();
    const after = Object.fromEntries([...store.saved.values()].map((s) => [s.id, [s.status, s.statusReason]]));
    assert.deepEqual(after, {
      a: ['paused', INTERRUPTED_REASON],
      b: ['paused', INTERRUPTED_REASON],
      c: ['done', undefined],
      d: ['paused', undefined],
    });
    // What the reopened window then says (issue 39, item 6): which sessions, and which waited for the user.
    assert.deepEqual(
      paused.map((session) => [session.id, session.wasWaiting]),
      [
        ['a', false],
        ['b', true],
      ],
    );
    // The closing window may have saved them paused itself: a second look finds them as interrupted all the same,
    // and each is told once (by the updatedAt it was paused with).
    const again = await sessions.recoverInterrupted();
    assert.deepEqual(again.map((session) => session.id).sort(), ['a', 'b']);
    const first = untoldInterrupted(again, {});
    assert.deepEqual(first.untold.map((session) => session.id).sort(), ['a', 'b']);
    assert.deepEqual(untoldInterrupted(again, first.remember).untold, [], 'not told twice');
    const resumedAndInterrupted = again.map((session) => (session.id === 'a' ? { ...session, updatedAt: session.updatedAt + 1 } : session));
    assert.deepEqual(
      untoldInterrupted(resumedAndInterrupted, first.remember).untold.map((session) => session.id),
      ['a'],
      'a later interruption is told',
    );
    assert.deepEqual(interruptedNotice(paused), {
      message:
        'Gateway agent: 2 sessions (1 waiting for your approval) were interrupted when the window closed. They are paused: continue them from the Sessions view.',
    });
    assert.deepEqual(interruptedNotice(paused.slice(1)), {
      message: 'Gateway agent: "b" was waiting for your approval when the window closed. It is paused; Continue resumes it where it was.',
      continueId: 'b',
    });
    assert.equal(interruptedNotice([]), undefined);
  });

  test('one session that cannot be saved does not leave the others running', async () => {
    const { store, sessions } = await setup();
    await store.save(saved('a', 'running'));
    await store.save(saved('b', 'running'));
    store.failSaveOf = 'a';
    await sessions.recoverInterrupted();
    assert.equal(store.saved.get('a')!.status, 'running');
    assert.equal(store.saved.get('b')!.status, 'paused');
  });

  test('a session that runs cannot be continued or compacted; the store is left alone', async () => {
    const { store, runs, sessions, engines } = await setup();
    await store.save(saved('a', 'paused'));
    const claim = runs.claim('a')!;
    const sink = { onEvent: () => {} };
    await assert.rejects(sessions.continue('a', 'go on', { sink }), /This session is already running\. Stop it first, or wait for it\./);
    await assert.rejects(sessions.compact('a', sink), /it compacts by itself when it needs to/);
    assert.equal(sessions.isRunning('a'), true);
    assert.equal(sessions.stop('a'), true);
    assert.equal(claim.signal.aborted, true);
    assert.deepEqual(engines, []);
    assert.equal(store.saved.get('a')!.transcript.length, 0);
  });

  test('a new session needs an open folder: none saved without one', async () => {
    const { store, sessions } = await setup([]);
    await assert.rejects(sessions.start('fix it', { sink: { onEvent: () => {} } }), new Error(NO_FOLDER_MESSAGE));
    assert.equal(store.saved.size, 0);
  });

  test('a saved session continues only in its own folder, and its claim is released when refused', async () => {
    const { store, sessions } = await setup([{ uri: 'file:///other', name: 'other' }]);
    await store.save(saved('a', 'paused', 'file:///w'));
    await assert.rejects(
      sessions.continue('a', undefined, { sink: { onEvent: () => {} } }),
      /folder \/w, which is not open in this window\. Add that folder to the workspace to continue it\./,
    );
    assert.equal(sessions.isRunning('a'), false);
    await assert.rejects(sessions.continue('missing', undefined, { sink: { onEvent: () => {} } }), /There is no saved agent session missing\./);
  });

  test('a run probes the sandbox (its folder checked against the home folder), takes its engine, and ends its claim whatever the engine did', async () => {
    const { store, sessions, engines, resolved } = await setup();
    await store.save(saved('a', 'paused'));
    await assert.rejects(sessions.continue('a', 'go on', { sink: { onEvent: () => {} } }), /no engine in this test/);
    assert.deepEqual(engines, ['a']);
    assert.deepEqual(resolved.sort(), ['/home/u', '/w']);
    assert.equal(sessions.isRunning('a'), false);
  });

  test('a run the sink watches is watched from its start to its end, whatever the engine did (its requests go first meanwhile)', async () => {
    const { store, sessions } = await setup();
    await store.save(saved('a', 'paused'));
    const watching: string[] = [];
    const sink = { onEvent: () => {}, watch: (id: string) => (watching.push(`watch ${id}`), { dispose: () => watching.push(`unwatch ${id}`) }) };
    await assert.rejects(sessions.continue('a', 'go on', { sink }), /no engine in this test/);
    assert.deepEqual(watching, ['watch a', 'unwatch a']);
  });

  test("issue 41: the team's collector is told a session started, and how each run ended (finished when done, paused otherwise)", async () => {
    const phases: string[] = [];
    const ends: AgentSessionState['status'][] = ['paused', 'done', 'stopped'];
    const engine = {
      run: (state: AgentSessionState) => Promise.resolve({ ...state, status: ends.shift() ?? 'done' }),
    } as unknown as AgentEngine;
    const { store, sessions } = await setup(undefined, undefined, {
      engineFor: () => engine,
      telemetry: { toolCall: () => {}, session: (phase) => void phases.push(phase) },
    });
    const sink = { onEvent: () => {} };
    const first = await sessions.start('count me', { sink });
    await sessions.continue(first.id, 'go on', { sink });
    await store.save(saved('b', 'paused'));
    await sessions.continue('b', 'go on', { sink });
    assert.deepEqual(phases, ['started', 'paused', 'finished', 'paused']);
  });
});

describe('SessionRuns: a session started as a custom agent', () => {
  const agent = { kind: 'agent' as const, name: 'reviewer', path: '.github/agents/reviewer.agent.md', tools: ['read_file'], unknownTools: ['fetch'] };

  for (const [wanted, used, note] of [
    ['GW Fast', 'gw-fast', undefined],
    ['opus', 'gw-code', 'Agent "reviewer" asks for the model "opus", which this key may not use; this session uses gw-code.'],
  ] as const) {
    test(`its model "${wanted}": ${note ? 'not one the key may use, the configured one, said' : 'used'}; its tools and their notes saved and shown`, async () => {
      const { store, sessions } = await setup(undefined, () => Promise.resolve(['gw-code', 'gw-fast']));
      const events: { type: string; text?: string }[] = [];
      await assert.rejects(sessions.start('review', { sink: { onEvent: (event) => events.push(event) }, agent: { ...agent, model: wanted } }), /no engine/);
      const [saved] = store.saved.values();
      assert.equal(saved.model, used);
      assert.deepEqual(saved.agent, { ...agent, model: wanted });
      assert.deepEqual(
        events.map((event) => event.text),
        [
          'Agent "reviewer" (.github/agents/reviewer.agent.md): tools read_file.',
          'Agent "reviewer" names tools neither this extension nor VS Code has, left out: fetch.',
          ...(note ? [note] : []),
        ],
      );
    });
  }

  test('issue 40: a session started in a worktree records it and runs rooted there; one that cannot is refused', async () => {
    const made: { repoRoot: string; sessionId: string; linkedFolders: readonly string[] }[] = [];
    const worktrees = {
      create: ({ repoRoot, sessionId, linkedFolders }) => {
        made.push({ repoRoot, sessionId, linkedFolders });
        const worktree = { repoRoot, path: worktreePathFor(repoRoot, sessionId), branch: worktreeBranchFor(sessionId), baseCommit: 'c'.repeat(40) };
        return Promise.resolve({ worktree, uncommitted: ['a.txt', 'b.txt'], linked: ['node_modules'] });
      },
    } as Partial<GitWorktrees> as GitWorktrees;
    const roots: string[] = [];
    const notes: string[] = [];
    const { store, sessions } = await setup(undefined, undefined, {
      worktrees,
      worktreeLinkedFolders: () => ['node_modules'],
      engineFor: (_state, root) => {
        roots.push(`${root.uri} ${root.path}`);
        throw new Error('no engine in this test');
      },
    });
    const sink = { onEvent: (event: { type: string; text?: string }) => void (event.type === 'note' && notes.push(event.text ?? '')) };
    await assert.rejects(sessions.start('in a worktree', { sink, place: 'worktree' }), /no engine in this test/);
    const [state] = [...store.saved.values()];
    assert.equal(made.length, 1);
    assert.deepEqual(made[0], { repoRoot: '/w', sessionId: state.id, linkedFolders: ['node_modules'] });
    assert.equal(state.rootUri, 'file:///w', 'the folder it started from');
    assert.equal(state.worktree?.path, `/.w.gateway-worktrees/${state.id}`);
    assert.deepEqual(roots, [`file:///.w.gateway-worktrees/${state.id} /.w.gateway-worktrees/${state.id}`], 'the engine is rooted in the worktree');
    assert.match(notes[0], new RegExp(`branch gateway/${state.id} from commit cccccccccccc`));
    assert.match(notes.join('\n'), /uncommitted changes are not in this worktree .*: a\.txt, b\.txt\./);
    assert.equal(sessions.savedRoot(state, 'continue it').path, state.worktree?.path, 'Continue works there too');

    // A worktree of another repository than the open folder, or a discarded one, is no root.
    assert.throws(() => sessions.savedRoot({ ...state, worktree: { ...state.worktree!, repoRoot: '/other' } }, 'continue it'), /made from \/other/);
    assert.throws(
      () => sessions.savedRoot({ ...state, worktree: { ...state.worktree!, discardedAt: 5 } }, 'continue it'),
      /was discarded: it cannot continue it/,
    );

    // Plan first's Start in a New Worktree: the same worktree path, the plan seeded as the todo list.
    roots.length = 0;
    notes.length = 0;
    const steps = [{ step: 'Write it', status: 'pending' as const }];
    await assert.rejects(sessions.start('task\n\nFollow this plan', { sink, place: 'worktree', plan: steps, title: 'task' }), /no engine in this test/);
    const planned = [...store.saved.values()].find((saved) => saved.title === 'task');
    assert.equal(made.length, 2, 'a second worktree, made the same way');
    assert.deepEqual(planned?.plan, steps);
    assert.deepEqual(roots, [`file:///.w.gateway-worktrees/${planned?.id} /.w.gateway-worktrees/${planned?.id}`]);

    const without = await setup();
    await assert.rejects(without.sessions.start('in a worktree', { sink, place: 'worktree' }), /not available here/);
    assert.equal(without.store.saved.size, 0, 'nothing saved');
  });
});
