// Real repositories' customisation files as their authors meant them, in a real VS Code (issue 38): a custom agent
// whose `name` has spaces (as Copilot's guide writes it) is started from the chat by that name, and a Copilot
// instructions file whose applyTo matches a file the session reads reaches the model after that read, not before.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface FilesApi {
  agentSessions(): Promise<{ title: string; status: string; agent?: { name: string; path: string; tools?: string[] }; projectInstructions?: string[] }[]>;
}

const AGENT_PATH = '.github/agents/e2e-architect.agent.md';
const AGENT = "---\nname: 'E2E Principal Architect'\ndescription: Reviews designs\ntools: ['read', 'search']\n---\n\nYou review designs. End with DESIGNED.\n";
const INSTRUCTIONS_PATH = '.github/instructions/e2e-typescript.instructions.md';
const RULE = 'E2E-TS-RULE: prefer readonly arrays.';
const INSTRUCTIONS = `---\napplyTo: '**/*.e2ets'\n---\n${RULE}\n`;
const SAMPLE = 'e2e-files/sample.e2ets';

const write = (root: vscode.Uri, path: string, text: string) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, path), new TextEncoder().encode(text));

test(
  '/agent @<a name with spaces> runs as that agent; an instructions file applies once the session reads a matching file',
  async () => {
    const gateway = await vscode.extensions.getExtension<FilesApi>(EXTENSION_ID)!.activate();
    const root = vscode.workspace.workspaceFolders![0].uri;
    await write(root, AGENT_PATH, AGENT);
    await write(root, INSTRUCTIONS_PATH, INSTRUCTIONS);
    await write(root, SAMPLE, 'export const names = ["a"];\n');
    try {
      const config = vscode.workspace.getConfiguration('gateway');
      await config.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await config.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await resetEmulator();
      await scriptTurns('demo-key', [{ toolCalls: [{ name: 'read_file', arguments: { path: SAMPLE } }] }, { text: 'DESIGNED' }]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: '@gateway /agent @E2E Principal Architect review the sample' });
      const session = await waitFor(
        'the custom agent session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'review the sample' && s.status === 'done'),
        60_000,
      );
      assertEqual(session.agent?.name, 'E2E Principal Architect', 'the name with spaces is the agent named');
      assertEqual(session.agent?.path, AGENT_PATH, "the agent's file");
      const responses = (await emulatorRequests()).filter((r) => r.path === '/v1/responses');
      assertEqual(responses.length, 2, 'responses requests');
      assert(String(responses[0].body.instructions).includes('You review designs. End with DESIGNED.'), "the agent's instructions are sent");
      assert(!JSON.stringify(responses[0].body).includes(RULE), 'the instructions file is not sent before a matching file is read');
      assert(JSON.stringify(responses[1].body.input).includes(RULE), 'it is sent after the read of a file its applyTo matches');
      assert(session.projectInstructions?.includes(INSTRUCTIONS_PATH) === true, `listed as applied: ${JSON.stringify(session.projectInstructions)}`);
    } finally {
      for (const path of ['.github/agents', '.github/instructions', 'e2e-files'])
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, path), { recursive: true }).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 120_000 },
);
