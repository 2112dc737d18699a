// Hooks, part two: Codex's hooks.json parsed (malformed and hostile files too), the user's home hook files found in a
// real temp home folder (huge, binary, symlinked-out or reached through a symlink: one note each), Codex's tool names
// and the Stop hook's input, and what a Stop hook's answer means (exit 2, decision "block", continue false).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, test } from 'node:test';
import { matcherMatches, parseCodexHooks, type HookCommand } from '../../../src/customization/common/hookConfig';
import { findHooks } from '../../../src/customization/common/hookFiles';
import { hookInput, hookVerdict, matcherNames } from '../../../src/customization/common/hookProtocol';
import { hookApprovalRequest } from '../../../src/customization/common/hooks';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { putFiles } from '../helpers/workspaceFixture';

const signal = new AbortController().signal;
const command = (line: string, extra: Record<string, unknown> = {}) => ({ type: 'command', command: line, ...extra });
const codex = (hooks: unknown) => JSON.stringify({ hooks });

describe("Codex's hooks.json", () => {
  test("Claude Code's shape with Codex's names: matchers, timeout or timeoutSec (capped at 30 s); unsupported events are notes", () => {
    const parsed = parseCodexHooks(
      codex({
        PreToolUse: [{ matcher: 'Bash', hooks: [command('./guard.sh', { timeoutSec: 5 })] }],
        PostToolUse: [{ matcher: 'apply_patch|mcp__.*', hooks: [command('npx prettier --check .', { timeout: 90 })] }],
        Stop: [{ hooks: [command('./verify.sh', { statusMessage: 'checking' })] }],
        UserPromptSubmit: [{ hooks: [command('x')] }],
        PermissionRequest: [{ hooks: [command('x')] }],
      }),
      '.codex/hooks.json',
    );
    assert.deepEqual(
      parsed.hooks.map(({ event, format, matcher, timeoutMs }) => [event, format, matcher, timeoutMs]),
      [
        ['preToolUse', 'codex', 'Bash', 5_000],
        ['postToolUse', 'codex', 'apply_patch|mcp__.*', 30_000],
        ['stop', 'codex', undefined, 30_000],
        ['userPromptSubmitted', 'codex', undefined, 30_000],
      ],
    );
    assert.equal(parsed.notes.length, 1);
    assert.match(parsed.notes.join('\n'), /"PermissionRequest" event is not supported/);
  });

  test('malformed and hostile files are one note each and give no hook', () => {
    for (const text of ['{', '[]', '\u0000\u0001', '{"hooks": "rm -rf /"}', codex({ Stop: [{ matcher: '(a+)+$', hooks: [command('x')] }] })]) {
      const parsed = parseCodexHooks(text, '.codex/hooks.json');
      assert.equal(parsed.hooks.length, 0, text);
      assert.equal(parsed.notes.length, 1, text);
    }
    assert.deepEqual(parseCodexHooks('{"model":"o3"}', '.codex/hooks.json'), { hooks: [], notes: [] });
  });

  test("matchers see our tool's own, Claude Code's and Codex's names", () => {
    assert.deepEqual(matcherNames('edit_file'), ['edit_file', 'Edit', 'apply_patch']);
    assert.deepEqual(matcherNames('run_command'), ['run_command', 'Bash']);
    assert.equal(matcherMatches('apply_patch', matcherNames('write_file')), true);
    assert.equal(matcherMatches('apply_patch', matcherNames('read_file')), false);
  });
});

describe("the user's home hook files", () => {
  let home: string;
  let outside: string;
  beforeEach(() => {
    home = mkdtempSync(join(tmpdir(), 'gw-hooks-home-'));
    outside = mkdtempSync(join(tmpdir(), 'gw-hooks-outside-'));
  });
  afterEach(() => {
    rmSync(home, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });
  const found = () => findHooks(new NodeWorkspaceFiles(home), { protectedFiles: defaultProtectedFiles, platform: 'linux', place: 'home' }, signal);

  test("Claude Code's, Codex's and Copilot's user files, named ~/…; settings.local.json is not read in the home folder", async () => {
    await putFiles(home, {
      '.claude/settings.json': JSON.stringify({ hooks: { Stop: [{ hooks: [command('echo claude')] }] } }),
      '.claude/settings.local.json': JSON.stringify({ hooks: { Stop: [{ hooks: [command('echo local')] }] } }),
      '.codex/hooks.json': codex({ SessionStart: [{ hooks: [command('echo codex')] }] }),
      '.copilot/hooks/a.json': JSON.stringify({ version: 1, hooks: { sessionEnd: [{ type: 'command', bash: 'echo copilot' }] } }),
    });
    const hooks = await found();
    assert.deepEqual(
      hooks.hooks.map((hook) => [hook.command, hook.format, hook.source, hook.cwd]),
      [
        ['echo claude', 'claude', '~/.claude/settings.json', '.'],
        ['echo codex', 'codex', '~/.codex/hooks.json', '.'],
        ['echo copilot', 'copilot', '~/.copilot/hooks/a.json', '.'],
      ],
    );
    assert.deepEqual(hooks.files, ['~/.claude/settings.json', '~/.codex/hooks.json', '~/.copilot/hooks/a.json']);
    assert.deepEqual(hooks.notes, []);
  });

  test('huge, binary, a symlink out, a symlink inside and a symlinked hooks folder: one note each, nothing read', async () => {
    await putFiles(home, {
      '.claude/settings.json': `{"hooks":{},"pad":"${'x'.repeat(70_000)}"}`,
      '.codex/hooks.json': '\u0000binary',
      'real/b.json': JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'inside' }] } }),
    });
    writeFileSync(join(outside, 'evil.json'), JSON.stringify({ version: 1, hooks: { preToolUse: [{ type: 'command', bash: 'steal' }] } }));
    mkdirSync(join(home, '.copilot/hooks'), { recursive: true });
    symlinkSync(join(outside, 'evil.json'), join(home, '.copilot/hooks/a.json'));
    symlinkSync(join(home, 'real/b.json'), join(home, '.copilot/hooks/b.json'));
    const hooks = await found();
    assert.deepEqual(hooks.hooks, []);
    const notes = hooks.notes.join('\n');
    assert.match(notes, /~\/\.claude\/settings\.json: it has \d+ bytes \(more than 65536\)/);
    assert.match(notes, /~\/\.codex\/hooks\.json: it is binary/);
    assert.match(notes, /~\/\.copilot\/hooks\/a\.json: it (leads outside the home folder|is not a file)/);
    assert.match(notes, /~\/\.copilot\/hooks\/b\.json: it (is reached through a symlink|is not a file)/);

    rmSync(join(home, '.copilot'), { recursive: true });
    mkdirSync(join(home, '.copilot'));
    symlinkSync(join(home, 'real'), join(home, '.copilot/hooks'));
    const throughFolder = await found();
    assert.deepEqual(throughFolder.hooks, [], 'a hooks folder that is a symlink leads nowhere');
  });

  test('a protected home file is not read', async () => {
    await putFiles(home, { '.codex/hooks.json': codex({ Stop: [{ hooks: [command('x')] }] }) });
    const hooks = await findHooks(new NodeWorkspaceFiles(home), { protectedFiles: ['.codex/**'], platform: 'linux', place: 'home' }, signal);
    assert.deepEqual(hooks.hooks, []);
    assert.match(hooks.notes.join('\n'), /~\/\.codex\/hooks\.json: it is a protected file/);
  });
});

describe('a Stop hook and Codex input', () => {
  const stopHook = (format: HookCommand['format']): HookCommand => ({
    event: 'stop',
    format,
    command: './verify.sh',
    cwd: '.',
    timeoutMs: 30_000,
    source: 'x',
  });
  const ran = (exitCode: number, stdout = '', stderr = '') => ({ exitCode, stdout, stderr, timedOut: false });

  test('exit 2 with stderr or decision "block" with a reason keeps the session going; without a reason, continue false or Copilot: it ends', () => {
    assert.deepEqual(hookVerdict(stopHook('claude'), ran(2, '', 'tests fail\n')), { continuation: 'tests fail' });
    assert.deepEqual(hookVerdict(stopHook('codex'), ran(0, '{"decision":"block","reason":"lint first"}')), { continuation: 'lint first' });
    assert.match(hookVerdict(stopHook('codex'), ran(2)).problem ?? '', /wrote no reason on stderr/);
    assert.match(hookVerdict(stopHook('claude'), ran(0, '{"decision":"block"}')).problem ?? '', /without a "reason"/);
    assert.deepEqual(hookVerdict(stopHook('claude'), ran(0, '{"decision":"block","reason":"x","continue":false}')), {});
    assert.deepEqual(hookVerdict(stopHook('claude'), ran(0, 'plain text')), {});
    assert.equal(hookVerdict(stopHook('copilot'), ran(2, '', 'x')).continuation, undefined);
  });

  test("Codex's input names our tools its way; the Stop input carries stop_hook_active and the last answer", () => {
    const hook: HookCommand = { event: 'preToolUse', format: 'codex', command: 'x', cwd: '.', timeoutMs: 1000, source: '.codex/hooks.json' };
    const input = JSON.parse(hookInput(hook, { sessionId: 's', root: '/w', now: 0, tool: { name: 'edit_file', arguments: '{"path":"a.ts"}' } }));
    assert.deepEqual(input, {
      session_id: 's',
      cwd: '/w',
      hook_event_name: 'PreToolUse',
      tool_name: 'apply_patch',
      tool_input: { path: 'a.ts', file_path: '/w/a.ts' },
    });
    const stop = JSON.parse(hookInput(stopHook('codex'), { sessionId: 's', root: '/w', now: 0, stopHookActive: true, lastMessage: 'done' }));
    assert.deepEqual(stop, { session_id: 's', cwd: '/w', hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: 'done' });
  });

  test("the approval says whose hooks they are: the workspace's, the home folder's, or both", () => {
    const at = (source: string): HookCommand => ({ ...stopHook('claude'), source });
    assert.match(hookApprovalRequest('s', 'c', [at('~/.claude/settings.json')]).summary, /^Run a hook of your home folder \(~\/\.claude\/settings\.json\)$/);
    const both = hookApprovalRequest('s', 'c', [at('.claude/settings.json'), at('~/.codex/hooks.json')]);
    assert.equal(both.summary, 'Run 2 hooks of this workspace and your home folder (.claude/settings.json, ~/.codex/hooks.json)');
    assert.match(both.command?.line ?? '', /^# Hooks of this workspace and your home folder/);
  });
});
