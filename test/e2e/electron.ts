// The same extension-host suite in desktop VS Code through @vscode/test-electron, for machines
// that can download VS Code (this project's CI cannot: it runs test/e2e/run.ts in code-server).
//   npm run test:vscode
import { runTests } from '@vscode/test-electron';
import * as path from 'node:path';
import { startEmulator } from '../emulator/server';
import { buildExtension, bundleSuite } from './lib/build';
import { createSampleWorkspace } from './lib/workspace';

async function main(): Promise<number> {
  const extensionDevelopmentPath = buildExtension();
  const extensionTestsPath = await bundleSuite();
  const workspace = createSampleWorkspace();
  const emulator = await startEmulator({ port: 0 });
  try {
    await runTests({
      version: process.env.E2E_VSCODE_VERSION ?? '1.139.0',
      extensionDevelopmentPath,
      extensionTestsPath: path.resolve(extensionTestsPath),
      launchArgs: [workspace.dir, '--disable-extensions', '--disable-workspace-trust'],
      extensionTestsEnv: { GATEWAY_E2E_WORKSPACE: workspace.dir, GATEWAY_E2E_EMULATOR: emulator.baseUrl },
    });
    return 0;
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    return 1;
  } finally {
    await emulator.close();
    workspace.dispose();
  }
}

void main().then((code) => process.exit(code));
