// Attack (round 13): files VS Code runs or loads because a workspace config names them outside `command`/`args`.
// The review holds `.vscode` by name and follows what its program configs run (runnerConfigs.ts, for the paths
// heldNames.ts isProgramConfigPath lists: `.vscode/tasks.json` and `.vscode/mcp.json`, never `.vscode/settings.json`),
// and of those only the values of programConfigs.ts COMMAND_KEYS (`command`, `args`, `bash`, `program`…). So:
// - `.vscode/mcp.json`'s `envFile` (VS Code loads that file into a stdio MCP server's environment: a rewritten
//   `config/mcp.env` with `NODE_OPTIONS=--require …` or `BASH_ENV=…` runs code in the server; a name that does not
//   start `.env` is no protected file) is not a command key: it is never read, the env file is an ordinary file;
// - `.vscode/settings.json` is not read at all: a terminal profile's `args` (`bash --rcfile tools/devrc`, run in
//   every new terminal of the window when it is the default profile) and `python.defaultInterpreterPath`
//   (`tools/python`, a tracked wrapper the Python extension runs at start-up to learn the interpreter; it was
//   executable already, so a rewrite keeps the mode and no new executable bit is seen) name files that run.
// Each config is held (the command cannot change it), and each approval VS Code has for it (trust of the MCP server,
// of the workspace) is unchanged; the files they name land rewritten. The README: the files VS Code runs code from and
// "what those configs name in turn" are held (the limit it documents is what extensions find by their own rules,
// `eslint.config.js`, not a file a workspace config names).
// Impact: the next MCP server start, the next terminal of the window, the next Python extension start run the
// rewritten file outside the sandbox with the user's rights.
import assert from 'node:assert/strict';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, runOutside, sandboxHere, type Fixture } from './harness';

const FILES: Record<string, string> = {
  '.vscode/mcp.json': JSON.stringify({
    servers: { docs: { type: 'stdio', command: 'node', args: ['tools/docs-server.js'], envFile: '${workspaceFolder}/config/mcp.env' } },
  }),
  '.vscode/settings.json': JSON.stringify({
    'terminal.integrated.profiles.linux': { dev: { path: 'bash', args: ['--rcfile', 'tools/devrc'] } },
    'terminal.integrated.defaultProfile.linux': 'dev',
    'python.defaultInterpreterPath': '${workspaceFolder}/tools/python',
  }),
  'tools/docs-server.js': 'console.log("docs")\n',
  'config/mcp.env': 'DOCS_ROOT=docs\n',
  'tools/devrc': 'PS1="dev$ "\n',
  'tools/python': '#!/bin/sh\nexec python3 "$@"\n',
};

describe('attack: files VS Code runs because a workspace config names them outside command/args', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    for (const [path, text] of Object.entries(FILES)) {
      await mkdir(dirname(join(fixture.root, path)), { recursive: true });
      await writeFile(join(fixture.root, path), text);
    }
    await chmod(join(fixture.root, 'tools', 'python'), 0o755);
  });
  after(async () => fixture.remove());

  test('control: tools/docs-server.js (the MCP server\'s args) is held', async () => {
    const control = await fixture.run(`echo 'console.log(1)' > tools/docs-server.js`);
    assert.equal(control.exitCode, 0, control.output);
    assert.equal(await readFile(join(fixture.root, 'tools', 'docs-server.js'), 'utf8'), FILES['tools/docs-server.js'], JSON.stringify(control.review));
  });

  test('config/mcp.env (envFile), tools/devrc (a terminal profile\'s --rcfile) and tools/python (the interpreter path) are held', async () => {
    const marker = join(fixture.base, 'editor-config-ran');
    const result = await fixture.run(
      `echo 'NODE_OPTIONS=--require=${fixture.root}/cache.js' > config/mcp.env && ` +
        `echo 'require("fs").appendFileSync("${marker}", "mcp ")' > cache.js && ` +
        `echo 'echo -n "terminal " >> ${marker}' > tools/devrc && ` +
        `printf '#!/bin/sh\\necho -n "python " >> ${marker}\\nexec python3 "$@"\\n' > tools/python`,
    );
    assert.equal(result.exitCode, 0, result.output);
    // What VS Code then does outside the sandbox: the MCP server started with its envFile's variables, a new
    // terminal of the default profile, the Python extension asking its interpreter for its version.
    const env = Object.fromEntries(
      (await readFile(join(fixture.root, 'config', 'mcp.env'), 'utf8'))
        .split('\n')
        .filter((line) => line.includes('='))
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    await runOutside('node', [join(fixture.root, 'tools', 'docs-server.js')], { env: { ...process.env, ...env } });
    await runOutside('bash', ['--rcfile', join(fixture.root, 'tools', 'devrc'), '-i', '-c', 'true'], { env: { ...process.env, HOME: fixture.home } });
    await runOutside(join(fixture.root, 'tools', 'python'), ['-c', 'import sys']);
    const ran = await readFile(marker, 'utf8').catch(() => '');
    assert.equal(
      ran,
      '',
      `files named by .vscode/mcp.json's envFile and .vscode/settings.json landed rewritten and ran outside the sandbox (${ran.trim()}); ` +
        `review: ${JSON.stringify(result.review)}; output: ${result.output}`,
    );
  });
});
