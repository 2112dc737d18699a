// Hooks, part four: what Copilot's hook files carry besides a line (issue 38). A hook's `env` reaches its process
// (bounded, never the host's own variables) and is part of what the user approves; a session is asked only about the
// hooks its tools can trigger; each hook is approved or denied on its own, a denial remembered like an approval; and
// Copilot's `userPromptSubmitted` hooks run when a prompt is submitted. Real hook processes on real temp folders.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { parseCopilotHooks } from '../../../src/customization/common/hookConfig';
import { SessionHooks, hookApprovalsThrough, type HookMemory } from '../../../src/customization/common/hooks';
import { nodeHookHost } from '../../../src/customization/node/hookProcess';
import { NodeHookFiles } from '../../../src/customization/node/nodeHookFiles';
import { systemClock } from '../../../src/base/common/ports';
import type { ApprovalRequest } from '../../../src/sessionModel/common/sessionPorts';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { TempWorkspace } from '../helpers/agent';
import { logged, memory } from '../helpers/hookParts';
import { makeEngine, runToEnd, startSession } from '../helpers/agent';
import { startEmulator, type Emulator } from '../../emulator/server';
import type { RunHooks } from '../../../src/customization/common/hooks';

const signal = new AbortController().signal;
const copilot = (hooks: Record<string, unknown[]>) => JSON.stringify({ version: 1, hooks });

/** A session's hooks on the real node host in `root`; the approver answers with `answer` and keeps what it was asked. */
function sessionIn(root: string, kept: HookMemory, answer: (request: ApprovalRequest) => boolean = () => true) {
  const asked: ApprovalRequest[] = [];
  const logger = logged();
  const host = nodeHookHost({ root, sandboxFor: async () => undefined, env: { ...process.env, GATEWAY_API_KEY: 'sk-host-secret' } });
  const approver = { approve: async (request: ApprovalRequest) => (asked.push(request), answer(request)) };
  const hooks = new SessionHooks({
    platform: process.platform,
    files: new NodeWorkspaceFiles(root),
    protectedFiles: defaultProtectedFiles,
    host,
    approvals: hookApprovalsThrough({ approver, memory: kept, host, files: new NodeHookFiles({ root, home: undefined }), sessionId: 's', clock: systemClock }),
    sessionId: 's',
    root,
    clock: systemClock,
    logger,
  });
  return { hooks, asked, logger, text: () => asked.map((request) => request.command?.line ?? '').join('\n') };
}

describe("a Copilot hook's env", () => {
  let workspace: TempWorkspace;
  beforeEach(() => (workspace = new TempWorkspace()));
  afterEach(() => workspace.dispose());

  test('is read with its bounds: names, count, size, and never the variables the host sets', () => {
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`V${i}`, 'x']));
    const parsed = parseCopilotHooks(
      copilot({
        sessionEnd: [
          { type: 'command', bash: 'scan.sh', cwd: '.', env: { SCAN_MODE: 'warn', SCAN_SCOPE: 'diff' }, timeoutSec: 30 },
          { type: 'command', bash: 'a', env: { 'BAD-NAME': '1' } },
          { type: 'command', bash: 'b', env: { BIG: 'x'.repeat(4097) } },
          { type: 'command', bash: 'c', env: many },
          { type: 'command', bash: 'd', env: { HOME: '/tmp/elsewhere' } },
          { type: 'command', bash: 'e', env: { LD_PRELOAD: '/tmp/x.so' } },
          { type: 'command', bash: 'f', env: { N: 42 } },
          { type: 'command', bash: 'g', env: 'A=1' },
        ],
      }),
      '.github/hooks/scan.json',
      { platform: 'linux' },
    );
    assert.deepEqual(
      parsed.hooks.map((hook) => [hook.command, hook.env]),
      [['scan.sh', { SCAN_MODE: 'warn', SCAN_SCOPE: 'diff' }]],
    );
    assert.equal(parsed.notes.length, 7, parsed.notes.join('\n'));
    assert.match(parsed.notes.join('\n'), /"env"/);
  });

  test("reaches the hook's process (the host's key does not), is shown in the approval, and a changed env asks again", async () => {
    const hookFile = (level: string) =>
      workspace.write(
        '.github/hooks/logger.json',
        copilot({
          sessionStart: [
            { type: 'command', bash: 'echo "level=$LOG_LEVEL key=${GATEWAY_API_KEY:-none}" > seen.txt', cwd: '.', env: { LOG_LEVEL: level }, timeoutSec: 5 },
          ],
        }),
      );
    hookFile("INFO 'quoted' $HOME");
    const kept = memory();
    const first = sessionIn(workspace.root, kept);
    await first.hooks.start('startup', signal);
    assert.equal(first.asked.length, 1);
    assert.match(first.text(), /export LOG_LEVEL='INFO '\\''quoted'\\'' \$HOME'\n/);
    assert.equal(readFileSync(join(workspace.root, 'seen.txt'), 'utf8'), "level=INFO 'quoted' $HOME key=none\n");

    const again = sessionIn(workspace.root, kept);
    await again.hooks.start('startup', signal);
    assert.equal(again.asked.length, 0, 'the same hook with the same env: approved before');

    hookFile('DEBUG');
    const changed = sessionIn(workspace.root, kept);
    await changed.hooks.start('startup', signal);
    assert.equal(changed.asked.length, 1, 'another env is another hook');
    assert.match(changed.text(), /export LOG_LEVEL='DEBUG'/);
    assert.equal(readFileSync(join(workspace.root, 'seen.txt'), 'utf8'), 'level=DEBUG key=none\n');
  });
});

describe('a hook no tool of the session can trigger is not asked about', () => {
  let workspace: TempWorkspace;
  let emulator: Emulator;
  before(async () => (emulator = await startEmulator({ port: 0 })));
  after(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    workspace = new TempWorkspace();
  });
  afterEach(() => workspace.dispose());

  test('a read-only session is asked about the Read hook, the lifecycle hooks and the every-tool hook, not about Edit|Write', async () => {
    const hook = (line: string) => ({ hooks: [{ type: 'command', command: line }] });
    workspace.write(
      '.claude/settings.json',
      JSON.stringify({
        hooks: {
          PreToolUse: [{ matcher: 'Edit|Write', ...hook('echo guard-edits') }],
          PostToolUse: [
            { matcher: 'Read', ...hook('echo after-read') },
            { matcher: 'mcp__.*', ...hook('echo after-mcp') },
          ],
          SessionStart: [hook('echo started')],
        },
      }),
    );
    workspace.write('.github/hooks/audit.json', copilot({ preToolUse: [{ type: 'command', bash: 'echo every-tool' }] }));
    const session = sessionIn(workspace.root, memory());
    await session.hooks.start('startup', signal, ['read_file', 'search_text', 'list_files']);
    assert.equal(session.asked.length, 3, 'one question a hook it can trigger');
    const text = session.text();
    for (const line of ['echo after-read', 'echo started', 'echo every-tool']) assert.ok(text.includes(line), line);
    for (const line of ['echo guard-edits', 'echo after-mcp']) assert.ok(!text.includes(line), line);
    assert.match(session.logger.lines.join('\n'), /2 hooks .*no tool of this session/);

    const all = sessionIn(workspace.root, memory());
    await all.hooks.start('startup', signal, ['read_file', 'edit_file']);
    assert.ok(all.text().includes('echo guard-edits'), 'a session that can edit is asked about the edit hook');
  });

  test("the engine gives the hooks the session's tools, as a custom agent narrowed them", async () => {
    const given: (readonly string[] | undefined)[] = [];
    const hooks: RunHooks = {
      start: async (_source, _signal, tools) => (given.push(tools), { files: [] }),
      beforeTool: async () => undefined,
      afterTool: async () => undefined,
      end: async () => undefined,
    };
    emulator.script('demo-key', [{ text: 'Read it.' }]);
    const readOnly = new Set(['read_file', 'search_text', 'list_files']);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks, limitTools: (tools) => tools.filter((tool) => readOnly.has(tool.name)) });
    await runToEnd(engine, startSession('look'));
    assert.deepEqual(
      given.map((tools) => [...(tools ?? [])].sort()),
      [['list_files', 'read_file', 'search_text']],
    );
  });
});

describe('each hook is approved or denied on its own, and a denial is remembered', () => {
  let workspace: TempWorkspace;
  beforeEach(() => (workspace = new TempWorkspace()));
  afterEach(() => workspace.dispose());

  test('approve two, deny one: the two run, the one does not, and the next session asks nothing until the denied hook changes', async () => {
    const write = (denied: string) => {
      workspace.write(
        '.github/hooks/session.json',
        copilot({
          sessionStart: [
            { type: 'command', bash: 'echo a > ran-a.txt' },
            { type: 'command', bash: `echo ${denied} > ran-denied.txt` },
          ],
        }),
      );
      workspace.write('.claude/settings.json', JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'echo b > ran-b.txt' }] }] } }));
    };
    write('deny-me');
    const kept = memory();
    const answer = (request: ApprovalRequest) => !(request.command?.line ?? '').includes('ran-denied');
    const ran = (name: string) => {
      try {
        return readFileSync(join(workspace.root, name), 'utf8').trim();
      } catch {
        return undefined;
      }
    };

    const first = sessionIn(workspace.root, kept, answer);
    await first.hooks.start('startup', signal);
    assert.equal(first.asked.length, 3, 'one question a hook');
    for (const request of first.asked) assert.equal((request.command?.line ?? '').match(/^echo /gm)?.length, 1, request.command?.line);
    assert.deepEqual([ran('ran-a.txt'), ran('ran-b.txt'), ran('ran-denied.txt')], ['a', 'b', undefined]);

    const second = sessionIn(workspace.root, kept, () => true);
    await second.hooks.start('startup', signal);
    assert.equal(second.asked.length, 0, 'the approvals and the denial are remembered');
    assert.equal(ran('ran-denied.txt'), undefined, 'a denied hook stays denied');
    assert.match(second.logger.lines.join('\n'), /denied before/);

    write('changed');
    const third = sessionIn(workspace.root, kept, () => true);
    await third.hooks.start('startup', signal);
    assert.equal(third.asked.length, 1, 'the denied hook changed: asked again, and only it');
    assert.equal(ran('ran-denied.txt'), 'changed');
  });
});

describe("Copilot's userPromptSubmitted hooks", () => {
  let workspace: TempWorkspace;
  let emulator: Emulator;
  before(async () => (emulator = await startEmulator({ port: 0 })));
  after(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    workspace = new TempWorkspace();
  });
  afterEach(() => workspace.dispose());

  test('run with the prompt on stdin when the user submits one, with their env; not when a session goes on without one', async () => {
    // As github/awesome-copilot's session-logger writes it (hooks/session-logger/hooks.json), with a bash line.
    workspace.write(
      '.github/hooks/session-logger.json',
      copilot({
        userPromptSubmitted: [
          { type: 'command', bash: 'cat >> prompts.jsonl; echo "$LOG_LEVEL" >> levels.txt', cwd: '.', env: { LOG_LEVEL: 'INFO' }, timeoutSec: 5 },
        ],
      }),
    );
    const parsed = parseCopilotHooks(readFileSync(join(workspace.root, '.github/hooks/session-logger.json'), 'utf8'), 'x.json', { platform: 'linux' });
    assert.deepEqual(parsed.notes, [], 'the event is read');
    const session = sessionIn(workspace.root, memory());
    emulator.script('demo-key', [{ text: 'Hello.' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: session.hooks });
    const state = startSession('say hello');
    await runToEnd(engine, state);
    assert.equal(session.asked.length, 1);
    assert.match(session.text(), /# userPromptSubmitted, in \., at most 5 s:\nexport LOG_LEVEL='INFO'\ncat >> prompts\.jsonl/);
    const lines = readFileSync(join(workspace.root, 'prompts.jsonl'), 'utf8').trim().split('\n');
    assert.equal(lines.length, 1);
    const input = JSON.parse(lines[0]) as Record<string, unknown>;
    assert.equal(input.prompt, 'say hello');
    assert.equal(input.cwd, workspace.root);
    assert.equal(typeof input.timestamp, 'number');
    assert.equal(readFileSync(join(workspace.root, 'levels.txt'), 'utf8'), 'INFO\n');

    // The session goes on with nothing new from the user: no prompt was submitted.
    state.status = 'paused';
    state.unsent.push({ role: 'developer', content: 'go on' });
    emulator.script('demo-key', [{ text: 'Still here.' }]);
    await runToEnd(engine, state);
    assert.equal(readFileSync(join(workspace.root, 'prompts.jsonl'), 'utf8').trim().split('\n').length, 1);
  });
});

describe("Claude Code's UserPromptSubmit hooks", () => {
  let workspace: TempWorkspace;
  let emulator: Emulator;
  before(async () => (emulator = await startEmulator({ port: 0 })));
  after(() => emulator.close());
  beforeEach(() => {
    emulator.reset();
    workspace = new TempWorkspace();
  });
  afterEach(() => workspace.dispose());
  const promptHook = (line: string) => JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: 'command', command: line }] }] } });

  test("what the hook prints goes to the model with the user's prompt", async () => {
    workspace.write('.claude/settings.json', promptHook('echo "Sprint goal: ship the importer"'));
    const session = sessionIn(workspace.root, memory());
    emulator.script('demo-key', [{ text: 'Noted.' }]);
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: session.hooks });
    const state = startSession('what next?');
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    const sent = JSON.stringify(emulator.requests.at(-1)?.body);
    assert.match(sent, /what next\?/);
    assert.match(sent, /Sprint goal: ship the importer/);
  });

  test('a refused prompt is not sent: no request, the session paused with the reason, and the next prompt goes', async () => {
    workspace.write('.claude/settings.json', promptHook('if grep -q sk-live; then echo "the prompt holds a live key" >&2; exit 2; fi'));
    const session = sessionIn(workspace.root, memory());
    const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: session.hooks });
    const state = startSession('deploy with sk-live-123');
    await runToEnd(engine, state);
    assert.equal(emulator.requests.length, 0, JSON.stringify([state.status, state.statusReason, emulator.requests.map((r) => r.path)]));
    assert.equal(state.status, 'paused');
    assert.match(state.statusReason ?? '', /A prompt hook refused your prompt, so it was not sent: the prompt holds a live key .*Change it and send it again/);
    assert.doesNotMatch(JSON.stringify(state.transcript), /sk-live/);

    state.unsent.push({ role: 'user', content: 'deploy with the stored credentials' });
    state.transcript.push({ role: 'user', content: 'deploy with the stored credentials' });
    emulator.script('demo-key', [{ text: 'Deploying.' }]);
    await runToEnd(engine, state);
    assert.equal(state.status, 'done');
    assert.equal(emulator.requests.length, 1);
    assert.doesNotMatch(JSON.stringify(emulator.requests[0].body), /sk-live/);
  });
});

describe("VS Code's own hook files in .github/hooks (no `version`: Claude Code's event names, flat command entries)", () => {
  test("Azure/azure-sdk-for-python's PostToolUse hook is read as VS Code reads it; Copilot's lower-case names and Claude's matcher groups too", () => {
    const text = readFileSync(join(__dirname, 'fixtures', 'corpus', 'azure-sdk-for-python', 'hooks', 'hooks.json'), 'utf8');
    const parsed = parseCopilotHooks(text, '.github/hooks/hooks.json', { platform: 'linux' });
    assert.deepEqual(parsed.notes, []);
    assert.deepEqual(
      parsed.hooks.map((hook) => [hook.event, hook.format, hook.command, hook.timeoutMs, hook.cwd]),
      [['postToolUse', 'claude', 'pwsh eng/common/scripts/azsdk_tool_telemetry.ps1', 5000, '.']],
    );
    const mixed = parseCopilotHooks(
      JSON.stringify({
        hooks: {
          preToolUse: [{ type: 'command', command: 'check.sh', timeout: 7, env: { MODE: 'strict' } }],
          PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'fmt.sh' }] }],
          Stop: [{ type: 'command', bash: 'report.sh' }],
          UserPromptSubmit: [{ type: 'command', command: 'audit.sh' }],
          SessionStart: [{ command: 'no-type.sh' }],
        },
      }),
      '.github/hooks/mixed.json',
      { platform: 'linux' },
    );
    assert.deepEqual(
      mixed.hooks.map((hook) => [hook.event, hook.command, hook.timeoutMs, hook.matcher, hook.env]),
      [
        ['preToolUse', 'check.sh', 7000, undefined, { MODE: 'strict' }],
        ['postToolUse', 'fmt.sh', 30_000, 'Edit|Write', undefined],
        ['stop', 'report.sh', 30_000, undefined, undefined],
        ['userPromptSubmitted', 'audit.sh', 30_000, undefined, undefined],
      ],
    );
    assert.equal(mixed.notes.length, 1, mixed.notes.join('\n'));
    assert.match(mixed.notes[0], /SessionStart is not a "command"/);
    // A file with a version other than 1 is still refused whole.
    assert.match(parseCopilotHooks(JSON.stringify({ version: 2, hooks: {} }), 'v2.json', { platform: 'linux' }).notes[0], /only "version": 1/);
  });
});

describe("VS Code hook files' per-system lines (`linux`, `osx`, `windows` next to `command`: VS Code runs the one of its system)", () => {
  // The shape of VS Code's hook files (its docs and Azure/azure-sdk-for-python's .github/hooks/hooks.json): Claude Code's
  // event names, flat command entries, `timeoutSec`; here with the per-system lines VS Code's hook schema reads.
  const vsCodeFile = JSON.stringify({
    hooks: {
      PostToolUse: [
        {
          type: 'command',
          command: 'pwsh eng/common/scripts/azsdk_tool_telemetry.ps1',
          linux: 'bash eng/common/scripts/azsdk_tool_telemetry.sh',
          windows: 'powershell -File eng\\common\\scripts\\azsdk_tool_telemetry.ps1',
          timeoutSec: 5,
        },
      ],
    },
  });
  const lines = (platform: string, text = vsCodeFile) => {
    const parsed = parseCopilotHooks(text, '.github/hooks/hooks.json', { platform });
    return { hooks: parsed.hooks.map((hook) => [hook.event, hook.command, hook.lineKey, hook.timeoutMs]), notes: parsed.notes };
  };

  test('on Linux the `linux` line runs; on macOS (no `osx` line) `command`; on Windows the `windows` line', () => {
    assert.deepEqual(lines('linux'), { hooks: [['postToolUse', 'bash eng/common/scripts/azsdk_tool_telemetry.sh', 'linux', 5000]], notes: [] });
    assert.deepEqual(lines('darwin'), { hooks: [['postToolUse', 'pwsh eng/common/scripts/azsdk_tool_telemetry.ps1', undefined, 5000]], notes: [] });
    assert.deepEqual(lines('win32'), {
      hooks: [['postToolUse', 'powershell -File eng\\common\\scripts\\azsdk_tool_telemetry.ps1', 'windows', 5000]],
      notes: [],
    });
    // VS Code takes every system but macOS and Windows as Linux.
    assert.equal(lines('freebsd').hooks[0][1], 'bash eng/common/scripts/azsdk_tool_telemetry.sh');
  });

  test('`bash` is the Linux and macOS line and `powershell` the Windows one, before `command`, unless the system has its own key', () => {
    const file = (entry: Record<string, unknown>) => JSON.stringify({ hooks: { Stop: [{ type: 'command', ...entry }] } });
    const both = file({ command: 'node report.js', bash: './report.sh', powershell: '.\\report.ps1' });
    assert.deepEqual(lines('linux', both).hooks, [['stop', './report.sh', 'bash', 30_000]]);
    assert.deepEqual(lines('darwin', both).hooks, [['stop', './report.sh', 'bash', 30_000]]);
    assert.deepEqual(lines('win32', both).hooks, [['stop', '.\\report.ps1', 'powershell', 30_000]]);
    assert.deepEqual(lines('darwin', file({ bash: './report.sh', osx: './report-mac.sh' })).hooks, [['stop', './report-mac.sh', 'osx', 30_000]]);
    // An empty override is none, as in VS Code: `command` runs.
    assert.deepEqual(lines('linux', file({ command: 'node report.js', linux: '' })).hooks, [['stop', 'node report.js', undefined, 30_000]]);
  });

  test("a hook with only another system's line and no `command` runs nothing here, and a note says so and what to add", () => {
    const windowsOnly = JSON.stringify({ hooks: { SessionStart: [{ type: 'command', windows: 'scripts\\setup.cmd' }] } });
    assert.deepEqual(lines('win32', windowsOnly).hooks, [['sessionStart', 'scripts\\setup.cmd', 'windows', 30_000]]);
    const onMac = lines('darwin', windowsOnly);
    assert.deepEqual(onMac.hooks, []);
    assert.deepEqual(onMac.notes, [
      '.github/hooks/hooks.json: a hook of SessionStart has only a "windows" (Windows) line and no "command": VS Code runs none of it on macOS, nor does this extension; add "command" or "osx" to run it here; ignored',
    ]);
    const notText = lines('linux', JSON.stringify({ hooks: { Stop: [{ type: 'command', linux: { run: 'x' }, command: 'node report.js' }] } }));
    assert.deepEqual(notText.hooks, [['stop', 'node report.js', undefined, 30_000]]);
    assert.deepEqual(notText.notes, ['.github/hooks/hooks.json: a hook of Stop has a "linux" that is not text; passed over, as VS Code does']);
    assert.match(
      lines('linux', JSON.stringify({ hooks: { Stop: [{ type: 'command' }] } })).notes[0],
      /has no "command" line \(nor a "linux" or "bash" one for Linux\)/,
    );
  });

  test('the approval shows the line of this system, named, and is by its content: a changed `command` beside it asks nothing again', async () => {
    const workspace = new TempWorkspace();
    try {
      const system = process.platform === 'darwin' ? 'osx' : process.platform === 'win32' ? 'windows' : 'linux';
      const write = (command: string, override: string) =>
        workspace.write('.github/hooks/hooks.json', JSON.stringify({ hooks: { SessionStart: [{ type: 'command', command, [system]: override }] } }));
      write('echo from-command > ran.txt', 'echo from-override > ran.txt');
      const kept = memory();
      const first = sessionIn(workspace.root, kept);
      await first.hooks.start('startup', signal);
      assert.equal(first.asked.length, 1);
      assert.match(
        first.text(),
        new RegExp(`# sessionStart, in \\., at most 30 s, its "${system}" line \\(what VS Code runs on this system\\):\necho from-override > ran\\.txt`),
      );
      assert.doesNotMatch(first.text(), /from-command/);
      assert.equal(readFileSync(join(workspace.root, 'ran.txt'), 'utf8'), 'from-override\n');

      write('echo another-command > ran.txt', 'echo from-override > ran.txt');
      const second = sessionIn(workspace.root, kept);
      await second.hooks.start('startup', signal);
      assert.equal(second.asked.length, 0, 'what runs is unchanged: approved already');

      write('echo another-command > ran.txt', 'echo changed-override > ran.txt');
      const third = sessionIn(workspace.root, kept);
      await third.hooks.start('startup', signal);
      assert.equal(third.asked.length, 1, 'the line that runs changed: asked again');
      assert.match(third.text(), /echo changed-override > ran\.txt/);
    } finally {
      workspace.dispose();
    }
  });
});
