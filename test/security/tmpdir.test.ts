// Issue 21, finding 15: the sandbox's TMPDIR was shared by every session and workspace of a window and never
// removed. Now each agent session has its own folder (mkdtemp, 0700), mounted as /tmp inside: its commands
// share it, no other session sees it, and it is removed when the session ends.
import assert from 'node:assert/strict';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import type { BubblewrapSession } from '../../src/terminal/node/bubblewrap';
import { NodeCommandRunner } from '../../src/terminal/node/nodeCommandRunner';
import { makeFixture, never, sandboxHere, type Fixture, reviewGuard } from './harness';

describe('a private TMPDIR per session (finding 15)', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(() => fixture.remove());

  const runIn = async (session: BubblewrapSession, command: string) => {
    const { root, base, sandbox, home } = fixture;
    const watch = await reviewGuard({ root, base, sandbox, sessionId: session.sessionId, home }).watch(never);
    const result = await new NodeCommandRunner(fixture.root, {
      sandbox: {
        launch: (line, cwd) => session.launch({ root: fixture.root, cwd, command: line, protectedFiles: defaultProtectedFiles, network: false }, never),
      },
    }).run(command, '.', 20_000, never);
    await watch?.settle(never);
    return result;
  };
  /** The sessions' folders on this machine (the fixture makes them in its own temp folder). */
  const sessionFolders = async () => (await readdir(fixture.base)).filter((name) => name.startsWith('gateway-agent-'));

  test('two sessions get different folders; a file stays for the session and only for it; dispose removes it', async () => {
    const first = fixture.sandbox.forSession('first');
    const second = fixture.sandbox.forSession('second');
    const wrote = await runIn(first, 'echo "$TMPDIR" && echo kept > "$TMPDIR/note" && mktemp');
    assert.equal(wrote.exitCode, 0, wrote.output);
    assert.match(wrote.output, /^\/tmp\n\/tmp\/tmp\.\w+\n$/);
    assert.equal((await runIn(first, 'cat "$TMPDIR/note"')).output, 'kept\n');
    const other = await runIn(second, 'cat "$TMPDIR/note" /tmp/note 2>&1; ls -A /tmp');
    assert.doesNotMatch(other.output, /kept/);
    const folders = await sessionFolders();
    assert.equal(folders.filter((name) => name.startsWith('gateway-agent-first-')).length, 1, folders.join(' '));
    assert.equal(folders.filter((name) => name.startsWith('gateway-agent-second-')).length, 1, folders.join(' '));
    const firstFolder = join(fixture.base, folders.find((name) => name.startsWith('gateway-agent-first-')) as string);
    assert.equal((await stat(firstFolder)).mode & 0o777, 0o700);

    // What a command leaves behind, even made unreadable, goes with the session.
    await runIn(first, 'mkdir -p "$TMPDIR/locked/deep" && touch "$TMPDIR/locked/deep/f" && chmod 000 "$TMPDIR/locked"');
    await first.dispose();
    assert.deepEqual(
      (await sessionFolders()).filter((name) => name.startsWith('gateway-agent-first-')),
      [],
    );
    await assert.rejects(runIn(first, 'true'), /session has ended/);
    // The other session is untouched.
    assert.equal((await runIn(second, 'echo still here > /tmp/x && cat /tmp/x')).output, 'still here\n');
    fixture.sandbox.dispose();
    assert.deepEqual(await sessionFolders(), []);
  });
});
