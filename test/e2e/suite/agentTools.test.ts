// The agent with what the user already has, in a real VS Code: a tool another extension
// registers through vscode.lm.registerTool (test/e2e/fixtures/lm-tool-extension), the plan,
// and an AGENTS.md rule the scripted model checks for.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<
    { id: string; title: string; status: string; turns: number; plan?: { step: string; status: string }[]; projectInstructions?: string[] }[]
  >;
}

const TOOL = 'gatewayE2e_weather';
const RULE = 'When you finish, end your answer with: (AGENTS.md rule followed)';
const root = () => vscode.workspace.workspaceFolders![0].uri;

test(
  '/agent: an AGENTS.md rule, a visible plan, and a VS Code tool from another extension, approved',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    await waitFor(`${TOOL} in vscode.lm.tools`, () => vscode.lm.tools.some((tool) => tool.name === TOOL), 30_000);
    await vscode.commands.executeCommand('gateway.agent.chooseTools', [TOOL]);
    const agentsMd = vscode.Uri.joinPath(root(), 'AGENTS.md');
    await vscode.workspace.fs.writeFile(agentsMd, new TextEncoder().encode(`# Rules\n\n${RULE}\n`));
    try {
      await resetEmulator();
      // Set here too, so the test also runs alone (E2E_GREP).
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      const steps = (first: string, second: string) => [
        { step: 'Ask the weather tool', status: first },
        { step: 'Answer', status: second },
      ];
      await scriptTurns('demo-key', [
        { toolCalls: [{ name: 'update_plan', arguments: { steps: steps('in_progress', 'pending') } }] },
        { toolCalls: [{ name: TOOL, arguments: { city: 'Paris' } }] },
        { toolCalls: [{ name: 'update_plan', arguments: { steps: steps('done', 'done') } }] },
        // The scripted model "checks" the rule: this answer only when the rule reached it.
        { text: 'Sunny in Paris. (AGENTS.md rule followed)', requires: { text: RULE, otherwise: { text: 'Sunny in Paris.' } } },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent what is the weather in Paris?' });

      const pending = await waitFor('the approval of the VS Code tool', () => gateway.pendingApprovals().find((p) => p.summary.includes(TOOL)), 30_000);
      assertEqual(pending.summary, `Use ${TOOL} with {"city":"Paris"}`, 'the approval names the tool and its input');
      // "Show Full Input": the whole input, pretty-printed, in a read-only document of the approval broker.
      await vscode.commands.executeCommand('gateway.agent.showInput', pending.sessionId, pending.callId);
      const shown = await waitFor(
        'the full input in an editor',
        () => vscode.window.visibleTextEditors.find((editor) => editor.document.uri.scheme === 'gateway-proposed' && editor.document.uri.fragment === 'input'),
        10_000,
      );
      assert(shown.document.getText().includes('{\n  "city": "Paris"\n}'), `the full input: ${shown.document.getText()}`);
      await vscode.commands.executeCommand('gateway.agent.approve', pending.sessionId, pending.callId);
      const session = await waitFor(
        'the session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'what is the weather in Paris?' && s.status === 'done'),
        30_000,
      );

      assertEqual(JSON.stringify(session.plan), JSON.stringify(steps('done', 'done')), 'the plan kept with the session');
      assertEqual(JSON.stringify(session.projectInstructions), '["AGENTS.md"]', 'the project instructions used');
      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      assertEqual(bodies.length, 4, 'responses requests');
      assert(
        bodies[0].tools.some((tool: { name: string }) => tool.name === TOOL),
        'the enabled tool is offered',
      );
      assert(
        bodies[0].input.some((item: { role?: string; content?: string }) => item.role === 'developer' && item.content?.includes(RULE)),
        'AGENTS.md is sent as an input item',
      );
      assert(!String(bodies[0].instructions).includes(RULE), 'and not in instructions');
      const toolOutput: string = bodies[2].input[0].output;
      assertEqual(toolOutput, 'Weather in Paris: sunny, 21 °C (from the e2e tool)', "the tool's result reaches the model");
      const transcript = await vscode.workspace.openTextDocument(vscode.Uri.from({ scheme: 'gateway-transcript', path: `/${session.id}.md` }));
      assert(transcript.getText().includes('Sunny in Paris. (AGENTS.md rule followed)'), `the rule was followed: ${transcript.getText().slice(-400)}`);
    } finally {
      await vscode.workspace.fs.delete(agentsMd);
      await vscode.commands.executeCommand('gateway.agent.chooseTools', []);
    }
  },
  { timeoutMs: 90_000 },
);
