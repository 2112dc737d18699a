// An MCP server the workspace configures (.vscode/mcp.json, the stdio server of
// test/e2e/fixtures/mcp-probe) used by the agent in a real VS Code: "Choose Agent Tools…" starts it
// (VS Code starts MCP servers only for its own chat) and enables its tools, a scripted session calls
// them from a @gateway request, and the model receives their results, the large one cut to the bound.
// Its tools are read-only, so VS Code runs them without asking, and the agent does not ask either.
import * as path from 'node:path';
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

const ECHO = 'mcp_probe_echo';
const FLOOD = 'mcp_probe_flood';
const TASK = 'ask the probe server to echo a greeting';
const root = () => vscode.workspace.workspaceFolders![0].uri;

/** `.vscode/mcp.json` naming the probe server (node: the extension host's own). */
async function writeMcpJson(extensionPath: string): Promise<vscode.Uri> {
  const server = path.join(extensionPath, 'test', 'e2e', 'fixtures', 'mcp-probe', 'server.mjs');
  const file = vscode.Uri.joinPath(root(), '.vscode', 'mcp.json');
  const config = { servers: { probe: { type: 'stdio', command: process.execPath, args: [server] } } };
  await vscode.workspace.fs.writeFile(file, new TextEncoder().encode(JSON.stringify(config, null, 2)));
  return file;
}

test(
  '/agent: an MCP server of .vscode/mcp.json started by Choose Agent Tools, its tools called with the request token',
  async () => {
    const extension = vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!;
    const gateway = await extension.activate();
    const mcpJson = await writeMcpJson(extension.extensionPath);
    try {
      assert(!vscode.lm.tools.some((tool) => tool.name === ECHO), 'the server is not running before the agent starts it');
      const started = Date.now();
      await vscode.commands.executeCommand('gateway.agent.chooseTools', [ECHO, FLOOD]);
      const probeTools = vscode.lm.tools.filter((tool) => tool.name.startsWith('mcp_probe_'));
      console.log(`MCP probe tools listed ${Date.now() - started} ms after Choose Agent Tools: ${probeTools.map((t) => t.name).join(', ')}`);
      assertEqual(
        probeTools
          .map((tool) => tool.name)
          .sort()
          .join(','),
        'mcp_probe_echo,mcp_probe_flood,mcp_probe_note',
        "the server's tools",
      );
      assert(
        probeTools.every((tool) => tool.tags.includes('mcp')),
        'tagged mcp',
      );

      await resetEmulator();
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      // `ask`: our own tools would ask; the MCP tools are VS Code's to confirm (read-only: it does not).
      await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await scriptTurns('demo-key', [
        { toolCalls: [{ name: ECHO, arguments: { text: 'hello from the model' } }] },
        { toolCalls: [{ name: FLOOD, arguments: {} }] },
        { text: 'The probe server answered.' },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${TASK}` });
      // Were the agent to ask as well, the session would wait for an approval nobody gives and never finish.
      await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.status === 'done'), 45_000);
      assertEqual(gateway.pendingApprovals().length, 0, 'nothing asked by the agent itself');

      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      assertEqual(bodies.length, 3, 'responses requests');
      const offered = bodies[0].tools.map((tool: { name: string }) => tool.name);
      assert(
        offered.includes(ECHO) && offered.includes(FLOOD) && !offered.includes('mcp_probe_note'),
        `the chosen MCP tools are offered: ${offered.join(', ')}`,
      );
      assert(offered.includes('read_file'), 'beside our own tools');
      assertEqual(bodies[1].input[0].output, 'probe echo: hello from the model', "the MCP tool's result reached the model");
      const flood: string = bodies[2].input[0].output;
      assert(flood.startsWith('flood start xxx'), `the large result's head: ${flood.slice(0, 40)}`);
      // Cut like our own tools' outputs (to 32 KB, then to what the model's window leaves), never whole.
      assert(!flood.includes('flood end') && flood.includes('[Output cut at'), `the large result is cut: …${flood.slice(-160)}`);
      assert(flood.length < 33_000, `bounded: ${flood.length} characters`);
      console.log(`the 200,000-character MCP result reached the model as ${flood.length} characters`);
    } finally {
      await vscode.commands.executeCommand('gateway.agent.chooseTools', []);
      await vscode.workspace.fs.delete(mcpJson);
    }
  },
  { timeoutMs: 120_000 },
);

// A server whose mcp.json key (`files`) is not the name it reports (`secure-probe-server`): VS Code names its tools
// `mcp_secure-probe-_…`; a custom agent grants them by the key the user wrote, and a scripted session calls one.
const RENAMED_ECHO = 'mcp_secure-probe-_echo';
const RENAMED_TASK = 'echo through the renamed server';

test(
  "/agent @name: a custom agent's grant of an MCP server by its mcp.json name, where the server reports another",
  async () => {
    const extension = vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!;
    const gateway = await extension.activate();
    const server = path.join(extension.extensionPath, 'test', 'e2e', 'fixtures', 'mcp-probe', 'server.mjs');
    const mcpJson = vscode.Uri.joinPath(root(), '.vscode', 'mcp.json');
    const config = { servers: { files: { type: 'stdio', command: process.execPath, args: [server, '--name', 'secure-probe-server'] } } };
    await vscode.workspace.fs.writeFile(mcpJson, new TextEncoder().encode(JSON.stringify(config, null, 2)));
    const agentFile = vscode.Uri.joinPath(root(), '.github', 'agents', 'file-echo.agent.md');
    await vscode.workspace.fs.writeFile(
      agentFile,
      new TextEncoder().encode("---\ndescription: Echoes through the files server\ntools: ['files/echo']\n---\n\nEcho what you are asked.\n"),
    );
    try {
      await vscode.commands.executeCommand('gateway.agent.chooseTools', [RENAMED_ECHO]);
      const listed = vscode.lm.tools.map((tool) => tool.name).filter((name) => name.startsWith('mcp_secure-probe-'));
      assert(listed.includes(RENAMED_ECHO), `VS Code names the tools after the server's own name: ${listed.join(', ')}`);

      await resetEmulator();
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await scriptTurns('demo-key', [{ toolCalls: [{ name: RENAMED_ECHO, arguments: { text: 'by the name I wrote' } }] }, { text: 'Echoed.' }]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent @file-echo ${RENAMED_TASK}` });
      await waitFor(
        'the session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title.includes(RENAMED_TASK) && s.status === 'done'),
        45_000,
      );
      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      const offered: string[] = bodies[0].tools.map((tool: { name: string }) => tool.name);
      // The agent's list is its grant: the renamed server's echo, and nothing of ours it did not name.
      assertEqual(
        offered.filter((name) => name.startsWith('mcp_')).join(','),
        RENAMED_ECHO,
        `the grant 'files/echo' offers the server's echo: ${offered.join(', ')}`,
      );
      assert(!offered.includes('write_file'), 'only what the agent names');
      assertEqual(bodies[1].input[0].output, 'probe echo: by the name I wrote', "the renamed server's result reached the model");
    } finally {
      await vscode.commands.executeCommand('gateway.agent.chooseTools', []);
      await vscode.workspace.fs.delete(mcpJson);
      await vscode.workspace.fs.delete(agentFile);
    }
  },
  { timeoutMs: 120_000 },
);
