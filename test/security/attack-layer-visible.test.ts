// Attack F: the change layer's folder (kept in VS Code's workspace storage) is only out of the command's sight
// because it usually lies in the home folder (an empty tmpfs inside). With VS Code's data elsewhere (portable
// mode's data folder, --user-data-dir /srv/...), `--ro-bind / /` shows it, and with it the bind of the workspace
// under `lower`, where the protected files are not covered.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { spawnSandboxed } from '../../src/terminal/node/sandboxSpawn';
import { defaultProtectedFiles } from '../../src/settings/common/valueSets';
import { makeFixture, never, reviewGuard, sandboxHere, type Fixture } from './harness';

describe('attack: the layer folder seen from inside when VS Code keeps its data outside the home folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let storage: string;
  before(async () => {
    fixture = await makeFixture();
    storage = await mkdtemp('/var/tmp/gw-attack-storage-');
    await writeFile(join(fixture.root, '.env'), 'API_KEY=protected-secret-91a7\n');
  });
  after(async () => {
    await fixture.remove();
    await rm(storage, { recursive: true, force: true });
  });

  test('a protected file of the workspace cannot be read through the layer folder', async () => {
    const guard = reviewGuard({ root: fixture.root, base: storage, sandbox: fixture.sandbox, sessionId: 'test', home: fixture.home });
    const watch = (await guard.watch(never))!;
    const line = `cat .env; echo; cat ${storage}/changes-test/*/lower/.env`;
    const launch = await fixture.session.launch(
      { root: fixture.root, cwd: fixture.root, command: line, protectedFiles: defaultProtectedFiles, network: false },
      never,
    );
    const child = spawnSandboxed(launch, fixture.root);
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await new Promise((resolve) => child.once('close', resolve));
    await watch.settle(never);
    assert.doesNotMatch(output, /protected-secret-91a7/, `ESCAPED: the command read the protected .env through the layer's lower bind:\n${output}`);
  });
});
