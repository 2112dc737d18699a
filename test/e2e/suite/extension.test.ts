// Basic e2e checks: the extension is loaded and the test workspace is open.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';

export const EXTENSION_ID = 'gateway.gateway-vscode';

test('VS Code host is up', () => {
  console.log(
    `  vscode.version=${vscode.version} uiKind=${vscode.env.uiKind === vscode.UIKind.Web ? 'web' : 'desktop'} remoteName=${vscode.env.remoteName ?? '-'} appName=${vscode.env.appName}`,
  );
  assert(/^\d+\.\d+\.\d+/.test(vscode.version), `unexpected vscode.version ${vscode.version}`);
});

test('extension gateway.gateway-vscode is present and activates', async () => {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert(
    ext,
    `extension ${EXTENSION_ID} not found; loaded: ${vscode.extensions.all
      .filter((e) => !e.id.startsWith('vscode.'))
      .map((e) => e.id)
      .join(', ')}`,
  );
  await ext.activate();
  assert(ext.isActive, 'extension did not activate');
});

test('the test workspace is open', async () => {
  const folders = vscode.workspace.workspaceFolders ?? [];
  assertEqual(folders.length, 1, 'number of workspace folders');
  const folder = folders[0];
  // Set by the driver (test/e2e/run.ts, or extensionTestsEnv under test-electron).
  const expected = process.env.GATEWAY_E2E_WORKSPACE;
  if (expected) assertEqual(folder.uri.path, vscode.Uri.file(expected).path, 'workspace folder');
  console.log(`  workspace ${folder.uri.toString()}${expected ? ' (as the driver set it)' : ''}`);
  const readme = await vscode.workspace.fs.readFile(vscode.Uri.joinPath(folder.uri, 'README.md'));
  assert(new TextDecoder().decode(readme).includes('e2e sample workspace'), 'README.md of the sample workspace not found');
});
