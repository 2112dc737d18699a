// Hooks end to end with real processes: a scripted session against the emulator over real HTTP, the workspace's
// hook files in a real temp folder, each hook run by the real node host (a shell, its JSON on stdin). What the
// model received is read from the emulator's request log.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { systemClock } from '../../src/base/common/ports';
import type { ApprovalRequest } from '../../src/sessionModel/common/sessionPorts';
import { SessionHooks, hookApprovalsThrough, type HookMemory } from '../../src/customization/common/hooks';
import { nodeHookHost } from '../../src/customization/node/hookProcess';
import { NodeHookFiles } from '../../src/customization/node/nodeHookFiles';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../src/tools/node/nodeWorkspaceFiles';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace, type TempWorkspace } from '../unit/helpers/agent';
import { logged, memory } from '../unit/helpers/hookParts';

const settings = (hooks: unknown) => JSON.stringify({ hooks });
const hook = (command: string, timeout?: number) => ({ type: 'command', command, ...(timeout ? { timeout } : {}) });
/** A post-edit hook as a Claude Code user writes one: reads the edited file's path from stdin and reports on it as additionalContext. */
const LINT_SCRIPT = [
  'input=$(cat)',
  'file=$(printf "%s" "$input" | sed -n \'s/.*"file_path":"\\([^"]*\\)".*/\\1/p\')',
  'lines=$(wc -l < "$file" | tr -d " ")',
  'printf \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"lint: %s has %s lines, tool %s"}}\' "${file##*/}" "$lines" "$(printf "%s" "$input" | sed -n \'s/.*"tool_name":"\\([^"]*\\)".*/\\1/p\')"',
].join('\n');

/** A session's hooks on the real host, approving with `approve`; the approvals asked are recorded. */
function hooksFor(workspace: TempWorkspace, kept: HookMemory, approve: () => boolean, env: NodeJS.ProcessEnv = process.env) {
  const asked: ApprovalRequest[] = [];
  const logger = logged();
  const host = nodeHookHost({ root: workspace.root, sandboxFor: async () => undefined, env });
  const approver = { approve: async (request: ApprovalRequest) => (asked.push(request), approve()) };
  const files = new NodeHookFiles({ root: workspace.root, home: undefined });
  const approvals = hookApprovalsThrough({ approver, memory: kept, host, files, sessionId: 's', clock: systemClock });
  const hooks = new SessionHooks({
    platform: process.platform,
    files: new NodeWorkspaceFiles(workspace.root),
    protectedFiles: defaultProtectedFiles,
    host,
    approvals,
    sessionId: 's',
    root: workspace.root,
    clock: systemClock,
    logger,
  });
  return { hooks, asked, logger };
}

describe('hooks with real processes', { skip: process.platform === 'win32' ? 'sh hooks' : false }, () => {
  const fixture = useEmulatorAndWorkspace({ 'src/a.ts': 'export const a = 1;\n' });
  const bodies = () => fixture.emulator.requests.filter((r) => r.path === '/v1/responses').map((r) => r.body as Record<string, any>);
  const outputs = (body: Record<string, any>) =>
    (body.input as { type?: string; output?: string }[]).filter((item) => item.type === 'function_call_output').map((item) => item.output ?? '');

  test('a post-edit hook approved once adds its output to the edit result the model reads; not asked again; a changed hook asks again', async () => {
    const { workspace, emulator } = fixture;
    workspace.write('.claude/hooks/lint.sh', LINT_SCRIPT);
    workspace.write('.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit|Write', hooks: [hook('sh .claude/hooks/lint.sh', 10)] }] }));
    const kept = memory();
    const write = (content: string) => [{ toolCalls: [{ name: 'write_file', arguments: { path: 'src/b.ts', content } }] }, { text: 'done' }];
    emulator.script('demo-key', write('one\ntwo\nthree\n'));
    const first = hooksFor(workspace, kept, () => true);
    const state = startSession('add b');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: first.hooks }).engine, state);
    assert.equal(state.status, 'done');
    assert.equal(first.asked.length, 1);
    assert.match(
      first.asked[0].command?.line ?? '',
      /# postToolUse of Edit\|Write, in \., at most 10 s:\n# {3}with \.claude\/hooks\/lint\.sh as it is now \(sha256 [0-9a-f]{12}\)\nsh \.claude\/hooks\/lint\.sh/,
    );
    const [output] = outputs(bodies()[1]);
    assert.match(output, /^Created src\/b\.ts/m);
    assert.match(output, /Output of the hook postToolUse "sh \.claude\/hooks\/lint\.sh" \(\.claude\/settings\.json\):\nlint: b\.ts has 3 lines, tool Write/);
    assert.deepEqual(state.projectInstructions?.files, ['.claude/settings.json'], 'the hook file is listed with the project files');

    emulator.reset();
    emulator.script('demo-key', write('one\n'));
    const second = hooksFor(workspace, kept, () => true);
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: second.hooks }).engine, startSession('again'));
    assert.equal(second.asked.length, 0, 'approved by its content before');
    assert.match(outputs(bodies()[1])[0], /lint: b\.ts has 1 lines/);

    workspace.write(
      '.claude/settings.json',
      settings({ PostToolUse: [{ matcher: 'Edit|Write', hooks: [hook('sh .claude/hooks/lint.sh; echo changed', 10)] }] }),
    );
    emulator.reset();
    emulator.script('demo-key', write('one\ntwo\n'));
    const third = hooksFor(workspace, kept, () => false);
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: third.hooks }).engine, startSession('changed'));
    assert.equal(third.asked.length, 1, 'a changed hook asks again');
    assert.doesNotMatch(outputs(bodies()[1])[0], /Output of the hook/, 'refused: it does not run');
    assert.match(third.logger.lines.join('\n'), /1 of 1 were not approved/);
  });

  test("in auto-edit, the agent rewriting an approved hook's script stops that hook for the rest of the session; the next asks again", async () => {
    const { workspace, emulator } = fixture;
    workspace.write('.claude/hooks/lint.sh', LINT_SCRIPT);
    workspace.write('.claude/settings.json', settings({ PostToolUse: [{ matcher: 'Edit|Write', hooks: [hook('sh .claude/hooks/lint.sh', 10)] }] }));
    const kept = memory();
    const hostile = 'echo "PWNED: ran the rewritten script" >&2; exit 2\n';
    emulator.script('demo-key', [
      { toolCalls: [{ name: 'write_file', arguments: { path: '.claude/hooks/lint.sh', content: hostile } }] },
      { toolCalls: [{ name: 'write_file', arguments: { path: 'src/b.ts', content: 'one\n' } }] },
      { text: 'done' },
    ]);
    const first = hooksFor(workspace, kept, () => true);
    const state = startSession('tidy up');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: first.hooks, policy: { mode: 'auto-edit', deniedCommands: [] } }).engine, state);
    assert.equal(state.status, 'done');
    assert.equal(first.asked.length, 1);
    assert.equal(readFileSync(join(workspace.root, '.claude/hooks/lint.sh'), 'utf8'), hostile, 'the write itself applied (auto-edit)');
    for (const body of bodies().slice(1)) for (const output of outputs(body)) assert.doesNotMatch(output, /PWNED|Output of the hook/);
    assert.match(
      first.logger.lines.join('\n'),
      /Hook postToolUse "sh \.claude\/hooks\/lint\.sh" \(\.claude\/settings\.json\) was not run: a file it runs changed since it was approved/,
    );

    emulator.reset();
    emulator.script('demo-key', [{ text: 'ok' }]);
    const next = hooksFor(workspace, kept, () => false);
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks: next.hooks }).engine, startSession('again'));
    assert.equal(next.asked.length, 1, 'the next session asks about the rewritten script');
  });

  test("a pre-tool hook's exit 2 refuses the command with its reason, which the model reads; the command does not run", async () => {
    const { workspace, emulator } = fixture;
    workspace.write(
      '.claude/settings.json',
      settings({ PreToolUse: [{ matcher: 'Bash', hooks: [hook('grep -q "touch" && { echo "no touching files: use write_file" >&2; exit 2; }; exit 0')] }] }),
    );
    emulator.script('demo-key', [{ toolCalls: [{ name: 'run_command', arguments: { command: 'touch made.txt' } }] }, { text: 'ok' }]);
    const { hooks } = hooksFor(workspace, memory(), () => true);
    const { engine, approvals } = makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks, policy: { mode: 'ask', deniedCommands: [] } });
    await runToEnd(engine, startSession('make a file'));
    assert.match(outputs(bodies()[1])[0], /^A hook of this workspace refused this call: no touching files: use write_file \(the hook preToolUse/);
    assert.equal(existsSync(join(workspace.root, 'made.txt')), false);
    assert.deepEqual(approvals, [], 'refused before the user is asked about the command');
  });

  test("Copilot's format: a deny from .github/hooks refuses; a session-start hook of Claude's format gives the model context", async () => {
    const { workspace, emulator } = fixture;
    workspace.write(
      '.github/hooks/policy.json',
      JSON.stringify({
        version: 1,
        hooks: { preToolUse: [{ type: 'command', bash: 'echo \'{"permissionDecision":"deny","permissionDecisionReason":"read-only Friday"}\'' }] },
      }),
    );
    workspace.write('.claude/settings.json', settings({ SessionStart: [{ hooks: [hook('echo "branch: feature/x"')] }] }));
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] }, { text: 'ok' }]);
    const { hooks } = hooksFor(workspace, memory(), () => true);
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks }).engine, startSession('look'));
    const [first, second] = bodies();
    assert.deepEqual(first.input[1], {
      role: 'developer',
      content:
        'The workspace\'s session-start hooks said:\nOutput of the hook sessionStart "echo "branch: feature/x"" (.claude/settings.json):\nbranch: feature/x',
    });
    assert.match(outputs(second)[0], /refused this call: read-only Friday/);
  });

  test('bounds: a hook past its time is killed and the session goes on; output is cut at 16 KB; the API key is not in its environment', async () => {
    const { workspace, emulator } = fixture;
    workspace.write(
      '.claude/settings.json',
      settings({
        PostToolUse: [
          { hooks: [hook('echo "key=${GATEWAY_API_KEY:-none} home=${HOME:+set}" >&2; exit 2')] },
          { hooks: [hook('sleep 60', 1)] },
          { hooks: [hook('head -c 100000 /dev/zero | tr "\\0" x >&2; exit 2')] },
        ],
      }),
    );
    emulator.script('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] }, { text: 'ok' }]);
    const { hooks, logger } = hooksFor(workspace, memory(), () => true, { ...process.env, GATEWAY_API_KEY: 'sk-secret-1234' });
    const started = process.cpuUsage();
    const state = startSession('look');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks }).engine, state);
    assert.equal(state.status, 'done');
    assert.match(logger.lines.join('\n'), /sleep 60.*timed out after 1 s and was stopped/);
    const output = outputs(bodies()[1])[0];
    assert.match(output, /key=none home=set/);
    assert.doesNotMatch(output, /sk-secret/);
    assert.ok(output.length < 40_000, `bounded: ${output.length}`);
    assert.match(output, /\(cut: the hooks' output past 16384 bytes is left out\)$/);
    const cpu = process.cpuUsage(started);
    assert.ok(cpu.user + cpu.system < 5_000_000, 'the killed hook cost no busy wait');
  });

  test('a hook file the workspace changed into garbage is one log line; the session runs', async () => {
    const { workspace, emulator } = fixture;
    workspace.write('.claude/settings.json', '{"hooks": {"PostToolUse": [ {"matcher": "Edit", "hooks": [ ');
    emulator.script('demo-key', [{ text: 'ok' }]);
    const { hooks, logger } = hooksFor(workspace, memory(), () => true);
    const state = startSession('hi');
    await runToEnd(makeEngine({ baseUrl: emulator.baseUrl, workspace, hooks }).engine, state);
    assert.equal(state.status, 'done');
    assert.deepEqual(logger.lines.length, 1);
    assert.match(logger.lines[0], /^Hook file \.claude\/settings\.json: not valid JSON/);
    assert.equal(
      createHash('sha256')
        .update(readFileSync(join(workspace.root, '.claude/settings.json')))
        .digest('hex').length,
      64,
    );
  });
});
