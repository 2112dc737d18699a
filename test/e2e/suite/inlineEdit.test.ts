// Inline edit in a real VS Code: stream into a diff, accept (one undo), reject, and the cases that leave the file alone.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { injectFault, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface InlineApi {
  inlineEdit(): { streaming: boolean; proposal: string; cutOff?: string } | undefined;
}

const api = async () => vscode.extensions.getExtension<InlineApi>(EXTENSION_ID)!.activate();
const HELLO = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
const REWRITE = 'export function hello(name: string): string {\n  return `Hi, ${name}!`;\n}\n';

async function openHello(): Promise<vscode.TextEditor> {
  const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, 'src/hello.ts');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(HELLO));
  const document = await vscode.workspace.openTextDocument(uri);
  if (document.getText() !== HELLO) {
    await vscode.commands.executeCommand('workbench.action.files.revert');
  }
  const editor = await vscode.window.showTextDocument(document);
  editor.selection = new vscode.Selection(0, 0, 3, 0);
  return editor;
}

async function proposalReady(gateway: InlineApi): Promise<string> {
  return waitFor('the streamed proposal', () => {
    const status = gateway.inlineEdit();
    return status && !status.streaming ? status.proposal : undefined;
  });
}

test(
  'Edit Selection: the rewrite (fences stripped) streams into a diff; Accept applies it as one undo step',
  async () => {
    const gateway = await api();
    await resetEmulator();
    await scriptTurns('demo-key', [{ text: 'Here you go:\n```ts\n' + REWRITE + '```\nShorter greeting.', chunkChars: 3 }]);
    const editor = await openHello();
    await vscode.commands.executeCommand('gateway.editSelection', 'use a shorter greeting');
    assertEqual(await proposalReady(gateway), REWRITE, 'proposal');
    const diffOpen = vscode.window.tabGroups.all.some((g) => g.tabs.some((t) => t.input instanceof vscode.TabInputTextDiff && /Gateway edit/.test(t.label)));
    assert(diffOpen, 'the diff editor is open');
    assertEqual(editor.document.getText(), HELLO, 'the file is untouched until Accept');
    assertEqual(await vscode.commands.executeCommand<boolean>('gateway.inlineEdit.accept'), true, 'accepted');
    assertEqual(editor.document.getText(), REWRITE, 'after Accept');
    await vscode.window.showTextDocument(editor.document);
    await vscode.commands.executeCommand('undo');
    await waitFor('one undo to restore the original', () => editor.document.getText() === HELLO);
    await editor.document.save();
  },
  { timeoutMs: 60_000 },
);

test('Reject leaves the file exactly as it was', async () => {
  const gateway = await api();
  await resetEmulator();
  await scriptTurns('demo-key', [{ text: REWRITE }]);
  const editor = await openHello();
  await vscode.commands.executeCommand('gateway.editSelection', 'shorter');
  await proposalReady(gateway);
  await vscode.commands.executeCommand('gateway.inlineEdit.reject');
  assertEqual(gateway.inlineEdit(), undefined, 'nothing pending');
  assertEqual(editor.document.getText(), HELLO, 'after Reject');
  assertEqual(editor.document.isDirty, false, 'not dirty');
});

test("the document changing under a pending edit drops the edit and keeps the user's text", async () => {
  const gateway = await api();
  await resetEmulator();
  await scriptTurns('demo-key', [{ text: REWRITE }]);
  const editor = await openHello();
  await vscode.commands.executeCommand('gateway.editSelection', 'shorter');
  await proposalReady(gateway);
  // The user types in the file (the diff editor has the focus, so through a workspace edit).
  const typing = new vscode.WorkspaceEdit();
  typing.insert(editor.document.uri, new vscode.Position(3, 0), '// typed by the user\n');
  await vscode.workspace.applyEdit(typing);
  await waitFor('the edit to be dropped', () => gateway.inlineEdit() === undefined);
  assertEqual(await vscode.commands.executeCommand<boolean>('gateway.inlineEdit.accept'), false, 'nothing to accept');
  assertEqual(editor.document.getText(), HELLO + '// typed by the user\n', "the user's text");
  await vscode.window.showTextDocument(editor.document);
  await vscode.commands.executeCommand('workbench.action.files.revert');
});

test('an answer cut off at the token limit is marked incomplete, and the file stays as it was', async () => {
  const gateway = await api();
  await resetEmulator();
  await scriptTurns('demo-key', [{ text: 'export function hello(name: string): string {\n  return `Hi', finishReason: 'length' }]);
  const editor = await openHello();
  await vscode.commands.executeCommand('gateway.editSelection', 'shorter');
  await proposalReady(gateway);
  const cutOff = gateway.inlineEdit()?.cutOff ?? '';
  assert(/token limit/.test(cutOff) && /gateway\.maxTokens/.test(cutOff), `the edit says why it is incomplete (${JSON.stringify(cutOff)})`);
  const complete = REWRITE;
  await scriptTurns('demo-key', [{ text: complete }]);
  await openHello();
  await vscode.commands.executeCommand('gateway.editSelection', 'shorter');
  await waitFor('a complete proposal', () => gateway.inlineEdit()?.proposal === complete && !gateway.inlineEdit()?.streaming);
  assertEqual(gateway.inlineEdit()?.cutOff, undefined, 'a complete answer is not marked');
  await vscode.commands.executeCommand('gateway.inlineEdit.reject');
  assertEqual(editor.document.getText(), HELLO, 'untouched');
  assertEqual(editor.document.isDirty, false, 'not dirty');
});

test('a failed request leaves the original intact', async () => {
  const gateway = await api();
  await resetEmulator();
  await injectFault('demo-key', { kind: 'stream-error', afterDeltas: 2 });
  const editor = await openHello();
  await vscode.commands.executeCommand('gateway.editSelection', 'shorter');
  await waitFor('the failed edit to be dropped', () => gateway.inlineEdit() === undefined);
  assertEqual(editor.document.getText(), HELLO, 'original');
  assertEqual(editor.document.isDirty, false, 'not dirty');
});
