// A workspace skill (.github/skills/<name>/SKILL.md) in a real VS Code: listed in the session's first
// request by name and description only, its body read by the scripted model with read_file, named in the session.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  agentSessions(): Promise<{ id: string; title: string; status: string; projectInstructions?: string[] }[]>;
}

const SKILL_PATH = '.github/skills/e2e-greeting/SKILL.md';
const LISTED = '- e2e-greeting: Greet the user the e2e way. (.github/skills/e2e-greeting/SKILL.md)';
const BODY = 'Always greet with: Hello from the e2e skill.';
const TASK = 'greet me using the skill';

test(
  '/agent: a workspace skill is listed, its SKILL.md read on demand',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const root = vscode.workspace.workspaceFolders![0].uri;
    const skills = vscode.Uri.joinPath(root, '.github', 'skills');
    const skill = `---\nname: e2e-greeting\ndescription: Greet the user the e2e way.\n---\n\n${BODY}\n`;
    await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, SKILL_PATH), new TextEncoder().encode(skill));
    try {
      await resetEmulator();
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await scriptTurns('demo-key', [
        // The scripted model opens the skill only when the listing reached it.
        { toolCalls: [{ name: 'read_file', arguments: { path: SKILL_PATH } }], requires: { text: LISTED, otherwise: { text: 'No skill listed.' } } },
        { text: 'Hello from the e2e skill.' },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${TASK}` });
      const session = await waitFor(
        'the session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.status === 'done'),
        60_000,
      );

      assertEqual(JSON.stringify(session.projectInstructions), JSON.stringify([SKILL_PATH]), 'the skill file is named with the project instructions');
      const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
      assertEqual(bodies.length, 2, 'responses requests');
      const developer = bodies[0].input.find((item: { role?: string }) => item.role === 'developer')?.content ?? '';
      assert(developer.includes(LISTED), `the skill is listed in the first request: ${developer}`);
      assert(!developer.includes(BODY), 'its body is not sent up front');
      assert(JSON.stringify(bodies[1].input).includes(BODY), 'its body reaches the model through read_file');
    } finally {
      await vscode.workspace.fs.delete(skills, { recursive: true });
    }
  },
  { timeoutMs: 90_000 },
);
