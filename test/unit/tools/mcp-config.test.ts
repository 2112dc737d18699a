// The workspace's mcp.json read for its server names only, so "Choose Agent Tools…" waits until a server
// just written into it has listed its tools: JSON with comments and trailing commas as VS Code reads it,
// hostile files giving no names (so no wait), and VS Code's tool naming matched.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  configuredMcpServers,
  MAX_MCP_CONFIG_BYTES,
  MAX_MCP_SERVERS,
  mcpToolPrefix,
  readsRootMcpFile,
  serversWithoutTools,
} from '../../../src/tools/common/mcpConfig';
import { MCP_START_TIMEOUT_MS, waitForMcpTools } from '../../../src/tools/common/mcpStart';
import { VirtualClock } from '../helpers/clock';

describe("the workspace's mcp.json: server names", () => {
  test('plain JSON: the names of `servers`', () => {
    const text = JSON.stringify({ servers: { probe: { type: 'stdio', command: 'node' }, github: { type: 'http', url: 'https://x' } }, inputs: [] });
    assert.deepEqual(configuredMcpServers(text), ['probe', 'github']);
  });

  test("a root .mcp.json in Claude Code's shape: the names of `mcpServers` (issue 38)", () => {
    // As @modelcontextprotocol's servers' READMEs write it for Claude Code.
    const text = JSON.stringify({ mcpServers: { filesystem: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'] }, memory: {} } });
    assert.deepEqual(configuredMcpServers(text), ['filesystem', 'memory']);
    assert.deepEqual(configuredMcpServers('{"mcpServers": ["filesystem"]}'), []);
  });

  test('the root .mcp.json is read where VS Code reads it: 1.140 and later', () => {
    for (const version of ['1.140.0', '1.140.1', '1.141.0-insider', '1.200.0', '2.0.0']) assert.equal(readsRootMcpFile(version), true, version);
    for (const version of ['1.139.1', '1.104.0', '1.14.0', '0.150.0', '', 'x.y', '1']) assert.equal(readsRootMcpFile(version), false, version);
  });

  test('comments and trailing commas as VS Code allows them; `//`, `/*` and commas inside strings kept', () => {
    const text = [
      '// servers of this repo',
      '{',
      '  "servers": {',
      '    /* the probe */ "probe": { "command": "node", "args": ["a//b.mjs", "/*x*/", "c,]"], },',
      '    "quote\\"d": { "url": "http://h/p" }, // trailing',
      '  },',
      '}',
    ].join('\n');
    assert.deepEqual(configuredMcpServers(text), ['probe', 'quote"d']);
  });

  test('malformed, oversized or of the wrong shape: no names (the listing then waits for nobody)', () => {
    for (const text of ['', '{', 'null', '[]', '{"servers": []}', '{"servers": "probe"}', '{"servers": {"a": 1}', '\u0000\u0001binary', '/* unclosed']) {
      assert.deepEqual(configuredMcpServers(text), [], JSON.stringify(text));
    }
    const huge = JSON.stringify({ servers: { probe: {} }, pad: 'x'.repeat(MAX_MCP_CONFIG_BYTES) });
    assert.deepEqual(configuredMcpServers(huge), []);
  });

  test('hostile: many servers are cut to the bound; a file of brackets and commas ends (no quadratic look-back)', () => {
    const many = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`s${i}`, {}]));
    assert.equal(configuredMcpServers(JSON.stringify({ servers: many })).length, MAX_MCP_SERVERS);
    assert.deepEqual(configuredMcpServers(`{"servers":{${',]'.repeat(30_000)}`), []);
    assert.deepEqual(configuredMcpServers(`[${' '.repeat(60_000)}]`), []);
  });
});

describe("VS Code's names for a server's tools", () => {
  test('lowercased, other characters as `_`, cut to 13 characters', () => {
    assert.equal(mcpToolPrefix('probe'), 'mcp_probe_');
    assert.equal(mcpToolPrefix('My Server!'), 'mcp_my_server__');
    assert.equal(mcpToolPrefix('a-very-long-server-name'), 'mcp_a-very-long-s_');
  });

  test('a server is waited for until one of its tools is listed; another server’s tools do not count', () => {
    const tools = ['run_in_terminal', 'mcp_probe_echo', 'mcp_github_search_issues'];
    assert.deepEqual(serversWithoutTools(['probe', 'GitHub', 'weather'], tools), ['weather']);
    assert.deepEqual(serversWithoutTools(['probe'], ['mcp_probe2_echo']), ['probe']);
  });

  test('listing right after mcp.json was written: started again once the host knows the server, not after a fixed gap', async () => {
    const clock = new VirtualClock();
    let starts = 0;
    let tools: string[] = [];
    let knowsServer: () => void = () => undefined;
    const waiting = waitForMcpTools({
      // The first start finds no server; the second, once the host's configuration lists it, starts it.
      start: () => ((tools = starts++ === 0 ? [] : ['mcp_probe_note']), Promise.resolve()),
      missing: () => serversWithoutTools(['probe'], tools),
      beforeNextStart: () => new Promise<void>((resolve) => (knowsServer = resolve)),
      clock,
      signal: new AbortController().signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(starts, 1, 'waits for the host, not a timer');
    knowsServer();
    assert.deepEqual(await waiting, { missing: [] });
    assert.equal(starts, 2);
    assert.deepEqual(clock.sleeps, []);
  });

  test('a host that never learns of the server: the wait ends at the bound', async () => {
    const clock = new VirtualClock({ manual: true });
    const waiting = waitForMcpTools({
      start: () => Promise.resolve(),
      missing: () => ['probe'],
      beforeNextStart: (deadline) => new Promise<void>((_, reject) => deadline.addEventListener('abort', () => reject(new Error('aborted')))),
      clock,
      signal: new AbortController().signal,
    });
    await new Promise((resolve) => setImmediate(resolve));
    clock.advance(MCP_START_TIMEOUT_MS);
    assert.deepEqual(await waiting, { missing: ['probe'], timedOutAfterMs: MCP_START_TIMEOUT_MS });
  });
});
