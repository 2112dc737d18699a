// The agent sees what VS Code sees (issue 23): in a real VS Code with its built-in TypeScript, a
// scripted session writes a file with a type error and the write's tool result names the error;
// get_problems and code_navigation's definition answer from the TypeScript language service.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

const TASK = 'use hello for a count';
const root = () => vscode.workspace.workspaceFolders![0].uri;

/**
 * TypeScript answers once its extension is active and tsserver has loaded the sample's
 * project: an outline of src/hello.ts (the workspace's .ts file) proves both.
 */
export async function typescriptReady(): Promise<number> {
  const started = Date.now();
  const hello = vscode.Uri.joinPath(root(), 'src', 'hello.ts');
  await vscode.workspace.openTextDocument(hello);
  await waitFor(
    'the TypeScript language service',
    async () => ((await vscode.commands.executeCommand<unknown[] | undefined>('vscode.executeDocumentSymbolProvider', hello)) ?? []).length > 0,
    90_000,
  );
  return Date.now() - started;
}

test(
  "/agent: a write's type error in its tool result; get_problems and code_navigation's definition from TypeScript",
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    console.log(`TypeScript ready after ${await typescriptReady()} ms`);
    const written = vscode.Uri.joinPath(root(), 'src', 'useHello.ts');
    try {
      await resetEmulator();
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'auto-edit', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await scriptTurns('demo-key', [
        {
          toolCalls: [
            {
              name: 'write_file',
              arguments: { path: 'src/useHello.ts', content: "import { hello } from './hello';\n\nexport const count: number = hello('e2e');\n" },
            },
          ],
        },
        { toolCalls: [{ name: 'get_problems', arguments: { path: 'src/useHello.ts' } }] },
        { toolCalls: [{ name: 'code_navigation', arguments: { action: 'definition', path: 'src/useHello.ts', line: 3, symbol: 'hello' } }] },
        { text: 'count is not a number yet.' },
      ]);
      await vscode.commands.executeCommand('workbench.action.chat.newChat');
      await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${TASK}` });
      await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.status === 'done'), 60_000);

      const outputs = (await emulatorRequests())
        .filter((request) => request.path === '/v1/responses')
        .flatMap((request) => request.body.input as { type?: string; output?: string }[])
        .flatMap((item) => (item.type === 'function_call_output' ? [item.output ?? ''] : []));
      assertEqual(outputs.length, 3, 'tool outputs');
      const typeError = /src\/useHello\.ts:3:14: error TS2322 Type 'string' is not assignable to type 'number'\./;
      assert(outputs[0].startsWith('Created src/useHello.ts (3 lines).\n\nVS Code now reports 1 new error in src/useHello.ts:\n'), `the write: ${outputs[0]}`);
      assert(typeError.test(outputs[0]), `the write names the type error: ${outputs[0]}`);
      assert(outputs[1].startsWith('1 error in src/useHello.ts:\n') && typeError.test(outputs[1]), `get_problems: ${outputs[1]}`);
      assertEqual(outputs[2], 'src/hello.ts:1:17: export function hello(name: string): string {', 'code_navigation definition');
      assert(
        vscode.window.tabGroups.all.some((group) =>
          group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.path.endsWith('/src/useHello.ts')),
        ),
        'the written file is open in a tab, where TypeScript checks it',
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.workspace.fs.delete(written).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 180_000 },
);
