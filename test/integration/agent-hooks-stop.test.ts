// Stop hooks that keep a session going (Claude Code's and Codex's semantics), and hooks from the user's home folder,
// end to end: a scripted session against the emulator over real HTTP, hook files in real temp folders (a workspace and
// a home folder), each hook run by the real node host. What the model received is read from the emulator's request log.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { systemClock } from '../../src/base/common/ports';
import type { ApprovalRequest } from '../../src/sessionModel/common/sessionPorts';
import { SessionHooks, hookApprovalsThrough } from '../../src/customization/common/hooks';
import { nodeHookHost } from '../../src/customization/node/hookProcess';
import { NodeHookFiles } from '../../src/customization/node/nodeHookFiles';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace, type TempWorkspace } from '../unit/helpers/agent';
import { putFiles } from '../unit/helpers/workspaceFixture';
import { logged, memory } from '../unit/helpers/hookParts';

const hook = (command: string) => ({ type: 'command', command });
/** A Stop hook that records its input in the workspace and always asks to go on (exit 2, its reason on stderr). */
const ALWAYS_BLOCKS = 'cat >> .stop-inputs.jsonl; echo >> .stop-inputs.jsonl; echo "run the tests first" >&2; exit 2';

/** A session's hooks on the real host, every approval granted (and recorded); `home`: the user's home folder. */
function hooksFor(workspace: TempWorkspace, home?: string) {
  const asked: ApprovalRequest[] = [];
  const logger = logged();
  const host = nodeHookHost({ root: workspace.root, sandboxFor: async () => undefined });
  const approver = { approve: async (request: ApprovalRequest) => (asked.push(request), true) };
  const hooks = new SessionHooks({
    platform: process.platform,
    files: new NodeWorkspaceFiles(workspace.root),
    protectedFiles: defaultProtectedFiles,
    host,
    approvals: hookApprovalsThrough({
      approver,
      memory: memory(),
      host,
      files: new NodeHookFiles({ root: workspace.root, home }),
      sessionId: 's',
      clock: systemClock,
    }),
    sessionId: 's',
    root: workspace.root,
    clock: systemClock,
    logger,
    ...(home ? { homeFiles: new NodeWorkspaceFiles(home) } : {}),
  });
  return { hooks, asked, logger };
}

describe('Stop hooks and home hooks with real processes', { skip: process.platform === 'win32' ? 'sh hooks' : false }, () => {
  const fixture = useEmulatorAndWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
  const bodies = () => fixture.emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gw-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test("a Stop hook's exit 2 keeps the session going with its stderr, stop_hook_active is set after the first, and at most 3 times a run", async () => {
    const { workspace, emulator } = fixture;
    workspace.write('.claude/settings.json', JSON.stringify({ hooks: { Stop: [{ hooks: [hook(ALWAYS_BLOCKS)] }] } }));
    emulator.script(
      'demo-key',
      [1, 2, 3, 4, 5].map((n) => ({ text: `done ${n}` })),
    );
    const { hooks, logger } = hooksFor(workspace);
    const state = startSession('fix it');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks }).engine, state);
    assert.equal(state.status, 'done');
    assert.equal(bodies().length, 4, 'the first answer and three continuations');
    assert.deepEqual(bodies()[1].input, [
      {
        role: 'developer',
        content:
          'A Stop hook did not let the session end yet (1 of at most 3 times in this run):\n' +
          `run the tests first (the hook stop "${ALWAYS_BLOCKS.slice(0, 77)}..." (.claude/settings.json))`,
      },
    ]);
    assert.match(JSON.stringify(bodies()[3].input), /3 of at most 3 times/);
    const inputs = readFileSync(join(workspace.root, '.stop-inputs.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      inputs.map((input) => [input.hook_event_name, input.stop_hook_active, input.last_assistant_message]),
      [
        ['Stop', false, 'done 1'],
        ['Stop', true, 'done 2'],
        ['Stop', true, 'done 3'],
        ['Stop', true, 'done 4'],
      ],
      'run once per answer, not again when the run ends',
    );
    assert.match(logger.lines.join('\n'), /a Stop hook asked to go on after 3 continuations in this run; the session ends here/);
  });

  test("home hooks: Codex's ~/.codex/hooks.json blocks once with JSON, ~/.claude/settings.json runs after edits; approved as the home folder's and listed", async () => {
    const { workspace, emulator } = fixture;
    await putFiles(home, {
      '.codex/hooks.json': JSON.stringify({
        hooks: {
          Stop: [
            {
              hooks: [{ ...hook('test -f .checked && exit 0; touch .checked; echo \'{"decision":"block","reason":"check the README too"}\''), timeoutSec: 5 }],
            },
          ],
        },
      }),
      '.claude/settings.json': JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [hook('echo "formatted" >&2; exit 2')] }] } }),
    });
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'b.txt', content: 'b\n' } }] },
      { text: 'done' },
      { text: 'README checked' },
    ]);
    const { hooks, asked } = hooksFor(workspace, home);
    const state = startSession('write b');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks }).engine, state);
    assert.equal(state.status, 'done');
    assert.deepEqual(
      asked.map((request) => request.summary),
      ['Run a hook of your home folder (~/.claude/settings.json)', 'Run a hook of your home folder (~/.codex/hooks.json)'],
      'one question a hook',
    );
    assert.deepEqual(state.projectInstructions?.files, ['~/.claude/settings.json', '~/.codex/hooks.json']);
    const [, second, third] = bodies();
    assert.match(JSON.stringify(second.input), /Output of the hook postToolUse \\"echo \\"formatted\\".*\(~\/\.claude\/settings\.json\):\\nformatted/);
    assert.match(JSON.stringify(third.input), /did not let the session end yet \(1 of at most 3 times in this run\):\\ncheck the README too/);
    assert.equal(bodies().length, 3, 'the second stop lets the session end');
  });
});
