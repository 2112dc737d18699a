// Attack (round 14): a program config with more than 10,000 JSON values is read as raw text, and a bare word in its
// JSON syntax (`"args": ["server", "--stdio"]`) names nothing there.
// programConfigs.ts programConfigTexts walks the parsed JSON and counts every value (`seen`, numbers and array items
// included); past MAX_VALUES (10,000) it gives up on the structure and returns `{ commands: text, values: [] }`: the
// whole JSON text read as shell lines. runnerConfigs.ts then passes it to hookPrograms.ts mentionedBy, where a bare
// program word is looked up only if the shell split leaves it bare (namedFiles.ts bareWords → isBareName refuses `[`)
// — but JSON glues brackets, quotes-less commas and keys to it: `"args": ["server", "--stdio"]` splits into `args:`,
// `[server,`, `--stdio]`. `server` (which `node server` loads as ./server.js) has no `/` or `.` for pathLikeWords and
// no extension for mentionedBy's name pattern. Parsed as JSON (the control, under 10,000 values) the same config's
// line is `node server` and server.js is held. 10,001 values fit in 20 KB, well under the 64 KB config bound, and an
// unknown setting (`"x.padding": [0,0,…]`) or an MCP server's extra field is ignored by the program reading it.
// The README promises "every other string value of those configs, whatever its key … each of its words that names an
// existing file (as it is or with a script extension) is held and followed", "a bare word that is a file where the
// text runs, `node check` → `./check.js`", and that a bound never lets anything land unchecked ("a config over 64 KB
// makes the whole change set wait").
// The same raw-text reading follows any text JSON.parse refuses while the program reading it does not: VS Code reads
// settings.json, mcp.json and tasks.json with jsonc-parser, which is error-tolerant (a stray U+00A0 after `{`, an
// extra token: the error is reported, the values still parsed and used), so a config with one such character is
// also read as raw text (third test).
// Impact: .vscode/mcp.json's server (`node server` → server.js, started by VS Code when the user starts the server or
// a chat uses it) and settings.json's terminal profile (`bash --rcfile devrc`, run by every new terminal) land
// rewritten and run outside the sandbox.
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const padding = `[${new Array(10_001).fill('0').join(',')}]`;

function mcp(padded: boolean): string {
  return `{\n  "servers": {\n    "local": {\n      "type": "stdio",\n      "command": "node",\n      "args": ["server", "--stdio"]\n    }\n  }${padded ? `,\n  "x-padding": ${padding}` : ''}\n}\n`;
}

/** JSON.parse refuses it (U+00A0 is no JSON whitespace); jsonc-parser, as VS Code reads its configs, parses it whole. */
const tolerated = (text: string) => text.replace('{\n', '{\u00a0\n');

function settings(padded: boolean): string {
  return (
    `{\n  "terminal.integrated.profiles.linux": { "dev": { "path": "bash", "args": ["--rcfile", "devrc", "-i"] } },\n` +
    `  "terminal.integrated.defaultProfile.linux": "dev"${padded ? `,\n  "x.padding": ${padding}` : ''}\n}\n`
  );
}

describe('attack: a program config past 10,000 values is read as raw text', async () => {
  if (!(await sandboxHere())) return;
  let control: Fixture;
  let attack: Fixture;
  let tolerant: Fixture;
  const plant = async (fixture: Fixture, padded: boolean, spell = (text: string) => text) => {
    await mkdir(join(fixture.root, '.vscode'), { recursive: true });
    await writeFile(join(fixture.root, '.vscode', 'mcp.json'), spell(mcp(padded)));
    await writeFile(join(fixture.root, '.vscode', 'settings.json'), spell(settings(padded)));
    await writeFile(join(fixture.root, 'server.js'), 'console.log("server")\n');
    await writeFile(join(fixture.root, 'devrc'), 'echo dev\n');
  };
  before(async () => {
    control = await makeFixture();
    attack = await makeFixture();
    await plant(control, false);
    await plant(attack, true);
    tolerant = await makeFixture();
    await plant(tolerant, false, tolerated);
  });
  after(async () => {
    await control.remove();
    await attack.remove();
    await tolerant.remove();
  });
  const rewrite = `echo 'require("child_process").execSync("id > /tmp/owned")' > server.js && echo 'id > /tmp/owned' > devrc`;
  const landed = async (fixture: Fixture) => ({
    server: await readFile(join(fixture.root, 'server.js'), 'utf8'),
    devrc: await readFile(join(fixture.root, 'devrc'), 'utf8'),
  });
  const original = { server: 'console.log("server")\n', devrc: 'echo dev\n' };

  test('control: the configs parsed (under 10,000 values) hold server.js and devrc', async () => {
    const result = await control.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(await landed(control), original, `control: ${JSON.stringify(result.review)}`);
  });

  test('the same configs with 10,001 padding values still hold server.js and devrc', async () => {
    const result = await attack.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(
      await landed(attack),
      original,
      `what the MCP server (node server) and the terminal profile (--rcfile devrc) run landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });

  test('the same configs with one U+00A0 (jsonc-parser reads them, JSON.parse does not) still hold server.js and devrc', async () => {
    // (jsonc-parser's parse, VS Code's reader, gives the full object for this text with one InvalidSymbol error.)
    assert.throws(() => JSON.parse(tolerated(settings(false))));
    const result = await tolerant.run(rewrite);
    assert.equal(result.exitCode, 0, result.output);
    assert.deepEqual(
      await landed(tolerant),
      original,
      `what the MCP server (node server) and the terminal profile (--rcfile devrc) run landed rewritten; review: ${JSON.stringify(result.review)}`,
    );
  });
});
