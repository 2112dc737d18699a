// The agent terminal's command line per shell (shellCommandLine.ts) and the wait on a typed command:
// timeout, Stop, and abandoning a terminal whose program ignores Ctrl-C (executionSupervisor.ts).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { superviseExecution, type ExecutionControl } from '../../../src/terminal/common/executionSupervisor';
import { commandLineFor, shellKindOf } from '../../../src/terminal/common/shellCommandLine';
import { plainTerminalText } from '../../../src/terminal/node/terminalText';
import { VirtualClock } from '../helpers/clock';

void describe('shell kind', () => {
  void it('follows the type VS Code detected', () => {
    assert.equal(shellKindOf('pwsh', '/bin/bash'), 'powershell');
    assert.equal(shellKindOf('cmd', undefined), 'cmd');
    assert.equal(shellKindOf('fish', undefined), 'fish');
    for (const detected of ['bash', 'zsh', 'sh', 'gitbash', 'ksh', 'csh']) assert.equal(shellKindOf(detected, undefined), 'posix');
  });

  void it('falls back to the shell executable while the type is unknown', () => {
    assert.equal(shellKindOf(undefined, 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe'), 'powershell');
    assert.equal(shellKindOf(undefined, 'C:\\Program Files\\PowerShell\\7\\pwsh.exe'), 'powershell');
    assert.equal(shellKindOf(undefined, 'C:\\Windows\\System32\\cmd.exe'), 'cmd');
    assert.equal(shellKindOf(undefined, '/usr/local/bin/fish'), 'fish');
    assert.equal(shellKindOf(undefined, '/bin/zsh'), 'posix');
    assert.equal(shellKindOf(undefined, undefined), 'posix');
  });
});

void describe('command line per shell', () => {
  const tricky = "/home/o'neil/my proj";

  void it('PowerShell: Set-Location and `;` (5.1 rejects `&&`), quotes doubled', () => {
    assert.equal(commandLineFor('powershell', 'C:\\work\\my proj', 'npm test'), "Set-Location -LiteralPath 'C:\\work\\my proj' -ErrorAction Stop; npm test");
    assert.equal(commandLineFor('powershell', "C:\\O'Neil\\a\u2019b", 'dir'), "Set-Location -LiteralPath 'C:\\O''Neil\\a\u2019\u2019b' -ErrorAction Stop; dir");
    assert.ok(!commandLineFor('powershell', 'C:\\x', 'a').includes('&&'));
  });

  void it('cmd.exe: cd /d with double quotes', () => {
    assert.equal(commandLineFor('cmd', 'D:\\my proj', 'npm test'), 'cd /d "D:\\my proj" && npm test');
  });

  void it('POSIX and fish: cd with single quotes, `&&`', () => {
    assert.equal(commandLineFor('posix', tricky, 'git log'), "cd '/home/o'\\''neil/my proj' && git log");
    assert.equal(commandLineFor('fish', tricky, 'git log'), "cd '/home/o\\'neil/my proj' && git log");
    assert.equal(commandLineFor('fish', '/a\\b', 'ls'), "cd '/a\\\\b' && ls");
  });

  void it('POSIX: bash enters a folder with spaces, quotes and $ in its name', () => {
    const root = mkdtempSync(join(tmpdir(), 'gw-cmdline-'));
    try {
      const folder = join(root, "it's a $HOME `dir`");
      mkdirSync(folder);
      assert.equal(execFileSync('bash', ['-c', commandLineFor('posix', folder, 'pwd')], { encoding: 'utf8' }).trim(), folder);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

/** A command under test: `end` finishes it; records Ctrl-C and abandonment. */
function fakeExecution() {
  let end: (exitCode: number | undefined) => void = () => undefined;
  const calls: string[] = [];
  const control: ExecutionControl = {
    ended: new Promise((resolve) => (end = resolve)),
    interrupt: () => calls.push('ctrl-c'),
    abandon: () => calls.push('abandon'),
  };
  return { control, calls, end: (exitCode: number | undefined) => end(exitCode) };
}

const never = new AbortController().signal;
/** Lets the supervisor see a command's end (a promise settling) before time moves. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

void describe('supervising a typed command', () => {
  void it('returns the exit code when the command ends in time', async () => {
    const run = fakeExecution();
    const clock = new VirtualClock();
    const outcome = superviseExecution(run.control, { timeoutMs: 1000, graceMs: 1000, signal: never, clock });
    clock.advance(999);
    run.end(3);
    await settle();
    clock.advance(5000);
    assert.deepEqual(await outcome, { exitCode: 3, timedOut: false });
    assert.deepEqual(run.calls, []);
  });

  void it('on timeout sends Ctrl-C and keeps the terminal when the command then ends', async () => {
    const run = fakeExecution();
    const clock = new VirtualClock();
    const outcome = superviseExecution(run.control, { timeoutMs: 10, graceMs: 1000, signal: never, clock });
    clock.advance(9);
    assert.deepEqual(run.calls, []);
    clock.advance(1);
    assert.deepEqual(run.calls, ['ctrl-c']);
    clock.advance(20);
    run.end(130);
    await settle();
    clock.advance(5000);
    assert.deepEqual(await outcome, { exitCode: 130, timedOut: true });
    assert.deepEqual(run.calls, ['ctrl-c']);
  });

  void it('on timeout abandons the terminal when Ctrl-C is ignored (a pager)', async () => {
    const run = fakeExecution();
    const clock = new VirtualClock();
    const started = clock.now();
    const outcome = superviseExecution(run.control, { timeoutMs: 10, graceMs: 30, signal: never, clock });
    clock.advance(39);
    assert.deepEqual(run.calls, ['ctrl-c']);
    clock.advance(1);
    assert.deepEqual(await outcome, { exitCode: undefined, timedOut: true });
    assert.deepEqual(run.calls, ['ctrl-c', 'abandon']);
    assert.equal(clock.now() - started, 40);
  });

  void it('on Stop rejects at once with the reason, then abandons the terminal if the command goes on', async () => {
    const run = fakeExecution();
    const stop = new AbortController();
    const clock = new VirtualClock();
    const outcome = superviseExecution(run.control, { timeoutMs: 10_000, graceMs: 40, signal: stop.signal, clock });
    const reason = new Error('stopped by the user');
    stop.abort(reason);
    await assert.rejects(outcome, (error) => error === reason);
    assert.deepEqual(run.calls, ['ctrl-c']);
    clock.advance(39);
    assert.deepEqual(run.calls, ['ctrl-c']);
    clock.advance(1);
    assert.deepEqual(run.calls, ['ctrl-c', 'abandon']);
    clock.advance(20_000);
    assert.deepEqual(run.calls, ['ctrl-c', 'abandon'], 'the cancelled timeout does not send a second Ctrl-C');
  });

  void it('on Stop keeps the terminal when Ctrl-C ends the command', async () => {
    const run = fakeExecution();
    const stop = new AbortController();
    const clock = new VirtualClock();
    const outcome = superviseExecution(run.control, { timeoutMs: 10_000, graceMs: 40, signal: stop.signal, clock });
    stop.abort();
    await assert.rejects(outcome, { name: 'AbortError' });
    run.end(130);
    await settle();
    clock.advance(20_000);
    assert.deepEqual(run.calls, ['ctrl-c']);
  });

  void it('rejects at once when already stopped', async () => {
    const run = fakeExecution();
    const stop = new AbortController();
    stop.abort();
    await assert.rejects(superviseExecution(run.control, { timeoutMs: 10_000, graceMs: 10, signal: stop.signal, clock: new VirtualClock() }), {
      name: 'AbortError',
    });
    run.end(0);
  });
});

void describe('terminal output for the model', () => {
  void it('drops colours, shell-integration marks (their command line too), titles and carriage returns', () => {
    const output = '\x1b]633;E;ls -la /tmp;nonce-1\x07\x1b]633;C\x07\x1b[01;34mhello\x1b[0m world\r\n\x1b]0;a title\x1b\\\x1b(Bdone\x1b[?25h';
    assert.equal(plainTerminalText(output), 'hello world\ndone');
  });
});
