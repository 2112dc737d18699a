// A custom agent and prompt files in a real VS Code: `@gateway /agent @e2e-reviewer …` runs a session with only
// the agent's tools (the emulator's log shows what was sent) and its model; `/prompt` runs a chat-mode prompt
// file with an input filled in, and an agent-mode one as a session limited to its tools.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface CustomApi {
  lastChatAnswer(): string | undefined;
  agentSessions(): Promise<{ title: string; status: string; model?: string; agent?: { name: string; path: string; tools?: string[] } }[]>;
}

const AGENT_PATH = '.github/agents/e2e-reviewer.agent.md';
const AGENT = "---\ndescription: Reviews without editing\ntools: ['read', 'fetch']\nmodel: GW Chat Pro\n---\n\nYou only review. End with REVIEWED.\n";
const CHAT_PROMPT = '---\ndescription: Greets someone\n---\nSay hello to ${input:who} in one line.\n';
const AGENT_PROMPT = "---\ndescription: Finds a word\nmode: agent\ntools: ['search']\n---\nFind the word ${input:word} in the workspace.\n";

const write = (root: vscode.Uri, path: string, text: string) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, path), new TextEncoder().encode(text));
const toolNames = (body: { tools?: { name: string }[] }) => (body.tools ?? []).map((tool) => tool.name).join(',');

async function ask(query: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query });
}

test(
  '/agent @name runs as the custom agent with only its tools and its model; /prompt runs prompt files',
  async () => {
    const gateway = await vscode.extensions.getExtension<CustomApi>(EXTENSION_ID)!.activate();
    const root = vscode.workspace.workspaceFolders![0].uri;
    await write(root, AGENT_PATH, AGENT);
    await write(root, '.github/prompts/e2e-hello.prompt.md', CHAT_PROMPT);
    await write(root, '.github/prompts/e2e-find.prompt.md', AGENT_PROMPT);
    try {
      await resetEmulator();
      const config = vscode.workspace.getConfiguration('gateway');
      await config.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await config.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await resetEmulator();

      // The custom agent: a write the model tries is refused (not offered), its read goes through.
      await scriptTurns('demo-key', [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'e2e-reviewed.txt', content: 'x' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: AGENT_PATH } }] },
        { text: 'REVIEWED' },
      ]);
      await ask('@gateway /agent @e2e-reviewer review the agent file');
      const session = await waitFor(
        'the custom agent session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title === 'review the agent file' && s.status === 'done'),
        60_000,
      );
      assertEqual(session.agent?.path, AGENT_PATH, 'the session runs as the agent');
      assertEqual(session.model, 'gw-chat-pro', "the agent's model (its display name) is used: the key may use it");
      const responses = (await emulatorRequests()).filter((r) => r.path === '/v1/responses');
      assertEqual(responses.length, 3, 'responses requests');
      for (const request of responses) {
        assertEqual(toolNames(request.body), 'read_file,list_files', 'only the tools the agent names, on every request');
        assert(String(request.body.instructions).includes('You only review. End with REVIEWED.'), "the agent's instructions are sent");
        assertEqual(request.body.model, 'gw-chat-pro', 'model');
      }
      assert(JSON.stringify(responses[1].body.input).includes('There is no tool named \\"write_file\\"'), 'the write was refused in words');
      const written = await Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(root, 'e2e-reviewed.txt'))).then(
        () => true,
        () => false,
      );
      assert(!written, 'the model could not write');

      // A chat-mode prompt file: its input filled from key=value, answered as a chat request.
      await resetEmulator();
      await scriptTurns('demo-key', [{ text: 'Hello, Ada!' }]);
      await ask('@gateway /prompt e2e-hello who=Ada');
      await waitFor('the prompt answer', () => gateway.lastChatAnswer()?.includes('Hello, Ada!'), 30_000);
      const chat = (await emulatorRequests()).find((r) => r.path === '/v1/chat/completions');
      const messages = JSON.stringify(chat?.body.messages ?? []);
      assert(messages.includes('Say hello to Ada in one line.'), `the prompt was sent with its input: ${messages}`);

      // An agent-mode prompt file: a session limited to the search tools it names.
      await resetEmulator();
      await scriptTurns('demo-key', [{ text: 'Found it.' }]);
      await ask('@gateway /prompt e2e-find word=needle');
      const found = await waitFor(
        'the prompt session to finish',
        async () => (await gateway.agentSessions()).find((s) => s.title.startsWith('Find the word needle') && s.status === 'done'),
        60_000,
      );
      assertEqual(found.agent?.path, '.github/prompts/e2e-find.prompt.md', 'the session names its prompt file');
      const promptRequest = (await emulatorRequests()).find((r) => r.path === '/v1/responses');
      assertEqual(toolNames(promptRequest?.body ?? {}), 'list_files,search_text,code_navigation', "the prompt file's tools (in the registry's order)");
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, '.github', 'agents'), { recursive: true });
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, '.github', 'prompts'), { recursive: true });
    }
  },
  { timeoutMs: 180_000 },
);
