// Host tool names: the name the model sees (valid, bounded, never two alike) and an MCP tool's server when the
// server's own name holds `_` (VS Code's `mcp_<server>_<tool>` alone cannot tell).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { mcpServerPart, mcpToolParts, mcpToolServers, mcpToolsOfServer, modelToolName } from '../../../src/tools/common/mcpNames';
import { serversWithoutTools } from '../../../src/tools/common/mcpConfig';
import { groupHostTools, mcpReadinessNote } from '../../../src/tools/common/hostToolCatalog';
import { selectHostTools, type HostToolInfo } from '../../../src/tools/common/hostTools';
import { allTools } from '../../../src/tools/common/registry';

const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const info = (name: string): HostToolInfo => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: {} }, tags: ['mcp'] });

describe('the name the model sees', () => {
  test('a valid name stays as VS Code gives it', () => {
    for (const name of ['mcp_my_srv_x_y', 'weather', 'a-b_C9', 'x'.repeat(64)]) assert.equal(modelToolName(name), name);
  });

  test('hostile names: long, unicode, empty, spaces, dots: all valid and at most 64 characters, none alike', () => {
    const long = 'mcp_server_' + 'very_long_tool_name_'.repeat(10);
    const hostile = [
      long,
      long + 'b',
      long.replace(/_$/, '-'),
      'mcp_日本語_検索',
      'mcp_中文_搜索',
      'mcp_ünïcode_tööl',
      '🙂',
      '🙃',
      '',
      ' ',
      'a.b',
      'a b',
      'a/b',
      'a_b',
      'x'.repeat(65),
      'x'.repeat(66),
      'mcp_srv_tool\u0000',
      'mcp_srv_tool\n',
    ];
    const names = hostile.map(modelToolName);
    for (const [i, name] of names.entries()) assert.match(name, FUNCTION_NAME, JSON.stringify(hostile[i]));
    assert.equal(new Set(names).size, hostile.length, names.join('\n'));
    // The same host name always gets the same model name (sessions saved and continued call it again).
    assert.deepEqual(hostile.map(modelToolName), names);
  });

  test('offered together, names that VS Code spells apart stay apart: none skipped for a clash', () => {
    const hosts = ['mcp_日本語_検索', 'mcp_中文_搜索', 'a.b', 'a b', 'a_b', 'q'.repeat(70) + '1', 'q'.repeat(70) + '2'];
    const selection = selectHostTools(
      hosts.map(info),
      hosts,
      [],
      allTools.map((tool) => tool.name),
    );
    assert.deepEqual(selection.skipped, []);
    assert.equal(new Set(selection.offered.map((tool) => tool.modelName)).size, hosts.length);
  });

  test('a host name equal to a built-in, or to another tool’s cleaned name, is still refused rather than shadowing it', () => {
    const taken = modelToolName('a.b');
    const selection = selectHostTools([info('read_file'), info('a.b'), info(taken)], ['read_file', 'a.b', taken], [], ['read_file']);
    assert.deepEqual(
      selection.offered.map((tool) => tool.hostName),
      ['a.b'],
    );
    assert.equal(selection.skipped.length, 2);
  });
});

describe("an MCP tool's server", () => {
  test('VS Code\'s server part: lower case, other characters as "_", at most 13', () => {
    assert.equal(mcpServerPart('GitHub'), 'github');
    assert.equal(mcpServerPart('my srv!'), 'my_srv_');
    assert.equal(mcpServerPart('io.github.upstash/context7'), 'io.github.ups');
    assert.equal(mcpServerPart('Ünïcode'), '_n_code');
  });

  test('a server with "_" in its name: the known name that fits the longest decides', () => {
    assert.deepEqual(mcpToolParts('mcp_my_srv_x_y', ['my_srv']), { server: 'my_srv', tool: 'x_y' });
    assert.deepEqual(mcpToolParts('mcp_my_srv_x_y', ['my', 'my_srv']), { server: 'my_srv', tool: 'x_y' });
    assert.deepEqual(mcpToolParts('mcp_my_srv_x_y', ['my']), { server: 'my', tool: 'srv_x_y' });
    // VS Code's digit for a second server of the same name.
    assert.deepEqual(mcpToolParts('mcp_my_srv2_x_y', ['my_srv']), { server: 'my_srv', tool: 'x_y' });
    // None known: the first part, as before.
    assert.deepEqual(mcpToolParts('mcp_my_srv_x_y'), { server: 'my', tool: 'srv_x_y' });
    assert.deepEqual(mcpToolParts('odd'), { server: 'unknown', tool: 'odd' });
  });

  test("a server's tools: not those of a longer server name it starts, not a prefix that is no server's", () => {
    const names = ['mcp_my_a', 'mcp_my_b_c', 'mcp_my_srv_x_y', 'mcp_my_srv_z', 'mcp_mysrv_q', 'mcp_my2_d', 'weather'];
    const servers = ['my', 'my_srv'];
    assert.deepEqual(mcpToolsOfServer(names, 'my', { servers }), ['mcp_my_a', 'mcp_my_b_c', 'mcp_my2_d']);
    assert.deepEqual(mcpToolsOfServer(names, 'my_srv', { servers }), ['mcp_my_srv_x_y', 'mcp_my_srv_z']);
    assert.deepEqual(mcpToolsOfServer(names, 'my_srv', { tool: 'x.y', servers }), ['mcp_my_srv_x_y']);
    assert.deepEqual(mcpToolsOfServer(names, 'My Srv'), ['mcp_my_srv_x_y', 'mcp_my_srv_z']);
    assert.deepEqual(mcpToolsOfServer(names, ''), []);
    assert.deepEqual(mcpToolsOfServer(names, 'nope'), []);
  });

  test('a long server name matches by its first 13 characters, as VS Code cuts it', () => {
    const names = ['mcp_averyveryvery_search'];
    assert.deepEqual(mcpToolsOfServer(names, 'AVeryVeryVeryLongServerName'), names);
  });
});

// VS Code 1.139 names a server's tools after the name the server reports (`@modelcontextprotocol/server-filesystem`
// calls itself `secure-filesystem-server`), not the mcp.json key the user wrote (`filesystem`).
describe('a server that reports a name of its own', () => {
  const tools = ['mcp_secure-filesy_read_file', 'mcp_secure-filesy_write_file', 'mcp_memory_create_entities'];

  test('its tools are the configured name left without tools, when one name and one prefix are left', () => {
    const servers = mcpToolServers(tools, ['filesystem', 'memory']);
    assert.deepEqual(Object.fromEntries(servers), {
      'mcp_secure-filesy_read_file': 'filesystem',
      'mcp_secure-filesy_write_file': 'filesystem',
      mcp_memory_create_entities: 'memory',
    });
  });

  test('two names and two prefixes left: no guess, the tools keep their own server name', () => {
    const servers = mcpToolServers([...tools, 'mcp_other-server_x'], ['filesystem', 'memory', 'notes']);
    assert.deepEqual(Object.fromEntries(servers), { mcp_memory_create_entities: 'memory' });
  });

  test("the wait for each configured server's tools ends when the renamed server lists its tools", () => {
    assert.deepEqual(serversWithoutTools(['filesystem', 'memory'], tools), []);
    assert.deepEqual(serversWithoutTools(['filesystem', 'memory'], ['mcp_memory_create_entities']), ['filesystem']);
    // A second server of the same name (VS Code adds a digit) is still not the configured one.
    assert.deepEqual(serversWithoutTools(['probe'], ['mcp_probe2_echo']), ['probe']);
  });

  test('the picker and the session note say the name the user wrote', () => {
    const servers = mcpToolServers(tools, ['filesystem', 'memory']);
    const groups = groupHostTools(tools.map(info), new Map(), servers);
    assert.deepEqual(
      groups.map((group) => group.title),
      ['MCP server: filesystem', 'MCP server: memory'],
    );
    assert.match(
      mcpReadinessNote({ offered: tools.slice(0, 2), missing: [] }, servers) ?? '',
      /^MCP tools for this session: filesystem \(`read_file`, `write_file`\)\.$/,
    );
  });
});
