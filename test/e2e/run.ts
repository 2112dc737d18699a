// End-to-end tests in a real VS Code (code-server's extension host, driven through Chromium).
//   node --import tsx test/e2e/run.ts [--code-server VERSION]
// --code-server: one of test/e2e/code-servers.json (default E2E_CODE_SERVER_VERSION, else the
// newest).
// Env: GATEWAY_E2E_CACHE, E2E_SKIP_SETUP=1, E2E_SKIP_BUILD=1, E2E_EXTENSION_PATH, E2E_GREP,
//      E2E_TIMEOUT_MS, E2E_VERBOSE=1 (server output), E2E_KEEP=1 (keep temp folders).
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { launchBrowser, type Browser } from './lib/browser';
import { buildExtension, bundleSuite, ensureSetup } from './lib/build';
import { startCodeServer, type CodeServer } from './lib/codeServer';
import { codeServerInstall } from './lib/paths';
import { runExtensionTests } from './lib/runExtensionTests';
import { createSampleWorkspace } from './lib/workspace';
import { startEmulator, type Emulator } from '../emulator/server';

const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const step = (msg: string) => console.log(`[e2e ${since()}] ${msg}`);

function codeServerArgument(): string | undefined {
  const i = process.argv.indexOf('--code-server');
  if (i < 0) return undefined;
  const version = process.argv[i + 1];
  if (!version) throw new Error('--code-server needs a version, e.g. --code-server 4.139.1');
  return version;
}

async function main(): Promise<number> {
  const install = codeServerInstall(codeServerArgument());
  if (process.env.E2E_SKIP_SETUP !== '1') ensureSetup();
  const extensionPath = buildExtension();
  const suite = await bundleSuite();
  step(`extension ${extensionPath}, suite ${suite}`);

  const extensionsUnderTest = withFixtureExtensions(extensionPath);
  // A second server the workspace's own settings point at: the key must never reach it.
  const hostile = await startEmulator({ port: 0 });
  const ws = createSampleWorkspace({
    'gateway.baseUrl': hostile.baseUrl,
    'gateway.siteUrl': hostile.baseUrl.replace(/\/v1$/, ''),
    'gateway.agent.approval': 'auto',
    'gateway.agent.allowedTools': ['gatewayE2e_weather'],
    'gateway.agent.deniedCommands': [],
    'gateway.agent.maxTurns': 1000,
  });
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let emulator: Emulator | undefined;
  try {
    emulator = await startEmulator({ port: 0 });
    step(`emulator up at ${emulator.baseUrl}; the workspace's settings point at ${hostile.baseUrl}`);
    server = await startCodeServer({
      install,
      workspace: ws.dir,
      env: { GATEWAY_E2E_WORKSPACE: ws.dir, GATEWAY_E2E_EMULATOR: emulator.baseUrl, GATEWAY_E2E_WORKSPACE_SERVER: hostile.baseUrl },
    });
    step(`code-server ${install.version} (VS Code ${install.vscode}) up at ${server.url} (run folder ${server.runDir})`);
    browser = await launchBrowser();
    step('chromium up; loading the workbench with the extension tests');
    const code = await runExtensionTests({
      server,
      page: browser.page,
      extensionTestsPath: suite,
      extensionDevelopmentPath: extensionsUnderTest,
      workspace: ws.dir,
      // Logs and the failure screenshot of an older VS Code are kept apart from the newest's.
      ...(install.isDefault ? {} : { logName: `extension-tests-${install.version}`, failureScreenshot: `ext-tests-failure-${install.version}` }),
    });
    step(`extension tests finished with exit code ${code}`);
    return code;
  } finally {
    await browser?.close();
    await server?.stop();
    await emulator?.close();
    await hostile.close();
    ws.dispose();
    rmSync(extensionsUnderTest, { recursive: true, force: true });
    if (process.env.E2E_KEEP !== '1') rmSync(path.dirname(suite), { recursive: true, force: true });
  }
}

/**
 * A folder holding the extension and the test fixtures' extensions (as links): code-server
 * loads only one extensionDevelopmentPath, and a folder without a package.json is scanned
 * for several. The fixture registers a tool through vscode.lm.registerTool (suite/agentTools.test.ts).
 */
function withFixtureExtensions(extensionPath: string): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'gateway-e2e-extensions-'));
  symlinkSync(extensionPath, path.join(folder, 'gateway-vscode'), 'dir');
  symlinkSync(path.join(__dirname, 'fixtures', 'lm-tool-extension'), path.join(folder, 'lm-tool-fixture'), 'dir');
  return folder;
}

main().then(
  (code) => {
    step(code === 0 ? 'e2e passed' : 'e2e FAILED');
    process.exit(code === 0 ? 0 : 1);
  },
  (err: unknown) => {
    console.error(`[e2e ${since()}] error:`, err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
