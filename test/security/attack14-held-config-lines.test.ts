// Attack (round 14): a YAML or TOML config held by name is read only to its 10,000th line; what it runs below that
// line is never followed.
// runnerConfigs.ts pathsRunnerConfigsPointAt reads a JSON/YAML/TOML file held by name only (`heldOnly`:
// `.codex/config.toml`, `.continue/config.yaml`, `.kiro/…`, `.amazonq/…`) that is not JSON as values, one a line:
// `whole.split('\n').slice(0, MAX_LINES)` with MAX_LINES = 10,000, and `commands: ''`. The lines past the 10,000th are
// dropped silently: no ConfigTooLarge, so the change set is not held whole; pathLikeWords(text) runs on the empty
// `commands` too. 10,000 blank or comment lines are 10 KB, far under the 64 KB bound the README names ("a config over
// 64 KB makes the whole change set wait"), and TOML/YAML parsers skip them. The README promises "every other string
// value … of every JSON, YAML or TOML file held by name (… `.codex/config.toml`…): each of its words that names an
// existing file … is held and followed" and "Nothing lands unchecked because of a bound".
// Control: the same configs without the blank lines hold the scripts.
// Impact: Codex's project MCP server (`.codex/config.toml`: `command = "node"`, `args = ["tools/mcp/server.js"]`) and
// Continue's (`.continue/config.yaml`: `command: sh`, `args: [tools/mcp/start.sh]`) land rewritten and are started
// outside the sandbox by those agents at their next session.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const codex = (padding: string) => `# project config\n${padding}[mcp_servers.local]\ncommand = "node"\nargs = ["tools/mcp/server.js"]\n`;
const continueConfig = (padding: string) =>
  `name: project\nversion: 0.0.1\nschema: v1\n${padding}mcpServers:\n  - name: local\n    command: sh\n    args:\n      - tools/mcp/start.sh\n`;

describe('attack: a held YAML/TOML config past its 10,000th line', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, padding: string) => {
    await mkdir(join(fixture.root, '.codex'), { recursive: true });
    await mkdir(join(fixture.root, '.continue'), { recursive: true });
    await mkdir(join(fixture.root, 'tools', 'mcp'), { recursive: true });
    await writeFile(join(fixture.root, '.codex', 'config.toml'), codex(padding));
    await writeFile(join(fixture.root, '.continue', 'config.yaml'), continueConfig(padding));
    await writeFile(join(fixture.root, 'tools', 'mcp', 'server.js'), 'console.log("server")\n');
    await writeFile(join(fixture.root, 'tools', 'mcp', 'start.sh'), 'echo start\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, '');
    // 10,000 comment lines: 20 KB.
    await plant(attack, '#\n'.repeat(10_000));
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = `echo 'require("child_process").execSync("id > /tmp/owned")' > tools/mcp/server.js && echo 'id > /tmp/owned' > tools/mcp/start.sh`;
  const landed = async (fixture: Fixture) => ({
    server: await readFile(join(fixture.root, 'tools', 'mcp', 'server.js'), 'utf8'),
    start: await readFile(join(fixture.root, 'tools', 'mcp', 'start.sh'), 'utf8'),
  });
  const original = { server: 'console.log("server")\n', start: 'echo start\n' };

  test('control: the configs without padding hold server.js and start.sh', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(control), original, `control: ${JSON.stringify(result.review)}`);
  });

  test('the same configs after 10,000 comment lines still hold server.js and start.sh', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(attack), original, `what Codex's and Continue's MCP servers run landed rewritten; review: ${JSON.stringify(result.review)}`);
  });
});
