// run_subagent in a real VS Code: with gateway.agent.subagents on, a scripted session hands a search to a
// subagent; the subagent runs on its own chain with the read-only tools, its answer alone reaches the parent
// model (the emulator's log), and the session's transcript shows it nested under the call with its steps.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  agentSessions(): Promise<{ id: string; title: string; status: string; subagents?: { task: string; status: string; steps: string[] }[] }[]>;
}

const TASK = 'where is locateMe defined? use a subagent';
const SIDE_TASK = 'Find where the function locateMe is defined; answer with path:line.';
const ANSWER = 'locateMe is defined in subagent-e2e/locate.ts:1.';
// A file of its own: earlier tests of the suite change the sample workspace's files and ignore lists.
const PROBE = 'subagent-e2e/locate.ts';
const PROBE_TEXT = 'export function locateMe(): number {\n  return 1;\n}\n';
const READ_ONLY = ['read_file', 'list_files', 'search_text', 'get_problems', 'code_navigation'];

test(
  '/agent: a subagent searches on its own chain; only its answer reaches the parent, nested in the transcript',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const config = vscode.workspace.getConfiguration('gateway');
    const root = vscode.workspace.workspaceFolders![0].uri;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, PROBE), new TextEncoder().encode(PROBE_TEXT));
    try {
      await resetEmulator();
      await config.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await config.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await config.update('agent.subagents', true, vscode.ConfigurationTarget.Global);
      await scriptTurns('demo-key', [
        { toolCalls: [{ name: 'run_subagent', arguments: { task: SIDE_TASK } }] },
        { toolCalls: [{ name: 'search_text', arguments: { pattern: 'function locateMe' } }] },
        { text: ANSWER },
        // The parent model answers only when the subagent's answer reached it.
        { text: 'It is in subagent-e2e/locate.ts.', requires: { text: ANSWER, otherwise: { text: 'No answer from the subagent.' } } },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${TASK}` });
      const session = await waitFor(
        'the session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.status === 'done'),
        60_000,
      );
      assertEqual(
        JSON.stringify(session.subagents),
        JSON.stringify([{ task: SIDE_TASK, status: 'done', steps: ['Search for function locateMe'] }]),
        'subagents',
      );

      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      assertEqual(bodies.length, 4, 'responses requests');
      const names = (body: { tools: { name: string }[] }) => body.tools.map((tool) => tool.name);
      assert(names(bodies[0]).includes('run_subagent'), 'the parent is offered run_subagent');
      for (const child of bodies.slice(1, 3)) assertEqual(JSON.stringify(names(child)), JSON.stringify(READ_ONLY), "the subagent's tools");
      assertEqual(bodies[1].previous_response_id, undefined, 'the subagent starts its own chain');
      assertEqual(JSON.stringify(bodies[3].input.map((item: { output?: string }) => item.output)), JSON.stringify([ANSWER]), 'what the parent reads');
      const found = 'export function locateMe(): number';
      assert(JSON.stringify(bodies[2].input).includes(found), `the subagent reads the search result: ${JSON.stringify(bodies[2].input).slice(0, 1500)}`);
      assert(!JSON.stringify(bodies[3]).includes(found), 'the search result does not reach the parent');

      const transcript = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'gateway-transcript', path: `/${session.id}.md` }));
      const text = transcript.getText();
      assert(text.includes(`> **Subagent:** \`${SIDE_TASK}\``), `the transcript nests the subagent: ${text.slice(0, 1500)}`);
      assert(text.includes('> - `Search for function locateMe`'), 'with its steps');
    } finally {
      await config.update('agent.subagents', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, 'subagent-e2e'), { recursive: true });
    }
  },
  { timeoutMs: 90_000 },
);
