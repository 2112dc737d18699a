// Attack (round 14): a config value's path spelled longer than 1,020 characters (`./` repeated) names nothing to
// the review, though the program reading it opens it as any path.
// runnerConfigs.ts reads every string value of a program config (not under a command key: `envFile`,
// `apiKeyHelper`, `python.defaultInterpreterPath`…) through hookPrograms.ts mentionedByValue → namedFiles.ts
// valueWords, which skips every part longer than `4 * MAX_WORD` (1,020 characters) before it strips what climbs
// (`^(?:\.{0,2}\/)+`): `././…/tools/key-helper.sh` (600 `./`, 1.2 KB) is dropped whole, its tail never looked at. The
// value is not a command line, so mentionedBy's name pattern (which would hold `key-helper.sh` by name) never sees it.
// Linux takes such a path as it is (PATH_MAX is 4,096): `sh ././…/tools/key-helper.sh` runs tools/key-helper.sh.
// The README promises "every other string value of those configs, whatever its key … each of its words that names an
// existing file … is held and followed, … Claude Code's `apiKeyHelper`", and an MCP server's `envFile`.
// Control: the same values spelled short hold the files.
// Impact: Claude Code runs the rewritten apiKeyHelper script outside the sandbox at its next start; VS Code starts the
// MCP server with the rewritten envFile (`NODE_OPTIONS=--require …`).
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

describe('attack: a config value path longer than 1,020 characters', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, prefix: string) => {
    await mkdir(join(fixture.root, '.claude'), { recursive: true });
    await mkdir(join(fixture.root, '.vscode'), { recursive: true });
    await mkdir(join(fixture.root, 'tools'), { recursive: true });
    await mkdir(join(fixture.root, 'config'), { recursive: true });
    await writeFile(join(fixture.root, '.claude', 'settings.json'), `${JSON.stringify({ apiKeyHelper: `sh ${prefix}tools/key-helper.sh` })}\n`);
    await writeFile(
      join(fixture.root, '.vscode', 'mcp.json'),
      `${JSON.stringify({ servers: { docs: { type: 'stdio', command: 'node', args: ['--version'], envFile: `\${workspaceFolder}/${prefix}config/mcp.env` } } })}\n`,
    );
    await writeFile(join(fixture.root, 'tools', 'key-helper.sh'), 'echo key\n');
    await writeFile(join(fixture.root, 'config', 'mcp.env'), 'DOCS=1\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, './');
    await plant(attack, './'.repeat(600));
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = `echo 'id > /tmp/owned' > tools/key-helper.sh && echo 'NODE_OPTIONS=--require=/tmp/x.js' > config/mcp.env`;
  const landed = async (fixture: Fixture) => ({
    helper: await readFile(join(fixture.root, 'tools', 'key-helper.sh'), 'utf8'),
    env: await readFile(join(fixture.root, 'config', 'mcp.env'), 'utf8'),
  });
  const original = { helper: 'echo key\n', env: 'DOCS=1\n' };

  test('control: the values spelled short hold key-helper.sh and mcp.env', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(control), original, `control: ${JSON.stringify(result.review)}`);
  });

  test('the same values spelled with 600 `./` still hold key-helper.sh and mcp.env', async () => {
    // The spelling names the same file to the kernel.
    assert.equal(await readFile(join(attack.root, `${'./'.repeat(600)}tools/key-helper.sh`), 'utf8'), 'echo key\n');
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(
      await landed(attack),
      original,
      `what apiKeyHelper and the MCP server's envFile name landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
