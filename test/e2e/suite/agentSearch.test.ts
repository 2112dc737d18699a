// The agent's list_files and search_text in a real VS Code run on VS Code's own ripgrep (issue 15):
// the Gateway log names the engine of each call, and the model gets the answers the tools promise.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  recentLog(): string[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

const root = () => vscode.workspace.workspaceFolders![0].uri;
const write = (path: string, text: string) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root(), path), new TextEncoder().encode(text));

/** Runs `/agent <task>` with the model's turns scripted, and gives back the tool outputs it sent the model, in order. */
async function runAgent(gateway: AgentApi, task: string, turns: unknown[]): Promise<string[]> {
  await resetEmulator();
  // Set here too, so each test also runs alone (E2E_GREP).
  await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
  assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
  await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
  await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
  await scriptTurns('demo-key', turns);
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${task}` });
  await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === task && s.status === 'done'), 30_000);
  return (await emulatorRequests())
    .filter((r) => r.path === '/v1/responses')
    .slice(1)
    .map((r) => String(r.body.input[0].output));
}

test(
  "/agent: list_files and search_text run on VS Code's ripgrep, and the log says so",
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const added = ['.gitignore', 'generated/hello.ts', '.env.local', 'src/deep/more.ts'];
    try {
      await write('.gitignore', 'generated/\n');
      await write('generated/hello.ts', 'export const hello = "generated";\n');
      await write('.env.local', 'HELLO_TOKEN=secret\n');
      await write('src/deep/more.ts', 'export const helloAgain = hello("x");\n');
      const outputs = await runAgent(gateway, 'find the greetings', [
        { toolCalls: [{ name: 'list_files', arguments: { glob: '*.ts' } }] },
        { toolCalls: [{ name: 'search_text', arguments: { pattern: '/HELLO/i' } }] },
        { toolCalls: [{ name: 'search_text', arguments: { pattern: '/(a)\\1/' } }] },
        { text: 'Found them.' },
      ]);
      assertEqual(outputs[0], 'src/hello.ts\nsrc/deep/more.ts', 'list_files: the .ts files, not the ignored ones, in tree order');
      assertEqual(
        outputs[1],
        'src/hello.ts:1: export function hello(name: string): string {\nsrc/hello.ts:2: return `Hello, ${name}!`;\nsrc/deep/more.ts:1: export const helloAgain = hello("x");',
        'search_text: neither the ignored folder nor the protected .env.local',
      );
      assert(
        /^Unsupported regular expression \/\(a\)\\1\/: backreferences are not supported\./.test(outputs[2]),
        `ripgrep's reason reaches the model: ${outputs[2]}`,
      );

      // The lines since this session started: one per call, each naming VS Code's ripgrep (code-server keeps it in ripgrep-universal).
      const session = (await gateway.agentSessions()).find((s) => s.title === 'find the greetings')!;
      const log = gateway.recentLog();
      const since = log.slice(log.findIndex((line) => line.includes(`agent session ${session.id} started`)));
      const served = since.filter((line) => / served by /.test(line));
      assertEqual(served.length, 3, `one line per call: ${served.join(' | ')}`);
      assert(
        served.every((line) =>
          /^\[info\] (list_files|search_text) served by ripgrep \(.*ripgrep-universal[/\\]bin[/\\][a-z0-9]+-[a-z0-9]+[/\\]rg(\.exe)?\) in \d+ ms(: it refused the pattern)?$/.test(
            line,
          ),
        ),
        `each call served by VS Code's ripgrep: ${served.join(' | ')}`,
      );
    } finally {
      for (const path of added)
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(root(), path.split('/')[0]), { recursive: true }).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 90_000 },
);

test(
  '/agent: search_text on ripgrep searches a file with unsaved changes as the editor holds it',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const uri = vscode.Uri.joinPath(root(), 'src/unsaved-search.ts');
    try {
      await write('src/unsaved-search.ts', 'export const diskOnlyMarker = 1;\n');
      const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
      // On disk the file says diskOnlyMarker; in the editor, unsaved, it says editorOnlyMarker instead.
      await editor.edit((edit) => edit.replace(new vscode.Range(0, 0, 1, 0), 'export const editorOnlyMarker = 2;\n'));
      assert(editor.document.isDirty, 'the edit is unsaved');
      const outputs = await runAgent(gateway, 'search the unsaved file', [
        { toolCalls: [{ name: 'search_text', arguments: { pattern: 'editorOnlyMarker' } }] },
        { toolCalls: [{ name: 'search_text', arguments: { pattern: 'diskOnlyMarker', glob: '*.ts' } }] },
        { text: 'Searched.' },
      ]);
      assertEqual(outputs[0], 'src/unsaved-search.ts:1: export const editorOnlyMarker = 2;', 'the unsaved text is found');
      assert(/^No matches for diskOnlyMarker in \d+ files? matching "\*\.ts"\.$/.test(outputs[1]), `what is only on disk is not: ${outputs[1]}`);
      const served = gateway
        .recentLog()
        .filter((line) => / served by /.test(line))
        .slice(-2);
      assert(
        served.every((line) => /^\[info\] search_text served by ripgrep \(.*ripgrep-universal/.test(line)),
        `served by VS Code's ripgrep: ${served.join(' | ')}`,
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.files.revert').then(undefined, () => undefined);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor').then(undefined, () => undefined);
      await vscode.workspace.fs.delete(uri).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 90_000 },
);
