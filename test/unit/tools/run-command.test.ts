// Commands: the denied-command parser the approval policy relies on, and run_command over a real shell.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { needsApproval } from '../../../src/agent/common/approvals/approvalPolicy';
import { DEFAULT_DENIED_COMMANDS } from '../../../src/settings/common/gatewaySettings';
import { findDeniedCommand } from '../../../src/terminal/common/commandPolicy';
import { LINGERING_REASON } from '../../../src/terminal/common/commandPorts';
import { allTools } from '../../../src/tools/common/registry';
import { outputTailBytes } from '../../../src/tools/common/runCommand';
import { type ToolContext } from '../../../src/tools/common/tool';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../../src/terminal/node/nodeCommandRunner';
import { NodeFileChanges } from '../../../src/tools/node/nodeFileChanges';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { silentLogger } from '../../../src/base/common/ports';

const denied = ['rm -rf', 'git push', 'curl', 'sudo'];

describe('findDeniedCommand', () => {
  const found: [string, string, string][] = [
    ['plain', 'rm -rf build', 'rm -rf build'],
    ['options grouped the other way', 'rm -fr build', 'rm -fr build'],
    ['options apart', 'rm -r -f build', 'rm -r -f build'],
    ['upper-case R', 'rm -Rf build', 'rm -Rf build'],
    ['after &&', 'npm test && git push origin main', 'git push origin main'],
    ['after ||', 'make || rm -rf out', 'rm -rf out'],
    ['after ;', 'echo hi; curl https://x.example', 'curl https://x.example'],
    ['after |', 'cat list | curl -d @- https://x.example', 'curl -d @- https://x.example'],
    ['after & (background)', 'sleep 1 & rm -rf /tmp/x', 'rm -rf /tmp/x'],
    ['after a newline', 'echo one\nrm -rf two', 'rm -rf two'],
    ['after |&', 'make |& curl -T - x', 'curl -T - x'],
    ['inside $( )', 'echo $(curl -s https://x.example)', 'curl -s https://x.example'],
    ['inside $( ) within double quotes', 'echo "result: $(rm -rf ~)"', 'rm -rf ~'],
    ['inside backticks', 'echo `git push`', 'git push'],
    ['inside a ( ) subshell', '(cd sub && rm -rf dist)', 'rm -rf dist'],
    ['inside { } group', '{ echo a; rm -rf b; }', 'rm -rf b'],
    ['nested substitutions', 'echo $(echo $(curl x))', 'curl x'],
    ['inside ${ } defaults', 'echo ${X:-$(curl evil)}', 'curl evil'],
    ['inside <( ) process substitution', 'diff <(curl a) b', 'curl a'],
    ["bash -c '…'", "bash -c 'cd x && rm -rf y'", 'rm -rf y'],
    ['sh -c "…"', 'sh -c "git push --force"', 'git push --force'],
    ['bash -lc', "bash -lc 'curl x'", 'curl x'],
    ['bash -c inside bash -c', `bash -c "sh -c 'rm -rf z'"`, 'rm -rf z'],
    ['eval', "eval 'rm -rf x'", 'rm -rf x'],
    ['an env assignment first', 'FOO=1 BAR="a b" rm -rf x', 'rm -rf x'],
    ['an absolute path', '/bin/rm -rf x', '/bin/rm -rf x'],
    ['a relative path', './node_modules/.bin/curl x', './node_modules/.bin/curl x'],
    ['a quoted command name', "'rm' -rf x", "'rm' -rf x"],
    ['an escaped command name', '\\rm -rf x', '\\rm -rf x'],
    ['git options before the subcommand', 'git -C ../repo push', 'git -C ../repo push'],
    ['behind sudo (itself denied)', 'sudo apt install x', 'sudo apt install x'],
    ['behind env', 'env -i PATH=/bin rm -rf x', 'rm -rf x'],
    ['behind timeout', 'timeout 5 curl x', 'curl x'],
    ['behind xargs', 'find . -name "*.o" | xargs rm -rf', 'rm -rf'],
    ['behind nohup and nice', 'nohup nice -n 5 git push &', 'git push'],
    ['in find -exec', 'find . -type d -exec rm -rf {} +', 'rm -rf {}'],
    ['in an if', 'if true; then curl x; fi', 'curl x'],
    ['in a for loop', 'for d in a b; do rm -rf $d; done', 'rm -rf $d'],
    ['in a function body', 'f() { curl x; }; f', 'curl x'],
    ['after a redirection', 'echo hi 2>&1 > out.txt && curl x', 'curl x'],
    ['with a redirection first', '>log rm -rf x', 'rm -rf x'],
    ['a line continuation', 'rm \\\n  -rf x', 'rm -rf x'],
    ['a name computed at run time', '$CMD -rf x', '$CMD -rf x'],
    ['a name from a substitution', '"$(which rm)" -rf x', '"$(which rm)" -rf x'],
    ['an ANSI-C escaped name', "$'\\x72m' -rf x", "$'\\x72m' -rf x"],
    ['GNU long options', 'rm --recursive --force build', 'rm --recursive --force build'],
    ['long and short options mixed', 'rm -r --force build', 'rm -r --force build'],
    ['abbreviated long options', 'rm --recur --forc build', 'rm --recur --forc build'],
    ['timeout -s VALUE', 'timeout -s KILL 5 rm -rf build', 'rm -rf build'],
    ['timeout --signal=VALUE', 'timeout --signal=KILL 5 rm -rf build', 'rm -rf build'],
    ['timeout --signal VALUE', 'timeout --signal KILL 5 rm -rf build', 'rm -rf build'],
    ['timeout --kill-after VALUE', 'timeout --kill-after 1 5 curl x', 'curl x'],
    ['xargs --max-args VALUE', 'xargs --max-args 1 rm -rf < list', 'rm -rf'],
    ['xargs --max-procs and --delimiter VALUE', 'xargs --max-procs 4 --delimiter , rm -rf', 'rm -rf'],
    ['env --unset VALUE', 'env --unset FOO rm -rf build', 'rm -rf build'],
    ['env --chdir VALUE', 'env --chdir /tmp curl x', 'curl x'],
    ['env -S with the command in its value', "env -S 'rm -rf build'", 'rm -rf build'],
    ['nice --adjustment VALUE', 'nice --adjustment 5 rm -rf build', 'rm -rf build'],
    ['a script piped into sh', "echo 'rm -rf build' | sh", 'sh'],
    ['a here-string into bash', "bash <<< 'rm -rf build'", 'bash'],
    ['a file redirected into sh', 'sh < build.sh', 'sh'],
    ['bash -s reading stdin', 'cat script | bash -s -- --flag', 'bash -s -- --flag'],
    ["fish's --command", "fish --command 'rm -rf x'", 'rm -rf x'],
    ['behind busybox', 'busybox rm -rf x', 'rm -rf x'],
    ['in a case clause', 'case x in x) rm -rf y;; esac', 'rm -rf y'],
    ['in a case clause inside $( )', 'echo $(case x in x) rm -rf y;; esac)', 'rm -rf y'],
  ];
  for (const [name, line, offender] of found) {
    test(`finds it: ${name}`, () => {
      assert.equal(findDeniedCommand(line, denied), offender);
    });
  }

  const allowed: [string, string][] = [
    ['a safe command', 'npm test'],
    ['a safe chain', 'npm ci && npm run build; git status | head'],
    ['rm without -f', 'rm -r build'],
    ['rm -f alone', 'rm -f file.txt'],
    ['rm -rf in single quotes', "echo 'rm -rf /'"],
    ['rm -rf in double quotes', 'echo "rm -rf /"'],
    ['git push in a commit message', 'git commit -m "do not git push yet"'],
    ['curl in a grep pattern', "grep -rn 'curl' src"],
    ['$(curl) in single quotes', "echo '$(curl x)'"],
    ['an escaped backtick', 'echo \\`curl x\\`'],
    ['a comment', 'ls # rm -rf everything'],
    ['git with another subcommand', 'git pull origin main'],
    ['a word that starts like a pattern', 'curling --help; sudoku'],
    ['a here-string', 'cat <<< "rm -rf /"'],
    ['a redirection target named like a command', 'echo hi > curl'],
    ['a variable used as an argument only', 'echo $HOME && ls "$PWD"'],
    ['a quoted argument holding ;', 'echo "a; curl x"'],
    ['rm --force alone', 'rm --force file.txt'],
    ['a shell running a script file', 'bash scripts/build.sh && sh -e test.sh && bash -o pipefail -- run.sh'],
    ['a shell -c with a safe script', "bash -c 'npm test'"],
    ['the shell version', 'bash --version'],
    ['a script piped into cat', "echo 'rm -rf build' | cat"],
    [
      'long wrapper options around safe commands',
      'timeout --signal KILL 5 make && env --unset FOO npm test && nice --adjustment 5 make && xargs --max-args 1 echo',
    ],
    ['after a case clause in $( ), a safe command', 'echo $(case x in x) echo y;; esac) && ls'],
  ];
  for (const [name, line] of allowed) {
    test(`allows: ${name}`, () => {
      assert.equal(findDeniedCommand(line, denied), undefined);
    });
  }

  test('no patterns deny nothing, not even a computed name', () => {
    assert.equal(findDeniedCommand('rm -rf / && $CMD', []), undefined);
    assert.equal(findDeniedCommand('rm -rf /', ['  ', '']), undefined);
  });

  test('a pattern given with a path matches the command by name', () => {
    assert.equal(findDeniedCommand('rm -rf x', ['/usr/bin/rm -rf']), 'rm -rf x');
  });

  test('long options must appear as written', () => {
    assert.equal(findDeniedCommand('git push --force-with-lease', ['git push --force']), undefined);
    assert.equal(findDeniedCommand('git push --force origin', ['git push --force']), 'git push --force origin');
    assert.equal(findDeniedCommand('git push --force=yes', ['git push --force']), 'git push --force=yes');
  });

  test('absurd nesting is treated as denied rather than parsed forever', () => {
    const line = `${'$('.repeat(200)}ls${')'.repeat(200)}`;
    assert.equal(findDeniedCommand(line, denied), line);
  });

  test('thousands of nested ${ are denied, not a stack overflow; the approval policy asks', () => {
    for (const count of [100, 3000, 10_000]) {
      const line = `echo ${'${'.repeat(count)}`;
      assert.equal(findDeniedCommand(line, denied), line);
      assert.equal(needsApproval({ mode: 'auto', deniedCommands: denied, commandsSandboxed: true }, 'command', line), true);
    }
  });

  test('recursive chmod and chown spelled as long options (the default patterns)', () => {
    assert.equal(findDeniedCommand('chmod --recursive 777 .', DEFAULT_DENIED_COMMANDS), 'chmod --recursive 777 .');
    assert.equal(findDeniedCommand('chown --recursive me:me .', DEFAULT_DENIED_COMMANDS), 'chown --recursive me:me .');
    assert.equal(findDeniedCommand('git clean --force -d', DEFAULT_DENIED_COMMANDS), 'git clean --force -d');
    assert.equal(findDeniedCommand('chmod 644 a.txt', DEFAULT_DENIED_COMMANDS), undefined);
  });

  test('a long option in a pattern matches its abbreviation and its known short form', () => {
    assert.equal(findDeniedCommand('git reset --har HEAD~1', ['git reset --hard']), 'git reset --har HEAD~1');
    assert.equal(findDeniedCommand('git push -f origin', ['git push --force']), 'git push -f origin');
    assert.equal(findDeniedCommand('git reset --soft HEAD~1', ['git reset --hard']), undefined);
  });

  test('a shell reading stdin is denied only when there are patterns', () => {
    assert.equal(findDeniedCommand('echo ls | sh', []), undefined);
    assert.equal(findDeniedCommand('echo ls | sh', ['curl']), 'sh');
  });
});

describe('run_command', () => {
  let root: string;
  let outside: string;
  let ctx: ToolContext;
  const signal = new AbortController().signal;
  const runCommand = allTools.find((tool) => tool.name === 'run_command')!;

  before(async () => {
    const base = await realpath(await mkdtemp(join(tmpdir(), 'tools-commands-')));
    root = join(base, 'ws');
    outside = join(base, 'outside');
    await mkdir(join(root, 'sub'), { recursive: true });
    await mkdir(outside);
    await symlink(outside, join(root, 'out-link'));
    ctx = {
      files: new NodeWorkspaceFiles(root),
      changes: new NodeFileChanges(root),
      commands: new NodeCommandRunner(root, { shell: '/bin/sh', killGraceMs: 300, drainMs: 200 }),
      protectedFiles: defaultProtectedFiles,
      logger: silentLogger,
    };
  });
  after(() => rm(join(root, '..'), { recursive: true, force: true }));

  test('a command whose stop could not confirm every process gone: its change set waits whole, ended or stopped', async () => {
    const holds: (string | undefined)[] = [];
    const guard = {
      watch: () =>
        Promise.resolve({
          tripped: new AbortController().signal,
          settle: (_signal: AbortSignal, holdAll?: string) => {
            holds.push(holdAll);
            return Promise.resolve({ moved: [], failed: [] });
          },
        }),
    } as unknown as ToolContext['controlGuard'];
    const ended = { exitCode: undefined, output: '', timedOut: true, lingering: true as const };
    const stopped = Object.assign(new Error(LINGERING_REASON), { lingering: true });
    for (const [runner, expected] of [
      [{ run: () => Promise.resolve({ exitCode: 0, output: 'ok', timedOut: false }) }, undefined],
      [{ run: () => Promise.resolve(ended) }, LINGERING_REASON],
      [{ run: () => Promise.reject(stopped) }, LINGERING_REASON],
    ] as const) {
      holds.length = 0;
      const lingering: ToolContext = { ...ctx, commands: runner, controlGuard: guard };
      await (await runCommand.prepare({ command: 'server' }, lingering, signal)).execute(signal).catch(() => undefined);
      assert.deepEqual(holds, [expected]);
    }
  });

  test('the exit code and the output, stdout and stderr together', async () => {
    const prepared = await runCommand.prepare({ command: 'echo out; echo err >&2; exit 3' }, ctx, signal);
    assert.equal(prepared.summary, 'Run echo out; echo err >&2; exit 3');
    assert.deepEqual(prepared.command, { line: 'echo out; echo err >&2; exit 3', cwd: '.' });
    const outcome = await prepared.execute(signal);
    assert.equal(outcome.ok, false);
    assert.equal(outcome.exitCode, 3);
    assert.match(outcome.output, /^Exit code 3\.\n/);
    assert.match(outcome.output, /out\n/);
    assert.match(outcome.output, /err\n/);
  });

  test('success, in a subfolder given as cwd', async () => {
    const outcome = await (await runCommand.prepare({ command: 'pwd', cwd: 'sub' }, ctx, signal)).execute(signal);
    assert.deepEqual(outcome, { ok: true, output: `Exit code 0.\n${join(root, 'sub')}\n`, exitCode: 0 });
  });

  test('no output says so; stdin is closed rather than waited on', async () => {
    const outcome = await (await runCommand.prepare({ command: 'cat; true' }, ctx, signal)).execute(signal);
    assert.deepEqual(outcome, { ok: true, output: 'Exit code 0.\n(no output)', exitCode: 0 });
  });

  test(`only the last ${outputTailBytes / 1024} KB of a long output, with the count of what was cut`, async () => {
    const outcome = await (await runCommand.prepare({ command: 'seq 1 20000' }, ctx, signal)).execute(signal);
    const total = Buffer.byteLength(Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join(''));
    assert.match(outcome.output, new RegExp(`^Exit code 0\\.\\n\\(output cut: first ${total - outputTailBytes} bytes omitted\\)\\n`));
    assert.ok(outcome.output.endsWith('19999\n20000\n'));
    assert.ok(Buffer.byteLength(outcome.output) < outputTailBytes + 100);
  });

  test("a host that cut the output itself adds up with the tool's cut", async () => {
    const small: ToolContext = { ...ctx, commands: new NodeCommandRunner(root, { shell: '/bin/sh', maxOutputBytes: 10_000 }) };
    const outcome = await (await runCommand.prepare({ command: 'seq 1 20000' }, small, signal)).execute(signal);
    const total = Buffer.byteLength(Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join(''));
    assert.match(outcome.output, new RegExp(`\\(output cut: first ${total - outputTailBytes} bytes omitted\\)\\n`));
    assert.equal(outcome.output.match(/output cut/g)?.length, 1);
  });

  test('a timeout kills the whole process group, children included', async () => {
    const pidFile = join(root, 'child.pid');
    const started = Date.now();
    const prepared = await runCommand.prepare({ command: `sleep 30 & echo $! > ${pidFile}; echo started; wait`, timeout: 1 }, ctx, signal);
    const outcome = await prepared.execute(signal);
    assert.ok(Date.now() - started < 5000, `took ${Date.now() - started} ms`);
    assert.equal(outcome.ok, false);
    assert.match(outcome.output, /^Timed out after 1 s; the command was killed\.\nstarted\n/);
    const childPid = Number(await readFile(pidFile, 'utf8'));
    await waitFor(() => !isAlive(childPid), 1000).catch(() => undefined);
    assert.equal(isAlive(childPid), false, `sleep ${childPid} survived`);
  });

  test('an abort kills the command and reports it was stopped', async () => {
    const pidFile = join(root, 'abort.pid');
    const controller = new AbortController();
    const prepared = await runCommand.prepare({ command: `sleep 30 & echo $! > ${pidFile}; wait` }, ctx, signal);
    const running = prepared.execute(controller.signal);
    await waitFor(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== '');
    controller.abort();
    const outcome = await running;
    assert.deepEqual(outcome, { ok: false, output: 'Stopped: the user cancelled the command; it was killed.' });
    const childPid = Number(await readFile(pidFile, 'utf8'));
    await waitFor(async () => !isAlive(childPid));
    assert.equal(isAlive(childPid), false);
  });

  test('a background job holding the output open does not hold the result', async () => {
    const started = Date.now();
    const outcome = await (await runCommand.prepare({ command: 'sleep 5 & echo done' }, ctx, signal)).execute(signal);
    assert.equal(outcome.exitCode, 0);
    assert.match(outcome.output, /done/);
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`);
  });

  const refusedCwds: [string, RegExp][] = [
    ['..', /leads outside the workspace/],
    ['/tmp', /absolute path/],
    ['out-link', /through a symbolic link/],
    ['.git', /protected file/],
    ['missing', /The working folder "missing" does not exist or is not a folder\./],
  ];
  for (const [cwd, reason] of refusedCwds) {
    test(`cwd ${JSON.stringify(cwd)} is refused before anything runs`, async () => {
      const prepared = await runCommand.prepare({ command: 'touch ran.txt', cwd }, ctx, signal);
      assert.equal(prepared.command, undefined);
      assert.match(prepared.refusal ?? '', reason);
      const outcome = await prepared.execute(signal);
      assert.equal(outcome.ok, false);
      assert.match(outcome.output, reason);
    });
  }

  test('timeouts above the maximum and empty commands are invalid arguments', async () => {
    const long = await runCommand.prepare({ command: 'ls', timeout: 601 }, ctx, signal);
    assert.match(long.refusal ?? '', /^Invalid arguments for run_command: timeout: Too big: expected number to be <=600\./);
    const empty = await runCommand.prepare({ command: '' }, ctx, signal);
    assert.match(empty.refusal ?? '', /^Invalid arguments for run_command: command: Too small/);
  });

  test('a shell that cannot start is reported, not thrown', async () => {
    const broken: ToolContext = { ...ctx, commands: new NodeCommandRunner(root, { shell: '/nonexistent/shell' }) };
    const outcome = await (await runCommand.prepare({ command: 'ls' }, broken, signal)).execute(signal);
    assert.equal(outcome.ok, false);
    assert.match(outcome.output, /^The command could not be run: spawn \/nonexistent\/shell ENOENT/);
  });
});

/** Whether the process still runs; a killed one waiting to be reaped (a zombie) does not. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const state = (() => {
    try {
      return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    } catch {
      return undefined;
    }
  })();
  return state !== 'Z';
}

async function waitFor(condition: () => Promise<boolean> | boolean, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
