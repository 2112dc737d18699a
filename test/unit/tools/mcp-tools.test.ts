// MCP servers' and extensions' tools for the agent: the bounded start-up wait (a server that never
// starts costs the bound, once), the grouping of "Choose Agent Tools…", the tools left out, and who
// confirms an MCP tool's call (VS Code, not the agent a second time).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MCP_ATTEMPT_GAP_MS, MCP_START_TIMEOUT_MS, waitForMcpTools } from '../../../src/tools/common/mcpStart';
import { groupHostTools, mcpReadinessNote, mcpToolParts, shortDescription } from '../../../src/tools/common/hostToolCatalog';
import { hostAgentTool, selectHostTools, type HostToolInfo } from '../../../src/tools/common/hostTools';
import { allTools } from '../../../src/tools/common/registry';
import { VirtualClock } from '../helpers/clock';

const schema = { type: 'object', properties: {} };
const tool = (name: string, tags: string[] = []): HostToolInfo => ({ name, description: `The ${name} tool.`, inputSchema: schema, tags });
const never = () => new Promise<void>(() => undefined);

describe('waiting for MCP servers', () => {
  test('a server that never starts: the wait ends at the bound, saying so, with what is missing', async () => {
    const clock = new VirtualClock({ manual: true });
    let starts = 0;
    const waiting = waitForMcpTools({ start: () => (starts++, never()), missing: () => ['mcp_probe_echo'], clock, signal: new AbortController().signal });
    await Promise.resolve();
    clock.advance(MCP_START_TIMEOUT_MS - 1);
    await Promise.resolve();
    clock.advance(1);
    const result = await waiting;
    assert.deepEqual(result, { missing: ['mcp_probe_echo'], timedOutAfterMs: MCP_START_TIMEOUT_MS });
    assert.equal(starts, 1, 'one start, never answered');
  });

  test('a server just written into mcp.json, listed at the second start: started again after a short gap', async () => {
    const clock = new VirtualClock();
    let starts = 0;
    const result = await waitForMcpTools({
      start: () => (starts++, Promise.resolve()),
      missing: () => (starts >= 2 ? [] : ['mcp_probe_echo']),
      clock,
      signal: new AbortController().signal,
    });
    assert.deepEqual(result, { missing: [] });
    assert.equal(starts, 2);
    assert.deepEqual(clock.sleeps, [MCP_ATTEMPT_GAP_MS]);
  });

  test('tools that never appear: three starts, then what is missing (no time-out, no endless loop)', async () => {
    const clock = new VirtualClock();
    let starts = 0;
    const result = await waitForMcpTools({
      start: () => (starts++, Promise.resolve()),
      missing: () => ['mcp_x_y'],
      clock,
      signal: new AbortController().signal,
    });
    assert.deepEqual(result, { missing: ['mcp_x_y'] });
    assert.equal(starts, 3);
  });

  test('a start that fails is reported; a cancelled wait ends at once without an error', async () => {
    const clock = new VirtualClock({ manual: true });
    const failed = await waitForMcpTools({
      start: () => Promise.reject(new Error("command 'workbench.mcp.startServer' not found")),
      missing: () => ['mcp_a_b'],
      clock,
      signal: new AbortController().signal,
    });
    assert.deepEqual(failed, { missing: ['mcp_a_b'], error: "command 'workbench.mcp.startServer' not found" });
    const controller = new AbortController();
    const waiting = waitForMcpTools({ start: never, missing: () => ['mcp_a_b'], clock, signal: controller.signal });
    controller.abort();
    assert.deepEqual(await waiting, { missing: ['mcp_a_b'] });
  });
});

describe('Choose Agent Tools: groups, descriptions, and what is left out', () => {
  const owners = new Map([
    ['gatewayE2e_weather', { id: 'gateway.e2e-tools', label: 'Gateway E2E Tools' }],
    ['aaa_search', { id: 'zed.search', label: 'Another Extension' }],
  ]);
  const tools = [
    tool('run_in_terminal'),
    tool('inline_chat_exit'),
    tool('runSubagent'),
    tool('vscode_searchExtensions_internal'),
    tool('gatewayE2e_weather'),
    tool('aaa_search'),
    tool('mcp_probe_note', ['mcp']),
    tool('mcp_probe_echo', ['mcp']),
    tool('mcp_github_search_issues', ['mcp']),
  ];

  test('VS Code first, then each extension, then each MCP server; tools by name; MCP tools by their short name', () => {
    const groups = groupHostTools(tools, owners);
    assert.deepEqual(
      groups.map((group) => [group.title, group.tools.map((entry) => entry.label)]),
      [
        ['VS Code', ['run_in_terminal', 'vscode_searchExtensions_internal']],
        ['Extension: Another Extension', ['aaa_search']],
        ['Extension: Gateway E2E Tools', ['gatewayE2e_weather']],
        ['MCP server: github', ['search_issues']],
        ['MCP server: probe', ['echo', 'note']],
      ],
    );
  });

  test("VS Code's tools for its own chat are left out, and cannot be enabled by name either; `_internal` alone hides nothing", () => {
    const names = groupHostTools(tools, owners).flatMap((group) => group.tools.map((entry) => entry.info.name));
    assert.ok(!names.includes('inline_chat_exit') && !names.includes('runSubagent'));
    assert.ok(names.includes('vscode_searchExtensions_internal'), 'a Marketplace search works from any extension');
    const selection = selectHostTools(tools, ['inline_chat_exit'], [], []);
    assert.deepEqual(selection.offered, []);
    assert.match(selection.skipped[0].reason, /only in VS Code's own chat/);
  });

  test('an MCP tool name: server and tool; a description as one bounded line', () => {
    assert.deepEqual(mcpToolParts('mcp_probe_echo'), { server: 'probe', tool: 'echo' });
    assert.deepEqual(mcpToolParts('odd'), { server: 'unknown', tool: 'odd' });
    assert.equal(shortDescription('Line one.\n\n  Line   two.'), 'Line one. Line two.');
    assert.equal(shortDescription('d'.repeat(500)).length, 160);
  });
});

describe('who confirms an MCP tool', () => {
  const invoke = () => Promise.resolve([{ kind: 'text' as const, text: 'ok' }]);
  const options = { invoke, clock: new VirtualClock(), allowed: () => [] };
  const builtIns = allTools.map((builtIn) => builtIn.name);

  test('VS Code confirms MCP tools (in the chat, or its dialog): the agent does not ask again; an extension tool still asks', () => {
    const { offered } = selectHostTools([tool('mcp_probe_note', ['mcp']), tool('gatewayE2e_weather')], ['mcp_probe_note', 'gatewayE2e_weather'], [], builtIns);
    const [mcp, extension] = offered.map((selected) => hostAgentTool(selected, options));
    for (const mode of ['ask', 'auto-edit', 'auto'] as const) assert.equal(mcp.needsApproval!(mode), false, mode);
    assert.equal(extension.needsApproval!('ask'), true);
  });

  test('a host tool named like one of ours is refused, never shadowing ours', () => {
    const selection = selectHostTools([tool('read_file', ['mcp'])], ['read_file'], [], builtIns);
    assert.deepEqual(selection.offered, []);
    assert.match(selection.skipped[0].reason, /taken by a built-in tool/);
  });
});

describe('what the session says about its MCP tools', () => {
  test('the servers with their tools, and what is missing with why and what to do', () => {
    const note = mcpReadinessNote({ offered: ['mcp_probe_echo', 'mcp_probe_note'], missing: ['mcp_slow_x'], timedOutAfterMs: 20_000 });
    assert.equal(
      note,
      'MCP tools for this session: probe (`echo`, `note`). Not available: `mcp_slow_x` (their servers did not start within 20 s). ' +
        'Check the server with "MCP: List Servers" → Show Output, or choose again with "Gateway: Choose Agent Tools…".',
    );
    assert.equal(mcpReadinessNote({ offered: [], missing: [] }), undefined);
  });

  test('bounded: a server with hundreds of tools is listed by its first twenty', () => {
    const offered = Array.from({ length: 300 }, (_, i) => `mcp_big_t${i}`);
    const note = mcpReadinessNote({ offered, missing: [] })!;
    assert.match(note, /and 280 more\)\.$/);
    assert.ok(note.length < 600);
  });
});
