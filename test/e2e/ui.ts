// UI-level e2e checks in the web workbench (code-server + Chromium).
//   node --import tsx test/e2e/ui.ts
// Screenshots go to test/e2e/screenshots/<step>.png. Env as in run.ts.
import { launchBrowser, type Browser } from './lib/browser';
import { buildExtension, ensureSetup } from './lib/build';
import { startCodeServer, type CodeServer } from './lib/codeServer';
import { screenshot } from './lib/runExtensionTests';
import { Workbench } from './lib/workbench';
import { createSampleWorkspace } from './lib/workspace';

const t0 = Date.now();
const since = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const log = (msg: string) => console.log(`[ui ${since()}] ${msg}`);

type Check = { name: string; fn: (wb: Workbench) => Promise<void> };

const checks: Check[] = [
  {
    name: 'status bar toggles through the command palette',
    async fn(wb) {
      const items = await wb.statusBarItems();
      log(`status bar: ${JSON.stringify(items)}`);
      if (!(await wb.isStatusBarVisible())) throw new Error('status bar not visible at start');
      let c = Date.now();
      await wb.runCommand('View: Toggle Status Bar Visibility');
      await wb.waitForStatusBar(false);
      log(`status bar hidden (${Date.now() - c} ms)`);
      await wb.screenshot('status-bar-hidden');
      c = Date.now();
      await wb.runCommand('View: Toggle Status Bar Visibility');
      await wb.waitForStatusBar(true);
      log(`status bar shown again (${Date.now() - c} ms)`);
    },
  },
  {
    name: 'chat view opens',
    async fn(wb) {
      await wb.runCommand('Chat: Open Chat');
      await wb.page.waitForSelector('.interactive-session .interactive-input-part', { state: 'visible', timeout: 15_000 });
      log(`chat screenshot: ${await wb.screenshot('chat')}`);
    },
  },
];

async function main(): Promise<number> {
  if (process.env.E2E_SKIP_SETUP !== '1') ensureSetup();
  const extensionPath = buildExtension();
  const ws = createSampleWorkspace();
  let server: CodeServer | undefined;
  let browser: Browser | undefined;
  let passed = 0;
  let failed = 0;
  try {
    server = await startCodeServer({ workspace: ws.dir });
    browser = await launchBrowser();
    log(`code-server ${server.url}; opening the workbench`);
    const wb = await Workbench.open(browser.page, server, { workspace: ws.dir, extensionDevelopmentPath: extensionPath });
    log(`workbench drawn: ${await wb.screenshot('workbench')}`);
    for (const check of checks) {
      const c0 = Date.now();
      try {
        await check.fn(wb);
        passed++;
        console.log(`  ok    ${check.name} (${Date.now() - c0} ms)`);
      } catch (err) {
        failed++;
        const name = `failure-${check.name.replace(/\W+/g, '-')}`;
        const shot = await screenshot(browser.page, name);
        console.log(`  FAIL  ${check.name} (${Date.now() - c0} ms): ${err instanceof Error ? err.message : String(err)}${shot ? `\n        screenshot: ${shot}` : ''}`);
        // Leave the workbench usable for the next check.
        await browser.page.keyboard.press('Escape').catch(() => undefined);
      }
    }
  } finally {
    await browser?.close();
    await server?.stop();
    ws.dispose();
  }
  console.log(`${passed} passed, ${failed} failed`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(`[ui ${since()}] error:`, err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
