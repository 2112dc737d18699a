// Issue 27, item 7: "the terminal echoes a 7-line raw bwrap … line". That was the integrated-terminal path of
// before issue 21 (it typed bwrap's argv into the user's shell). A sandboxed command now runs as a child
// process, and the session's terminal shows the header `$ <command> (sandboxed)` (terminalCommandRunner.ts)
// and then only what the command printed, which is what `onOutput` receives here. Tried for real, as an
// unprivileged user, on the ways a command ends (and on bwrap's own failure): bwrap's arguments never show.
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

/** What would give the wrapper away: bwrap's flags, its seccomp descriptor, the sandbox's own mounts. */
const WRAPPER = /--(ro-)?bind|--seccomp|--unshare|--die-with-parent|--new-session|--setenv|--tmpfs|--proc\b|--dev\b|--chdir/;

describe('what the terminal shows of a sandboxed command', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.root, 'src'));
  });
  after(() => fixture.remove());

  const cases: { command: string; shows: RegExp; exitCode: number }[] = [
    { command: 'echo hello from the sandbox', shows: /hello from the sandbox/, exitCode: 0 },
    { command: 'echo to stderr >&2; exit 3', shows: /to stderr/, exitCode: 3 },
    { command: 'no-such-command-here --flag', shows: /no-such-command-here: command not found/, exitCode: 127 },
    { command: 'touch /etc/gw-echo-test', shows: /Read-only file system|Permission denied/, exitCode: 1 },
    { command: 'cd src && pwd && ls -la /proc/self/fd | wc -l', shows: /\/src\n\d+/, exitCode: 0 },
  ];
  for (const { command, shows, exitCode } of cases) {
    test(`\`${command}\`: its own output, none of the wrapper's arguments`, async () => {
      let shown = '';
      const result = await fixture.run(command, { onOutput: (text) => (shown += text) });
      assert.equal(result.exitCode, exitCode, shown);
      assert.match(shown, shows);
      assert.doesNotMatch(shown, WRAPPER, `the terminal would show: ${shown}`);
      assert.doesNotMatch(result.output, WRAPPER, 'nor does the model see them');
    });
  }

  test('the check knows the wrapper when it sees it (the launch has the flags), and inside PID 1 is the command itself, not bwrap', async () => {
    const launch = await fixture.launch('true');
    assert.match(launch.argv.join(' '), WRAPPER);
    const result = await fixture.run("tr '\\0' ' ' < /proc/1/cmdline; echo; for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline; echo; done");
    assert.match(result.output, /^\/bin\/bash -c tr/, result.output.slice(0, 300));
    assert.doesNotMatch(result.output, WRAPPER, result.output.slice(0, 300));
  });

  test("bwrap's own failure (the folder the command runs in is gone) says so without its arguments", async () => {
    let shown = '';
    const runner = new NodeCommandRunner(fixture.root, {
      onOutput: (text) => (shown += text),
      sandbox: {
        launch: (line, cwd) => fixture.session.launch({ root: fixture.root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false }, never),
      },
    });
    await fixture.guard.watch(never);
    const said = await runner.run('true', 'gone', 30_000, never).then(
      (result) => `${result.exitCode} ${result.output}`,
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    );
    assert.notEqual(said.trim(), '0', `it did not pass for ran (${said})`);
    assert.doesNotMatch(shown + said, WRAPPER, shown + said);
  });
});
