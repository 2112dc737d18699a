// Attack (round 2): Apply must never overwrite what the user changed in the workspace since the review; it
// compares each held entry's path, but a held folder's own stamp is just "folder". A command replaces `.vscode`
// (rm -rf, mkdir: an opaque folder, held) or deletes it (held): the user then edits .vscode/settings.json, or adds
// a file there, and applies the held change: Apply removes the folder whole, the user's edit with it.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, never, sandboxHere, type Fixture } from './harness';

describe("attack: Apply of a held folder replacement takes the user's later edits with it", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => (fixture = await makeFixture()));
  after(async () => fixture.remove());

  for (const [what, command] of [
    ['a folder replaced (opaque)', `rm -rf .vscode && mkdir .vscode && echo '{}' > .vscode/tasks.json`],
    ['a folder deleted', `rm -rf .vscode`],
  ] as const) {
    test(`${what}: the user's edit made after the review survives an Apply (or the Apply is refused)`, async () => {
      await mkdir(join(fixture.root, '.vscode'), { recursive: true });
      await writeFile(join(fixture.root, '.vscode', 'settings.json'), '{"before": true}');
      fixture.held.length = 0;
      const result = await fixture.run(command);
      assert.equal(result.exitCode, 0, result.output);
      const held = fixture.held.at(-1);
      assert.ok(held && held.rollback.moved.some((entry) => entry.path === '.vscode'), `not held: ${JSON.stringify(result.review)}`);
      // The user works on after the review: edits one file, adds another.
      await writeFile(join(fixture.root, '.vscode', 'settings.json'), '{"mine": "edited after the command"}');
      await writeFile(join(fixture.root, '.vscode', 'launch.json'), '{"mine": "new"}');
      await held!.restore('.vscode', never).catch(() => undefined);
      const settings = await readFile(join(fixture.root, '.vscode', 'settings.json'), 'utf8').catch(() => '(gone)');
      const launch = await readFile(join(fixture.root, '.vscode', 'launch.json'), 'utf8').catch(() => '(gone)');
      assert.match(settings, /edited after the command/, `ESCAPED: Apply overwrote the user's later edit of .vscode/settings.json (now ${settings})`);
      assert.match(launch, /new/, `ESCAPED: Apply removed the user's new .vscode/launch.json (now ${launch})`);
      await held!.discard(never).catch(() => undefined);
    });
  }
});
