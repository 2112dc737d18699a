// Attack (round 14): a path spelled with an escape of the config's own syntax (`\u002f`, the `/` of TOML's and YAML's
// double-quoted strings) names nothing to the review.
// A YAML or TOML config is not parsed: runnerConfigs.ts reads a runner config (lefthook.yml, .pre-commit-config.yaml)
// whole as command lines (hookPrograms.ts mentionedBy) and a YAML/TOML file held by name only (`.codex/config.toml`,
// `.continue/config.yaml`) as one value a line (namedFiles.ts valueWords). Neither decodes the string escapes the
// program's own parser decodes: `"tools\u002fcheck.js"` stays a word with a backslash, which pathLikeWords and
// resolvePending look up as the literal name `tools\u002fcheck.js` (no such file), and mentionedBy's name pattern finds
// `u002fcheck.js`, not `check.js`. TOML ("\uXXXX" in basic strings) and YAML ("\uXXXX", "\xXX" in double-quoted
// scalars) turn it into `tools/check.js`, which lefthook runs at the next commit and Codex/Continue start as an MCP
// server. (JSON is parsed with JSON.parse, which decodes the escape: held there.)
// The README promises "the scripts husky's hooks and the hook managers' configs run, followed as a hook's are" and
// "every other string value … of every JSON, YAML or TOML file held by name (… `.codex/config.toml`…): each of its words
// that names an existing file … is held and followed".
// The same holds for YAML's escaped line break in a double-quoted scalar (`run: "sh tools/li\⏎ nt"` is `sh tools/lint`):
// the review sees `tools/li` and `nt`.
// Control: the same configs spelling `/` (and the line whole) hold the scripts.
// Impact: the scripts land rewritten and run outside the sandbox (the next commit; the agents' next session).
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const FILES = ['tools/check.js', 'tools/mcp/server.js', 'tools/mcp/start.sh', 'tools/lint'];

describe('attack: a config path spelled with a string escape', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  const plant = async (fixture: Fixture, slash: string) => {
    await runOutside('git', ['-C', fixture.root, 'init', '-q'], { env: { ...process.env, HOME: fixture.home, GIT_CONFIG_NOSYSTEM: '1' } });
    await mkdir(join(fixture.root, '.codex'), { recursive: true });
    await mkdir(join(fixture.root, '.continue'), { recursive: true });
    await mkdir(join(fixture.root, 'tools', 'mcp'), { recursive: true });
    await writeFile(join(fixture.root, 'lefthook.yml'), `pre-commit:\n  commands:\n    check:\n      run: "node tools${slash}check.js {staged_files}"\n`);
    await writeFile(join(fixture.root, '.codex', 'config.toml'), `[mcp_servers.local]\ncommand = "node"\nargs = ["tools${slash}mcp${slash}server.js"]\n`);
    await writeFile(
      join(fixture.root, '.continue', 'config.yaml'),
      `name: project\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: local\n    command: sh\n    args: ["tools${slash}mcp${slash}start.sh"]\n`,
    );
    // A double-quoted YAML scalar's escaped line break joins the lines with nothing between: `sh tools/lint`.
    await writeFile(
      join(fixture.root, 'lefthook-local.yml'),
      slash === '/'
        ? 'pre-commit:\n  commands:\n    lint:\n      run: "sh tools/lint"\n'
        : 'pre-commit:\n  commands:\n    lint:\n      run: "sh tools/li\\\n        nt"\n',
    );
    for (const file of FILES) await writeFile(join(fixture.root, file), 'echo ok\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, '/');
    await plant(attack, '\\u002f');
  });
  after(async () => {
    await control.remove();
    await attack.remove();
  });
  const rewrite = FILES.map((file) => `echo 'id > /tmp/owned' > ${file}`).join(' && ');
  const landed = async (fixture: Fixture) =>
    Object.fromEntries(await Promise.all(FILES.map(async (file) => [file, await readFile(join(fixture.root, file), 'utf8')])));
  const original = Object.fromEntries(FILES.map((file) => [file, 'echo ok\n']));

  test('control: the configs spelling `/` hold the scripts', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(control), original, `control: ${JSON.stringify(result.review)}`);
  });

  test('the same configs spelling `\\u002f` still hold the scripts', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(attack), original, `what lefthook, Codex and Continue run landed rewritten; review: ${JSON.stringify(result.review)}`);
  });
});
