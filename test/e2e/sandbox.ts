// A sandbox to try the extension by hand: the gateway emulator, and a code-server with the
// freshly built and packaged extension installed and pointed at it.
//   npm run sandbox [-- --folder /path/to/open]
// Runs until Ctrl-C, then stops code-server (its whole process group) and the emulator
// and removes its temp folders. Env: SANDBOX_EMULATOR_PORT (default 4010),
// SANDBOX_PORT (code-server; default 8080, else a free port), E2E_SKIP_SETUP=1.
import { rmSync } from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { ensureSetup } from './lib/build';
import { startCodeServer, type CodeServer } from './lib/codeServer';
import { packageVsix } from './lib/vsix';
import { createSampleWorkspace, type Workspace } from './lib/workspace';
import { startEmulator, type Emulator } from '../emulator/server';

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

let shutdown: (why: string, code?: number) => Promise<void> = async (_why, code = 1) => process.exit(code);

async function main(): Promise<void> {
  // What is running, for the shutdown.
  const up: { emulator?: Emulator; server?: CodeServer; workspace?: Workspace; vsixDir?: string } = {};
  let stopping = false;
  shutdown = async (why: string, code = 0) => {
    if (stopping) {
      console.log('\nstopping already; again to force');
      process.exit(130);
    }
    stopping = true;
    console.log(`\n${why}: stopping code-server and the emulator…`);
    await up.server?.stop().catch(() => undefined);
    await up.emulator?.close().catch(() => undefined);
    up.workspace?.dispose();
    if (up.vsixDir) rmSync(up.vsixDir, { recursive: true, force: true });
    console.log('sandbox stopped');
    process.exit(code);
  };
  // Registered before code-server starts: the rig then leaves the shutdown to us.
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => void shutdown(sig));

  if (process.env.E2E_SKIP_SETUP !== '1') ensureSetup();
  console.log('building and packaging the extension…');
  const vsix = packageVsix();
  up.vsixDir = path.dirname(vsix.file);
  for (const warning of vsix.warnings) console.log(`warning: ${warning}`);

  const emulatorPort = await portOrAny(Number(process.env.SANDBOX_EMULATOR_PORT) || 4010);
  const emu = (up.emulator = await startEmulator({ host: '127.0.0.1', port: emulatorPort, keys: [LIMITED] }));

  const folder = folderArgument() ?? (up.workspace = createSampleWorkspace()).dir;
  const port = await portOrAny(Number(process.env.SANDBOX_PORT) || 8080);
  const server = (up.server = await startCodeServer({
    workspace: folder,
    vsix: [vsix.file],
    settings: { 'gateway.baseUrl': emu.baseUrl },
    // The sandbox is for people: notification toasts on, no smoke-test driver.
    smokeTestDriver: false,
    ...(port ? { port } : {}),
    verbose: process.env.E2E_VERBOSE === '1',
  }));
  const control = emu.baseUrl.replace(/\/v1$/, '');
  console.log(`
Gateway sandbox is running.

  Open:      ${server.url}/?folder=${encodeURIComponent(folder)}
  Extension: ${path.basename(vsix.file)} built from this checkout, installed in ${server.runDir}/ext
  Emulator:  ${emu.baseUrl}  (gateway.baseUrl is set to it; Top up / Limits pages: ${emu.siteUrl}/cabinet/…)

  Keys (F1 → "Gateway: Set API Key"):
    demo-key     funded; gw-chat, gw-chat-pro, gw-chat-mini, gw-code
    empty-key    balance zero: every request answers 402 (status bar turns red, "Top up")
    small-key    only gw-chat-mini
    limited-key  1 request a minute and no rate-limit headers: the second question meets a real 429

  Then ask in the Chat view: @gateway hello
  The emulator answers "Echo: <your message>". Inspect it: curl ${control}/_emulator/requests
  Inject a fault:  curl -X POST ${control}/_emulator/fault -H 'content-type: application/json' \\
                     -d '{"key":"demo-key","fault":{"kind":"503","retryAfter":2}}'
  code-server log: ${server.logFile}

Ctrl-C to stop.`);
}

main().catch((err: unknown) => {
  console.error('sandbox failed:', err instanceof Error ? err.message : err);
  void shutdown('error', 1);
});
