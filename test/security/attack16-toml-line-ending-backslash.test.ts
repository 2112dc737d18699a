// Attack (round 16): a TOML multi-line basic string joins its lines at a line-ending backslash that has blanks after it
// (`"""tools/mcp/ser\␠␠⏎   ver.js"""` is `tools/mcp/server.js`: TOML 1.0, "when the last non-whitespace character on a
// line is an unescaped \, it will be trimmed along with all whitespace (including newlines)"; checked with Python's
// tomllib). Codex reads `.codex/config.toml`'s MCP server `args` so, and mise its tasks' `run`.
// Why it works: src/terminal/node/formatEscapes.ts ESCAPE takes an escaped line break only as `\` directly followed by
// `\r?\n`; a `\` followed by blanks, then the line break, is no escape to it, so the decoded spelling is the raw one, whose
// words are `tools/mcp/ser\` and `ver.js`: neither names tools/mcp/server.js (runnerConfigs.ts / programConfigs.ts read
// the held config's values by their words). Round 14's fix (attack14-escaped-config-paths) decodes `\u002f` and YAML's
// `\⏎`, not this.
// README: "a YAML or TOML string's escapes, `"tools\u002fcheck.js"`, are read decoded as well, as their programs read them".
// Control: the same config spelling the path on one line holds tools/mcp/server.js.
// Impact: tools/mcp/server.js lands rewritten unasked; Codex's next session starts it as an MCP server outside the sandbox.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const FILE = 'tools/mcp/server.js';

describe('attack: a TOML line-ending backslash with blanks after it', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, spelled: string) => {
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await mkdir(join(fixture.root, '.codex'), { recursive: true });
    await mkdir(join(fixture.root, 'tools', 'mcp'), { recursive: true });
    await writeFile(join(fixture.root, '.codex', 'config.toml'), `[mcp_servers.local]\ncommand = "node"\nargs = [${spelled}]\n`);
    await writeFile(join(fixture.root, FILE), 'console.log("ok");\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, '"""tools/mcp/server.js"""');
    await plant(attack, '"""tools/mcp/ser\\  \n     ver.js"""');
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = `echo 'require("child_process").execSync("id > /tmp/owned")' > ${FILE}`;

  test('control: the config spelling the path on one line holds it', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(await readFile(join(control.root, FILE), 'utf8'), 'console.log("ok");\n', `control: ${JSON.stringify(result.review)}`);
  });

  test('the config spelling it across a line-ending backslash with blanks after it still holds it', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.equal(
      await readFile(join(attack.root, FILE), 'utf8'),
      'console.log("ok");\n',
      `the MCP server Codex starts landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
