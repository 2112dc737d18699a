// A custom agent's `tools:` granting VS Code's tools (extensions', MCP servers') in Copilot's and Claude Code's
// forms: what each form grants, what a missing name becomes (a note, never a failure), and that a grant only
// narrows what the user enabled in "Choose Agent Tools…" (the user's approvals still apply).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { agentMaySubagent, limitTools, mapToolNames, type GrantableHostTool, type ToolCatalog } from '../../../src/agent/common/engine/agentTools';
import { agentStartNotes, sessionAgentOf } from '../../../src/agent/common/engine/sessionAgent';
import { parseCustomAgent } from '../../../src/customization/common/customAgents';
import { hostAgentTool, selectHostTools, type HostToolInfo } from '../../../src/tools/common/hostTools';
import { toolsFor } from '../../../src/tools/common/registry';
import type { Clock } from '../../../src/base/common/ports';
import { makeEngine, runToEnd, startSession, useEmulatorAndWorkspace } from '../helpers/agent';

const BUILT_INS = toolsFor(true).map((tool) => tool.name);
const HOST: GrantableHostTool[] = [
  { name: 'mcp_github_create_issue', mcp: true, enabled: true },
  { name: 'mcp_github_delete_repo', mcp: true, enabled: false },
  { name: 'mcp_my_a', mcp: true, enabled: true },
  { name: 'mcp_my_srv_x_y', mcp: true, enabled: true },
  { name: 'mcp_playwright_browser_navigate', mcp: true, enabled: true },
  { name: 'weather_lookup', mcp: false, referenceName: 'weather', enabled: true },
];
const CATALOG: ToolCatalog = { builtIns: BUILT_INS, host: HOST };
const grant = (...names: string[]) => mapToolNames(names, CATALOG);

describe("Copilot's and Claude Code's names for VS Code's tools", () => {
  test("an MCP server by the mcp.json name the user wrote, where VS Code's tool names carry the server's own", () => {
    // `filesystem` in mcp.json; the server calls itself `secure-filesystem-server`, so VS Code names its tools `mcp_secure-filesy_…`.
    const catalog: ToolCatalog = {
      builtIns: BUILT_INS,
      host: [
        { name: 'mcp_secure-filesy_read_file', mcp: true, server: 'filesystem', enabled: true },
        { name: 'mcp_secure-filesy_write_file', mcp: true, server: 'filesystem', enabled: true },
        ...HOST,
      ],
    };
    const both = ['mcp_secure-filesy_read_file', 'mcp_secure-filesy_write_file'];
    assert.deepEqual(mapToolNames(['filesystem/*'], catalog), { tools: both, unknown: [], notEnabled: [] });
    assert.deepEqual(mapToolNames(['filesystem/read_file'], catalog).tools, ['mcp_secure-filesy_read_file']);
    assert.deepEqual(mapToolNames(['mcp__filesystem__write_file'], catalog).tools, ['mcp_secure-filesy_write_file']);
    assert.deepEqual(mapToolNames(['filesystem'], catalog).tools, both);
    // The server's own name still grants them.
    assert.deepEqual(mapToolNames(['secure-filesy/*'], catalog).tools, both);
    // Another server's name grants none of them.
    assert.deepEqual(mapToolNames(['github/*'], catalog).tools, ['mcp_github_create_issue', 'mcp_github_delete_repo']);
  });

  test("Copilot: `server/*`, `server/tool`, a server's name, a tool's reference name, VS Code's own name", () => {
    assert.deepEqual(grant('github/*').tools, ['mcp_github_create_issue', 'mcp_github_delete_repo']);
    assert.deepEqual(grant('github/create_issue').tools, ['mcp_github_create_issue']);
    assert.deepEqual(grant('github').tools, ['mcp_github_create_issue', 'mcp_github_delete_repo']);
    assert.deepEqual(grant('playwright/browser_navigate').tools, ['mcp_playwright_browser_navigate']);
    assert.deepEqual(grant('weather').tools, ['weather_lookup']);
    assert.deepEqual(grant('Weather').tools, ['weather_lookup']);
    assert.deepEqual(grant('some.extension/weather').tools, ['weather_lookup']);
    assert.deepEqual(grant('mcp_github_create_issue').tools, ['mcp_github_create_issue']);
    // Built-in tool sets keep their meaning next to VS Code's tools.
    assert.deepEqual(grant('read', 'github/create_issue').tools, ['read_file', 'list_files', 'mcp_github_create_issue']);
  });

  test('Claude Code: `mcp__server__tool` and `mcp__server`', () => {
    assert.deepEqual(grant('mcp__github__create_issue').tools, ['mcp_github_create_issue']);
    assert.deepEqual(grant('mcp__github').tools, ['mcp_github_create_issue', 'mcp_github_delete_repo']);
    assert.deepEqual(grant('Read', 'mcp__playwright__browser_navigate').tools, ['read_file', 'mcp_playwright_browser_navigate']);
  });

  test('a server whose name holds "_": its tools only, not those of a shorter name it starts with', () => {
    assert.deepEqual(grant('mcp__my_srv__x_y').tools, ['mcp_my_srv_x_y']);
    assert.deepEqual(grant('my_srv/*').tools, ['mcp_my_srv_x_y']);
    // Both named: each gets its own.
    assert.deepEqual(grant('my/*', 'my_srv/x_y').tools, ['mcp_my_a', 'mcp_my_srv_x_y']);
    assert.deepEqual(mapToolNames(['my/*', 'my_srv'], CATALOG).tools, ['mcp_my_a', 'mcp_my_srv_x_y']);
  });

  test('names of no tool are listed, never a failure; hostile names included', () => {
    const hostile = ['github/nope', 'mcp__nowhere__x', 'mcp__', '/', '*/*', 'x'.repeat(5000), '日本語/*', 'mcp__日本語__検索', '../../etc', ''];
    const mapped = grant('read_file', ...hostile);
    assert.deepEqual(mapped.tools, ['read_file']);
    assert.deepEqual(mapped.unknown, hostile);
    const notes = agentStartNotes({ kind: 'agent', name: 'r', path: 'p', tools: mapped.tools, unknownTools: mapped.unknown }, { used: 'gw-code', found: true });
    assert.equal(notes.length, 2);
    assert.match(notes[1], /^Agent "r" names tools neither this extension nor VS Code has, left out: github\/nope, mcp__nowhere__x, /);
    assert.ok(notes[1].length < 1200, 'a hostile name is cut in the note');
  });

  test('a granted tool the user has not enabled is kept and named in a note; `*` grants every tool there is', () => {
    const agent = parseCustomAgent('.claude/agents/triage.md', '---\ndescription: d\ntools: Read, mcp__github, fetch\n---\nTriage.');
    assert.ok(typeof agent !== 'string');
    const session = sessionAgentOf(agent, CATALOG);
    assert.deepEqual(session.tools, ['read_file', 'mcp_github_create_issue', 'mcp_github_delete_repo']);
    assert.deepEqual(session.unknownTools, ['fetch']);
    assert.deepEqual(session.notEnabledTools, ['mcp_github_delete_repo']);
    assert.deepEqual(agentStartNotes(session, { used: 'gw-code', found: true }).slice(1), [
      'Agent "triage" names tools neither this extension nor VS Code has, left out: fetch.',
      'Agent "triage" names VS Code tools you have not enabled, left out until you do ("Gateway: Choose Agent Tools…"): mcp_github_delete_repo.',
    ]);
    assert.deepEqual(grant('*').tools, [...BUILT_INS, 'run_subagent', ...HOST.map((tool) => tool.name)]);
    assert.deepEqual(grant('*').notEnabled, [], '`*` is no list of names to warn about');
  });

  test("an agent's own `mcp-servers` block (Copilot's) is not started and is said at the start, never dropped silently", () => {
    // The shape of Copilot's agent files with servers of their own (a YAML map under the key).
    const text =
      "---\nname: 'Azure Principal Architect'\ndescription: Designs on Azure\ntools: ['read', 'azure-mcp/*']\n" +
      'mcp-servers:\n  azure-mcp:\n    type: local\n    command: npx\n    args: ["-y", "@azure/mcp@latest", "server", "start"]\n---\nDesign.\n';
    const agent = parseCustomAgent('.github/agents/azure.agent.md', text);
    assert.ok(typeof agent !== 'string', String(agent));
    assert.equal(agent.name, 'Azure Principal Architect');
    const notes = agentStartNotes(sessionAgentOf(agent, CATALOG), { used: 'gw-code', found: true });
    assert.ok(
      notes.some((note) =>
        /declares MCP servers of its own \(`mcp-servers`\), which this extension does not start: add them to \.vscode\/mcp\.json/.test(note),
      ),
      notes.join('\n'),
    );
    // Without the block, no such note.
    const plain = parseCustomAgent('.github/agents/p.agent.md', '---\ndescription: d\n---\nBody.\n');
    assert.ok(typeof plain !== 'string');
    assert.ok(!agentStartNotes(sessionAgentOf(plain, CATALOG), { used: 'gw-code', found: true }).some((note) => note.includes('mcp-servers')));
  });
});

describe('a grant narrows what the user enabled, never widens it', () => {
  const info = (name: string, tags?: string[]): HostToolInfo => ({
    name,
    description: `The ${name} tool.`,
    inputSchema: { type: 'object', properties: {} },
    ...(tags ? { tags } : {}),
  });
  const clock: Clock = { now: () => 0, sleep: () => new Promise(() => undefined), after: () => undefined };
  /** The host tools offered as the extension offers them: only those the user enabled. */
  function offered(enabled: string[]) {
    const available = [info('mcp_github_create_issue', ['mcp']), info('mcp_github_delete_repo', ['mcp']), info('weather_lookup')];
    const invoke = async () => [{ kind: 'text' as const, text: 'done' }];
    return selectHostTools(available, enabled, [], BUILT_INS).offered.map((tool) => hostAgentTool(tool, { invoke, clock, allowed: () => [] }));
  }

  test('`*` and `github/*` offer only the enabled ones; the tools offered are the same objects (same approvals)', () => {
    const host = offered(['mcp_github_create_issue', 'weather_lookup']);
    const all = [...toolsFor(true), ...host];
    const github = limitTools(all, grant('github/*').tools);
    assert.deepEqual(
      github.map((tool) => tool.name),
      ['mcp_github_create_issue'],
    );
    assert.equal(github[0], host[0]);
    assert.deepEqual(
      limitTools(all, grant('*').tools).map((tool) => tool.name),
      all.map((tool) => tool.name),
    );
    // Untrusted: no host tools are offered and no write tool; a grant of both adds neither.
    assert.deepEqual(
      limitTools(toolsFor(false), grant('write_file', 'github/*', 'weather').tools).map((tool) => tool.name),
      [],
    );
  });

  test('subagents (on by default) only for an agent that names them: `agent`, `runSubagent`, `Task`, `*`, or no list', () => {
    assert.equal(agentMaySubagent(undefined), true);
    assert.equal(agentMaySubagent(grant('read', 'search').tools), false);
    for (const names of [['agent'], ['runSubagent'], ['Task'], ['*'], ['run_subagent']]) assert.equal(agentMaySubagent(grant(...names).tools), true, names[0]);
  });

  test('an extension tool granted still asks in ask mode: the grant does not approve it', () => {
    const [weather] = offered(['weather_lookup']);
    const [limited] = limitTools([weather], grant('weather').tools);
    assert.equal(limited.needsApproval?.('ask'), true);
    assert.equal(limited.needsApproval?.('auto'), true, 'under auto only a tool the user allowed runs unasked');
  });

  describe('over real HTTP', () => {
    const fixture = useEmulatorAndWorkspace({ 'a.txt': 'hello' });
    test('a model calling a granted tool the user did not enable gets "no such tool"; the enabled one runs', async () => {
      const { emulator, workspace } = fixture;
      const host = offered(['mcp_github_create_issue']);
      const allowed = grant('read', 'mcp__github').tools;
      emulator.script('demo-key', [
        { toolCalls: [{ name: 'mcp_github_delete_repo', arguments: {} }] },
        { toolCalls: [{ name: 'mcp_github_create_issue', arguments: {} }] },
        { text: 'Filed.' },
      ]);
      const { engine } = makeEngine({ baseUrl: emulator.baseUrl, workspace, extraTools: host, limitTools: (tools) => limitTools(tools, allowed) });
      const state = startSession('file an issue');
      await runToEnd(engine, state);
      assert.equal(state.status, 'done');
      const bodies = emulator.requests
        .filter((r) => r.path === '/v1/responses')
        .map((r) => r.body as { tools: { name: string }[]; input: { output?: string }[] });
      assert.deepEqual(
        bodies[0].tools.map((tool) => tool.name),
        ['read_file', 'list_files', 'mcp_github_create_issue'],
      );
      assert.match(String(bodies[1].input[0].output), /^There is no tool named "mcp_github_delete_repo"/);
      assert.equal(bodies[2].input[0].output, 'done');
    });
  });
});
