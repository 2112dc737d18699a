// A workspace's hook under `auto`, run for real by the node hook host in the real bubblewrap sandbox: it gets
// its JSON on stdin like any hook, but cannot write outside the workspace, read the home folder's secrets or
// protected files, or see the extension host's key in its environment; and inside the workspace it works.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { nodeHookHost } from '../../src/agent/node/hookProcess';
import type { HookHost } from '../../src/agent/common/hooks';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe('hooks in the sandbox of the auto mode', async () => {
  if (!(await sandboxHere())) return;

  let fixture: Fixture;
  let host: HookHost;
  const run = (command: string, stdin = '{"hook_event_name":"PostToolUse"}') =>
    host.run({ sessionId: 'test', command, cwd: '.', stdin, timeoutMs: 20_000, maxOutputBytes: 16_384 }, never);

  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, '.ssh'), { recursive: true });
    await writeFile(join(fixture.home, '.ssh/id_ed25519'), 'PRIVATE KEY\n');
    await writeFile(join(fixture.root, '.env'), 'API_KEY=workspace-secret\n');
    await writeFile(join(fixture.home, 'keep.txt'), 'keep\n');
    host = nodeHookHost({
      root: fixture.root,
      sandboxFor: (command, cwd) => fixture.launch(command, { cwd }),
      env: { ...process.env, GATEWAY_API_KEY: 'sk-host-secret' },
    });
  });
  after(() => fixture.remove());

  test('it reads its input and writes inside the workspace', async () => {
    const result = await run('cat > hook-input.json && echo done');
    assert.equal(result.exitCode, 0, result.stderr);
    assert.equal(result.stdout.trim(), 'done');
    assert.equal(await readFile(join(fixture.root, 'hook-input.json'), 'utf8'), '{"hook_event_name":"PostToolUse"}');
  });

  test('it cannot write outside the workspace, nor change what is there', async () => {
    const outside = join(fixture.home, 'planted.txt');
    const result = await run(
      `echo x > ${outside}; echo y >> ${join(fixture.home, 'keep.txt')}; rm -f ${join(fixture.home, 'keep.txt')}; echo z > /tmp/../${fixture.base}/escape.txt; exit 0`,
    );
    assert.equal(result.exitCode, 0);
    await assert.rejects(readFile(outside, 'utf8'), { code: 'ENOENT' });
    await assert.rejects(readFile(join(fixture.base, 'escape.txt'), 'utf8'), { code: 'ENOENT' });
    assert.equal(await readFile(join(fixture.home, 'keep.txt'), 'utf8'), 'keep\n');
  });

  test("it cannot read the home folder's keys or protected files, and the host's key is not in its environment", async () => {
    const result = await run(`cat ${join(fixture.home, '.ssh/id_ed25519')} .env 2>/dev/null; env; exit 0`);
    assert.doesNotMatch(result.stdout, /PRIVATE KEY|workspace-secret|sk-host-secret/);
    assert.match(result.stdout, /CLAUDE_PROJECT_DIR=/);
  });
});
