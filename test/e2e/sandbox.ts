// A sandbox to try the extension by hand: the gateway emulator, and a code-server with the
// freshly built and packaged extension installed and pointed at it. The sample folder it
// opens has a README.md that the window shows at start (workbench.startupEditor "readme"):
// the key to paste and how to ask @gateway, so nobody needs this terminal to get an answer.
//   npm run sandbox [-- --folder /path/to/open] [-- --check]
// --check (a stage of npm test): opens the window in headless Chromium, checks that the note
// shows (screenshot test/e2e/screenshots/sandbox.png) and that doing what it says (the key,
// then "@gateway hello") brings the answer; stops, and exits non-zero if either fails. Otherwise runs until Ctrl-C, then stops code-server (its whole process group)
// and the emulator and removes its temp folders.
// Env: SANDBOX_EMULATOR_PORT (default 4010), SANDBOX_PORT (code-server; default 8080, else a
// free port), E2E_SKIP_SETUP=1.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { launchBrowser } from './lib/browser';
import { ensureSetup } from './lib/build';
import { startCodeServer, type CodeServer } from './lib/codeServer';
import { SCREENSHOTS_DIR } from './lib/paths';
import { packageVsix } from './lib/vsix';
import { Workbench } from './lib/workbench';
import { createSampleWorkspace, type Workspace } from './lib/workspace';
import { startEmulator, type Emulator } from '../emulator/server';
import { setApiKey } from './ui/gateway';
import { ask, waitForResponse } from './ui/chatActions';
import type { UiContext } from './ui/harness';
import { SANDBOX_AGENT_COMMAND, SANDBOX_AGENT_FILE, SANDBOX_AGENT_SCRIPT } from './sandboxAgent';

const LIMITED = { key: 'limited-key', rpm: 1, rateLimitHeaders: false };

/** `preferred` if nothing listens on it on 127.0.0.1, else 0 (any free port). */
function portOrAny(preferred: number): Promise<number> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(0));
    probe.listen(preferred, '127.0.0.1', () => probe.close(() => resolve(preferred)));
  });
}

function folderArgument(): string | undefined {
  const i = process.argv.indexOf('--folder');
  return i >= 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : undefined;
}

/** The first words of the note, which --check waits for. */
const NOTE_TITLE = 'Try the Gateway extension';

/** The note the sandbox window opens with: everything needed for a first @gateway answer. */
function welcomeNote(baseUrl: string): string {
  return `# ${NOTE_TITLE}

This VS Code runs the Gateway extension built from your checkout, connected to a local
gateway emulator at \`${baseUrl}\` (already set in the \`gateway.baseUrl\` setting).

## 1. Set the API key

Press **F1**, run **Gateway: Set API Key** and paste this key:

    demo-key

The status bar (bottom right) then shows the model and the request and token limits.

## 2. Ask @gateway

In the Chat view (on the right; if it is closed: the chat icon at the top, or **Ctrl+Alt+I**)
type a question that **starts with \`@gateway\`**, then Enter:

    @gateway hello

The emulator answers \`Echo: hello\`. A question without \`@gateway\` goes to VS Code's own
agent instead, which asks you to sign in to Copilot: type \`@gateway\` first.

## 3. Watch the agent

    @gateway /agent make the greeting friendlier

For your first \`/agent\` task (any text) the emulator plays a scripted agent: it reads
\`${SANDBOX_AGENT_FILE}\`, proposes an edit (the diff opens; **Approve** or **Deny** in the chat),
asks to run \`${SANDBOX_AGENT_COMMAND}\`, and finishes. You then see the checkpoint after the
edit (**Restore to …** goes back to it), **Review Session Changes** in the chat, and the session in the
**Agent Sessions** view (Gateway icon in the activity bar), whose **Revert Session Changes** puts the file back as it
was before the session. Later tasks get the echo.

## More to try

- Select code in \`src/hello.ts\`, then **Gateway: Edit Selection…** (Ctrl+Alt+E). The emulator is no model: it
  echoes the request, so the proposed replacement is the prompt the extension sent (\`Echo: File: …\`) — the diff,
  Accept and Discard are what you see with a real Gateway; Discard it here.
- Other keys (F1 → Gateway: Set API Key): \`empty-key\` (no balance: every request is refused
  with **Top up**), \`small-key\` (one model only), \`limited-key\` (one request a minute: the
  second question waits for a real rate limit).
- **Gateway: Show Log** lists every request.
`;
}

interface Sandbox {
  url: string;
  folder: string;
  emulator: Emulator;
  server: CodeServer;
  vsixFile: string;
  /** Whether the folder has the welcome note (not when --folder names your own folder). */
  hasNote: boolean;
  stop(): Promise<void>;
}

/** `preferred` for a person's sandbox (stable addresses); any free port for --check. */
const portFor = (preferred: number, check: boolean) => (check ? Promise.resolve(0) : portOrAny(preferred));

async function startSandbox(folderArg: string | undefined, check: boolean): Promise<Sandbox> {
  const up: { emulator?: Emulator; server?: CodeServer; workspace?: Workspace; vsixDir?: string } = {};
  const stop = async () => {
    await up.server?.stop().catch(() => undefined);
    await up.emulator?.close().catch(() => undefined);
    up.workspace?.dispose();
    if (up.vsixDir) rmSync(up.vsixDir, { recursive: true, force: true });
  };
  try {
    if (process.env.E2E_SKIP_SETUP !== '1') ensureSetup();
    console.log('building and packaging the extension…');
    const vsix = packageVsix();
    up.vsixDir = path.dirname(vsix.file);
    for (const warning of vsix.warnings) console.log(`warning: ${warning}`);

    const emulatorPort = await portFor(Number(process.env.SANDBOX_EMULATOR_PORT) || 4010, check);
    const emu = (up.emulator = await startEmulator({ host: '127.0.0.1', port: emulatorPort, keys: [LIMITED] }));

    const folder = folderArg ?? (up.workspace = createSampleWorkspace()).dir;
    if (!folderArg) {
      writeFileSync(path.join(folder, 'README.md'), welcomeNote(emu.baseUrl));
      // Only for the sample folder: the script edits its src/hello.ts.
      emu.script('demo-key', SANDBOX_AGENT_SCRIPT);
    }
    const port = await portFor(Number(process.env.SANDBOX_PORT) || 8080, check);
    const server = (up.server = await startCodeServer({
      workspace: folder,
      vsix: [vsix.file],
      settings: {
        'gateway.baseUrl': emu.baseUrl,
        // The folder's README.md (the note above) opens, rendered, when the window does.
        'workbench.startupEditor': 'readme',
      },
      // The sandbox is for people: notification toasts on, no smoke-test driver.
      smokeTestDriver: false,
      ...(port ? { port } : {}),
      verbose: process.env.E2E_VERBOSE === '1',
    }));
    return { url: `${server.url}/?folder=${encodeURIComponent(folder)}`, folder, emulator: emu, server, vsixFile: vsix.file, hasNote: !folderArg, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

/**
 * --check: the window as a person first sees it, then what the note says to do. The note is
 * a Markdown preview, a webview in nested iframes, so every frame's text is searched.
 * Prints "N passed, N failed" over the two checks (the note shows; @gateway answers).
 */
async function checkSandbox(sandbox: Sandbox): Promise<boolean> {
  const browser = await launchBrowser();
  const results: string[] = [];
  const shot = async (name: string) => {
    mkdirSync(SCREENSHOTS_DIR, { recursive: true });
    const file = path.join(SCREENSHOTS_DIR, `${name}.png`);
    await browser.page.screenshot({ path: file }).catch(() => undefined);
    return path.relative(process.cwd(), file);
  };
  try {
    const { page } = browser;
    const wb = await Workbench.open(page, sandbox.server, { workspace: sandbox.folder });
    const wanted = [NOTE_TITLE, 'Gateway: Set API Key', 'demo-key', 'starts with @gateway'];
    const deadline = Date.now() + 30_000;
    let seen = '';
    while (Date.now() < deadline) {
      const texts = await Promise.all(page.frames().map((f) => f.evaluate(() => document.body?.innerText ?? '').catch(() => '')));
      seen = (texts.find((t) => t.includes(NOTE_TITLE)) ?? '').replace(/\s+/g, ' ');
      if (wanted.every((w) => seen.includes(w))) break;
      await page.waitForTimeout(250);
    }
    const missing = wanted.filter((w) => !seen.includes(w));
    const noteShot = await shot('sandbox');
    results.push(
      missing.length ? `FAIL the note: the window does not show ${JSON.stringify(missing)} (${noteShot})` : `PASS the note shows at start (${noteShot})`,
    );

    // What the note says: the key from the palette, then a question starting with @gateway.
    const ctx: UiContext = { wb, page, server: sandbox.server, emulator: sandbox.emulator, workspace: sandbox.folder };
    const prompt = '@gateway hello';
    try {
      await setApiKey(ctx, 'demo-key');
      await ask(ctx, prompt);
      await waitForResponse(ctx, prompt, /Echo: hello/);
      results.push(`PASS @gateway answers "Echo: hello" after the note's two steps (${await shot('sandbox-answer')})`);
    } catch (err) {
      results.push(`FAIL the note's two steps: ${err instanceof Error ? err.message.split('\n')[0] : String(err)} (${await shot('sandbox-answer.FAILED')})`);
    }
  } finally {
    await browser.close();
  }
  for (const line of results) console.log(`sandbox check: ${line}`);
  const failed = results.filter((r) => r.startsWith('FAIL')).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  return failed === 0;
}

let shutdown: (why: string, code?: number) => Promise<void> = async (_why, code = 1) => process.exit(code);

async function main(): Promise<void> {
  const up: { sandbox?: Sandbox } = {};
  let stopping = false;
  shutdown = async (why: string, code = 0) => {
    if (stopping) {
      console.log('\nstopping already; again to force');
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${why}: stopping code-server and the emulator…`);
    await up.sandbox?.stop();
    console.log('sandbox stopped');
    process.exit(code);
  };
  // Registered before code-server starts: the rig then leaves the shutdown to us.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(sig));

  const check = process.argv.includes('--check');
  const sandbox = (up.sandbox = await startSandbox(folderArgument(), check));
  if (check) {
    const ok = await checkSandbox(sandbox);
    await shutdown('check done', ok ? 0 : 1);
    return;
  }
  const { emulator: emu, server } = sandbox;
  const control = emu.baseUrl.replace(/\/v1$/, '');
  console.log(`
Gateway sandbox is running.

  Open:      ${sandbox.url}
  ${sandbox.hasNote ? 'The window opens with a note (README.md): the key to paste and how to ask @gateway.' : 'Your folder is open; the key and how to ask are below.'}
  Extension: ${path.basename(sandbox.vsixFile)} built from this checkout, installed in ${server.runDir}/ext
  Emulator:  ${emu.baseUrl}  (gateway.baseUrl is set to it; Top up / Limits pages: ${emu.siteUrl}/cabinet/…)

  Keys (F1 → "Gateway: Set API Key"):
    demo-key     funded; gw-chat, gw-chat-pro, gw-chat-mini, gw-code
    empty-key    balance zero: every request answers 402 (status bar turns red, "Top up")
    small-key    only gw-chat-mini
    limited-key  1 request a minute and no rate-limit headers: the second question meets a real 429

  Then ask in the Chat view, starting with @gateway: @gateway hello
  (without @gateway the question goes to VS Code's own agent, which asks to sign in to Copilot)
  The emulator answers "Echo: <your message>". Inspect it: curl ${control}/_emulator/requests
${
  sandbox.hasNote
    ? `  The first agent task (@gateway /agent make the greeting friendlier) plays a scripted agent: it reads
  ${SANDBOX_AGENT_FILE}, proposes an edit (diff, Approve/Deny), asks to run a command, and finishes with
  a checkpoint and Review Session Changes. Later tasks get the echo.`
    : "  (With --folder the scripted agent is off: it edits the sample folder's src/hello.ts.)"
}
  Inject a fault:  curl -X POST ${control}/_emulator/fault -H 'content-type: application/json' \\
                     -d '{"key":"demo-key","fault":{"kind":"503","retryAfter":2}}'
  code-server log: ${server.logFile}

Ctrl-C to stop.`);
}

main().catch((err: unknown) => {
  console.error('sandbox failed:', err instanceof Error ? err.message : err);
  void shutdown('error', 1);
});
