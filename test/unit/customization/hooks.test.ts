// Hooks: both formats parsed (malformed and hostile files too), found in real folders, approved by content, and their answers read as the agents that wrote them mean.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { matcherMatches, parseClaudeHooks, parseCopilotHooks, type HookCommand } from '../../../src/customization/common/hookConfig';
import { findHooks } from '../../../src/customization/common/hookFiles';
import { countHookDecisions, forgetHookDecisions } from '../../../src/customization/common/hookDecisions';
import { hookInput, hookVerdict } from '../../../src/customization/common/hookProtocol';
import { APPROVED_HOOKS_KEY, HookApprovals, hookApprovalRequest, type HookMemory } from '../../../src/customization/common/hooks';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { TempWorkspace } from '../helpers/agent';

const signal = new AbortController().signal;
const claude = (hooks: unknown) => JSON.stringify({ permissions: { allow: [] }, hooks });
const command = (line: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: line, ...extra });

describe("Claude Code's hooks in .claude/settings.json", () => {
  test('events, matchers and timeouts become hooks; the time limit is capped at 30 s', () => {
    const parsed = parseClaudeHooks(
      claude({
        PostToolUse: [{ matcher: 'Edit|Write', hooks: [command('npx prettier --write "$(jq -r .tool_input.file_path)"', { timeout: 10 })] }],
        PreToolUse: [{ matcher: 'Bash', hooks: [command('./check.sh', { timeout: 600 })] }],
        SessionStart: [{ hooks: [command('git status --short')] }],
        Stop: [{ matcher: '', hooks: [command('echo bye')] }],
      }),
      '.claude/settings.json',
    );
    assert.deepEqual(parsed.notes, []);
    assert.deepEqual(
      parsed.hooks.map(({ event, matcher, command: line, timeoutMs }) => [event, matcher, line.slice(0, 11), timeoutMs]),
      [
        ['postToolUse', 'Edit|Write', 'npx prettie', 10_000],
        ['preToolUse', 'Bash', './check.sh', 30_000],
        ['sessionStart', undefined, 'git status ', 30_000],
        ['stop', undefined, 'echo bye', 30_000],
      ],
    );
    assert.deepEqual(parseClaudeHooks('{"permissions":{}}', 's.json'), { hooks: [], notes: [] }, 'a settings file without hooks says nothing');
  });

  test('malformed and hostile parts are notes, the rest is kept', () => {
    const parsed = parseClaudeHooks(
      claude({
        Notification: [{ hooks: [command('x')] }],
        PreToolUse: [
          { matcher: '(a+)+$', hooks: [command('x')] },
          { matcher: 'Bash', hooks: [{ type: 'prompt', prompt: 'judge' }, command(''), command('y'.repeat(2001)), command('ok')] },
          { matcher: 42, hooks: [command('x')] },
          'not an entry',
        ],
        PostToolUse: { not: 'a list' },
      }),
      'c.json',
    );
    assert.deepEqual(
      parsed.hooks.map((hook) => hook.command),
      ['ok'],
    );
    assert.equal(parsed.notes.length, 8, parsed.notes.join('\n'));
    assert.match(parsed.notes.join('\n'), /"Notification" event is not supported/);
    assert.match(parsed.notes.join('\n'), /uses more than tool names, \| and \.\*/);
    for (const text of ['{', '[1,2]', '\u0000\u0001binary', '{"hooks": "rm -rf /"}']) {
      const broken = parseClaudeHooks(text, 'c.json');
      assert.equal(broken.hooks.length, 0);
      assert.equal(broken.notes.length, 1, text);
    }
  });

  test('at most 32 hooks are kept from a file', () => {
    const parsed = parseClaudeHooks(claude({ PostToolUse: [{ hooks: Array.from({ length: 40 }, (_, i) => command(`echo ${i}`)) }] }), 'c.json');
    assert.equal(parsed.hooks.length, 32);
    assert.equal(parsed.notes.length, 8);
  });

  test("matchers: exact names, alternatives and .* against the tool's own and Claude Code's name", () => {
    assert.equal(matcherMatches(undefined, ['edit_file', 'Edit']), true);
    assert.equal(matcherMatches('Edit|Write', ['edit_file', 'Edit']), true);
    assert.equal(matcherMatches('Edit', ['edit_file', 'EditX']), false);
    assert.equal(matcherMatches('mcp__.*', ['mcp__github__search']), true);
    assert.equal(matcherMatches('mcp__.*__search', ['mcp__github__list']), false);
    assert.equal(matcherMatches('.*_file', ['write_file']), true);
  });
});

describe("Copilot's hooks in .github/hooks/*.json", () => {
  test('version 1 with bash lines, cwd, env and timeoutSec; powershell-only and unknown events are notes', () => {
    const text = JSON.stringify({
      version: 1,
      hooks: {
        postToolUse: [{ type: 'command', bash: './lint.sh', cwd: 'scripts', timeoutSec: 5 }],
        preToolUse: [
          { type: 'command', powershell: 'x.ps1' },
          { type: 'command', bash: 'guard', env: { A: '1' } },
        ],
        errorOccurred: [{ type: 'command', bash: 'x' }],
        sessionStart: [{ type: 'command', bash: 'x', cwd: '../outside' }],
      },
    });
    const parsed = parseCopilotHooks(text, '.github/hooks/a.json', { platform: 'linux' });
    assert.deepEqual(
      parsed.hooks.map(({ event, cwd, timeoutMs, format, command: line }) => [event, line, cwd, timeoutMs, format]),
      [
        ['postToolUse', './lint.sh', 'scripts', 5000, 'copilot'],
        ['preToolUse', 'guard', '.', 30_000, 'copilot'],
      ],
    );
    assert.deepEqual(parsed.hooks[1].env, { A: '1' });
    assert.equal(parsed.notes.length, 3, parsed.notes.join('\n'));
    assert.match(parseCopilotHooks('{"version":2,"hooks":{}}', 'h.json', { platform: 'linux' }).notes[0], /only "version": 1/);
  });

  test('the line under "command", as the current Copilot hook files write it (github/awesome-copilot hooks/*/hooks.json)', () => {
    const text = JSON.stringify({
      version: 1,
      hooks: {
        sessionEnd: [{ type: 'command', command: '.github/hooks/secrets-scanner/scan-secrets.sh', cwd: '.', env: { SCAN_MODE: 'warn' }, timeoutSec: 30 }],
        // Both given: `bash` is the line for this platform.
        sessionStart: [{ type: 'command', bash: 'echo bash', command: 'echo command' }],
      },
    });
    const parsed = parseCopilotHooks(text, '.github/hooks/secrets-scanner/hooks.json', { platform: 'linux' });
    assert.deepEqual(
      parsed.hooks.map(({ event, command: line, timeoutMs }) => [event, line, timeoutMs]),
      [
        ['sessionEnd', '.github/hooks/secrets-scanner/scan-secrets.sh', 30_000],
        ['sessionStart', 'echo bash', 30_000],
      ],
    );
    assert.deepEqual(parsed.notes, []);
  });
});

describe('finding hook files in a real folder', () => {
  let workspace: TempWorkspace;
  let outside: string;
  beforeEach(() => {
    workspace = new TempWorkspace();
    outside = mkdtempSync(join(tmpdir(), 'gateway-hooks-outside-'));
  });
  afterEach(() => {
    workspace.dispose();
    rmSync(outside, { recursive: true, force: true });
  });
  const found = () => findHooks(new NodeWorkspaceFiles(workspace.root), { protectedFiles: defaultProtectedFiles, platform: 'linux' }, signal);

  test('both formats together; huge, binary, symlinked-out, hard-linked and protected files are one note each', async () => {
    workspace.write('.claude/settings.json', claude({ PostToolUse: [{ matcher: 'Edit', hooks: [command('echo fmt')] }] }));
    workspace.write('.github/hooks/lint.json', JSON.stringify({ version: 1, hooks: { postToolUse: [{ type: 'command', bash: 'echo lint' }] } }));
    workspace.write('.github/hooks/huge.json', `{"version":1,"hooks":{},"pad":"${'x'.repeat(70_000)}"}`);
    workspace.write('.github/hooks/binary.json', '\u0000\u0001\u0002');
    writeFileSync(join(outside, 'evil.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'steal' }] } }));
    symlinkSync(join(outside, 'evil.json'), join(workspace.root, '.github/hooks/link.json'));
    linkSync(join(workspace.root, '.github/hooks/lint.json'), join(workspace.root, '.github/hooks/twin.json'));
    workspace.write('.github/hooks/note.txt', 'not json, not read');
    const hooks = await found();
    assert.deepEqual(
      hooks.hooks.map((hook) => hook.command),
      ['echo fmt'],
      'the hard-linked lint.json has two names: refused as its twin is',
    );
    assert.deepEqual(hooks.files, ['.claude/settings.json']);
    const notes = hooks.notes.join('\n');
    assert.match(notes, /binary\.json: it is binary/);
    assert.match(notes, /huge\.json: it has \d+ bytes \(more than 65536\)/);
    assert.match(notes, /link\.json: it (leads outside the workspace|is not a file)/);
    assert.match(notes, /lint\.json: it has more than one name/);
    assert.doesNotMatch(notes, /note\.txt/);
    const protectedOnly = await findHooks(new NodeWorkspaceFiles(workspace.root), { protectedFiles: ['.claude/**'], platform: 'linux' }, signal);
    assert.match(protectedOnly.notes.join('\n'), /\.claude\/settings\.json: it is a protected file/);
  });

  test('a folder named like a hook file and an empty workspace give nothing and no error', async () => {
    mkdirSync(join(workspace.root, '.claude/settings.json'), { recursive: true });
    const hooks = await found();
    assert.deepEqual(hooks.hooks, []);
    assert.match(hooks.notes.join('\n'), /it is not a file/);
  });
});

describe('approval by content', () => {
  const digest = (text: string) => createHash('sha256').update(text).digest('hex');
  const hook = (line: string): HookCommand => ({
    event: 'postToolUse',
    format: 'claude',
    command: line,
    cwd: '.',
    timeoutMs: 30_000,
    source: '.claude/settings.json',
  });
  const memory = (): HookMemory & { values: Map<string, unknown> } => {
    const values = new Map<string, unknown>();
    return { values, get: <T>(key: string) => values.get(key) as T | undefined, update: async (key, value) => void values.set(key, value) };
  };

  /** Hooks that name no file, in the workspace /ws. */
  const noFiles = async (hooks: readonly HookCommand[]) => hooks.map(() => ({ folder: '/ws', files: [] }));
  const commands = (approved: { hook: HookCommand }[]) => approved.map(({ hook: approvedHook }) => approvedHook);

  test('asked once for what is new; a changed command asks again; a refusal leaves only the approved ones', async () => {
    const kept = memory();
    const asked: string[][] = [];
    let answer = true;
    const approvals = new HookApprovals(kept, async (hooks) => (asked.push(hooks.map((h) => h.command)), answer), digest, noFiles);
    assert.deepEqual(commands(await approvals.approved([hook('fmt')], signal)), [hook('fmt')]);
    assert.deepEqual(commands(await approvals.approved([hook('fmt')], signal)), [hook('fmt')], 'not asked again');
    answer = false;
    assert.deepEqual(commands(await approvals.approved([hook('fmt'), hook('fmt && curl evil')], signal)), [hook('fmt')]);
    assert.deepEqual(asked, [['fmt'], ['fmt && curl evil']]);
    assert.deepEqual(kept.values.get(APPROVED_HOOKS_KEY), [digest(JSON.stringify(['claude', 'postToolUse', '', 'fmt', '.', 30_000, '/ws', []]))]);
    const content = { folder: '/ws', files: [] };
    const fmt = approvals.identity(hook('fmt'), content);
    assert.notEqual(approvals.identity({ ...hook('fmt'), timeoutMs: 29_000 }, content), fmt, 'what decides how it runs is part of its identity');
    assert.notEqual(approvals.identity({ ...hook('fmt'), event: 'preToolUse' }, content), fmt);
    assert.notEqual(approvals.identity(hook('fmt'), { folder: '/other', files: [] }), fmt, 'and the folder it belongs to');
  });

  test('Forget Hook Approvals and Denials: a hook approved and one denied are both asked about again (issue 38)', async () => {
    const kept = memory();
    const asked: string[] = [];
    const approvals = new HookApprovals(kept, async (hooks) => (asked.push(hooks[0].command), hooks[0].command === 'fmt'), digest, noFiles);
    await approvals.approved([hook('fmt'), hook('upload')], signal);
    await approvals.approved([hook('fmt'), hook('upload')], signal);
    assert.deepEqual(asked, ['fmt', 'upload'], 'each decision kept');
    assert.deepEqual(countHookDecisions(kept), { approvals: 1, denials: 1 });
    assert.deepEqual(await forgetHookDecisions(kept), { approvals: 1, denials: 1 });
    assert.deepEqual(countHookDecisions(kept), { approvals: 0, denials: 0 });
    assert.deepEqual(commands(await approvals.approved([hook('fmt'), hook('upload')], signal)), [hook('fmt')]);
    assert.deepEqual(asked, ['fmt', 'upload', 'fmt', 'upload'], 'asked again');
    kept.values.set(APPROVED_HOOKS_KEY, 'not a list');
    assert.deepEqual(countHookDecisions(kept).approvals, 0);
  });

  test('a hostile value in the memory is no approval', async () => {
    const kept = memory();
    kept.values.set(APPROVED_HOOKS_KEY, { not: 'a list' });
    const approvals = new HookApprovals(kept, async () => false, digest, noFiles);
    assert.deepEqual(await approvals.approved([hook('fmt')], signal), []);
  });

  test('the approval shows every command with when it runs and its file', () => {
    const request = hookApprovalRequest('s1', 'hooks-1', [{ ...hook('npx prettier --write x'), matcher: 'Edit|Write', timeoutMs: 10_000 }]);
    assert.equal(request.summary, 'Run a hook of this workspace (.claude/settings.json)');
    assert.equal(request.command?.line.split('\n')[1], '# postToolUse of Edit|Write, in ., at most 10 s:');
    assert.equal(request.command?.line.split('\n')[2], 'npx prettier --write x');
  });
});

describe("a hook's input and answer", () => {
  const base = { sessionId: 's1', root: '/work/ws', now: 1000 };
  const claudeHook = (event: HookCommand['event']): HookCommand => ({ event, format: 'claude', command: 'x', cwd: '.', timeoutMs: 5000, source: 'c' });
  const copilotHook = (event: HookCommand['event']): HookCommand => ({ ...claudeHook(event), format: 'copilot' });
  const ran = (exitCode: number, stdout = '', stderr = '') => ({ exitCode, stdout, stderr, timedOut: false });

  test("stdin in each agent's names: Claude's tool_name and file_path, Copilot's toolName and toolArgs", () => {
    const tool = { name: 'edit_file', arguments: '{"path":"src/a.ts","old":"x"}' };
    assert.deepEqual(JSON.parse(hookInput(claudeHook('postToolUse'), { ...base, tool, result: { ok: true, output: 'Edited' } })), {
      session_id: 's1',
      cwd: '/work/ws',
      hook_event_name: 'PostToolUse',
      tool_name: 'Edit',
      tool_input: { path: 'src/a.ts', old: 'x', file_path: '/work/ws/src/a.ts' },
      tool_response: { success: true, output: 'Edited' },
    });
    assert.deepEqual(JSON.parse(hookInput(copilotHook('preToolUse'), { ...base, tool })), {
      timestamp: 1000,
      cwd: '/work/ws',
      toolName: 'edit_file',
      toolArgs: tool.arguments,
    });
  });

  test('exit 2 blocks with stderr; JSON deny and block refuse; "allow" grants nothing; other exits are problems, not refusals', () => {
    assert.deepEqual(hookVerdict(claudeHook('preToolUse'), ran(2, '', 'no edits to generated files\n')), { refusal: 'no edits to generated files' });
    const deny = { hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: 'deny', permissionDecisionReason: 'frozen' } };
    assert.deepEqual(hookVerdict(claudeHook('preToolUse'), ran(0, JSON.stringify(deny))), { refusal: 'frozen' });
    assert.deepEqual(hookVerdict(claudeHook('preToolUse'), ran(0, '{"decision":"block","reason":"old style"}')), { refusal: 'old style' });
    assert.deepEqual(hookVerdict(claudeHook('preToolUse'), ran(0, '{"hookSpecificOutput":{"permissionDecision":"allow"}}')), {});
    assert.deepEqual(hookVerdict(copilotHook('preToolUse'), ran(0, '{"permissionDecision":"deny","permissionDecisionReason":"policy"}')), {
      refusal: 'policy',
    });
    assert.match(hookVerdict(claudeHook('preToolUse'), ran(1, '', 'crashed')).problem ?? '', /exited with 1: crashed/);
    assert.equal(hookVerdict(copilotHook('preToolUse'), ran(2, '', 'x')).refusal, undefined, "exit 2 is Claude Code's convention, not Copilot's");
    assert.match(hookVerdict(claudeHook('preToolUse'), { exitCode: undefined, stdout: '', stderr: '', timedOut: true }).problem ?? '', /timed out after 5 s/);
  });

  test("after a call: exit 2's stderr, block's reason and additionalContext reach the model; plain stdout only at session start", () => {
    assert.deepEqual(hookVerdict(claudeHook('postToolUse'), ran(2, '', 'src/a.ts:3 missing semicolon')), { context: 'src/a.ts:3 missing semicolon' });
    assert.deepEqual(hookVerdict(claudeHook('postToolUse'), ran(0, '{"decision":"block","reason":"lint failed"}')), { context: 'lint failed' });
    const added = { hookSpecificOutput: { hookEventName: 'PostToolUse', additionalContext: 'formatted 1 file' } };
    assert.deepEqual(hookVerdict(claudeHook('postToolUse'), ran(0, JSON.stringify(added))), { context: 'formatted 1 file' });
    assert.deepEqual(hookVerdict(claudeHook('postToolUse'), ran(0, 'plain output')), {});
    assert.deepEqual(hookVerdict(claudeHook('sessionStart'), ran(0, 'branch main, 2 files changed\n')), { context: 'branch main, 2 files changed' });
    assert.deepEqual(hookVerdict(claudeHook('postToolUse'), ran(0, '{ not json')), {});
  });

  test("a prompt hook (Claude Code's UserPromptSubmit): plain stdout and additionalContext are context; exit 2 and block refuse; Copilot's output is not read", () => {
    const hook = claudeHook('userPromptSubmitted');
    assert.deepEqual(hookVerdict(hook, ran(0, 'ticket PROJ-12 is in review\n')), { context: 'ticket PROJ-12 is in review' });
    const added = { hookSpecificOutput: { hookEventName: 'UserPromptSubmit', additionalContext: 'on call: ana' } };
    assert.deepEqual(hookVerdict(hook, ran(0, JSON.stringify(added))), { context: 'on call: ana' });
    assert.deepEqual(hookVerdict(hook, ran(2, '', 'the prompt holds an API key\n')), { refusal: 'the prompt holds an API key' });
    assert.deepEqual(hookVerdict(hook, ran(0, '{"decision":"block","reason":"no deploys on Friday"}')), { refusal: 'no deploys on Friday' });
    assert.deepEqual(hookVerdict(copilotHook('userPromptSubmitted'), ran(0, JSON.stringify({ additionalContext: 'x' }))), {});
    assert.equal(hookVerdict(copilotHook('userPromptSubmitted'), ran(2, '', 'x')).refusal, undefined);
  });
});
