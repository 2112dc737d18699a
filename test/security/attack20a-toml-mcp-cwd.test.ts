// Attack (round 20a): an MCP server's working folder in a TOML config (Codex's `.codex/config.toml`).
//
// The review reads an entry's line from its working folder (programConfigs.ts workingFolderOf: `cwd`…), but only for
// a config it parses, JSON or XML: a TOML config is "read whole" (programConfigTexts: neither JSON nor XML), with no
// placed entries, so `cwd = "tools"` of `[mcp_servers.docs]` is never read. Codex starts the server (`npx docs-mcp`) in
// tools, where npx runs tools/node_modules/.bin/docs-mcp, the package's file; the review holds the package npx runs only
// at the top (`node_modules/docs-mcp`), so a sandboxed command's rewrite of tools/node_modules/docs-mcp/index.js lands
// unheld and runs at Codex's next start, outside the sandbox. The config is the user's own (already in the workspace).
// Control (passes on the current code): the same server in `.vscode/mcp.json` (JSON) with `"cwd": "tools"`.
import assert from 'node:assert/strict';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const CASES: { name: string; file: string; text: string; control?: boolean }[] = [
  { name: 'Codex TOML', file: '.codex/config.toml', text: '[mcp_servers.docs]\ncommand = "npx"\nargs = ["docs-mcp"]\ncwd = "tools"\n' },
  {
    name: 'VS Code JSON',
    file: '.vscode/mcp.json',
    text: JSON.stringify({ servers: { docs: { type: 'stdio', command: 'npx', args: ['docs-mcp'], cwd: 'tools' } } }, null, 2),
    control: true,
  },
];

describe("attack: an MCP server's cwd in a TOML config is not read", async () => {
  if (!(await sandboxHere())) return;
  for (const { name, file, text, control } of CASES) {
    describe(name, () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        await mkdir(join(fixture.root, file, '..'), { recursive: true });
        await writeFile(join(fixture.root, file), text);
        const pkg = join(fixture.root, 'tools', 'node_modules', 'docs-mcp');
        await mkdir(pkg, { recursive: true });
        await writeFile(join(pkg, 'package.json'), '{"name":"docs-mcp","version":"1.0.0","bin":{"docs-mcp":"index.js"}}\n');
        await writeFile(join(pkg, 'index.js'), '#!/usr/bin/env node\nconsole.log("docs");\n', { mode: 0o755 });
        await mkdir(join(fixture.root, 'tools', 'node_modules', '.bin'));
        await symlink('../docs-mcp/index.js', join(fixture.root, 'tools', 'node_modules', '.bin', 'docs-mcp'));
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}a rewritten tools/node_modules/docs-mcp/index.js is held`, async () => {
        const result = await fixture.run(`printf '%s\\n' '#!/usr/bin/env node' 'console.log("PWNED-20A");' > tools/node_modules/docs-mcp/index.js`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, 'tools', 'node_modules', 'docs-mcp', 'index.js'), 'utf8');
        assert.ok(!now.includes('PWNED-20A'), `ESCAPED: tools/node_modules/docs-mcp/index.js, which the ${name} MCP server runs, landed unasked`);
      });
    });
  }
});
