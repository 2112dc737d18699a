// Issue 21 in the real VS Code: what a command run unasked in the `auto` sandbox leaves behind.
// Two ways out that used to work: a git repository planted with core.fsmonitor (VS Code's own
// git extension then ran that command, outside the sandbox), and a background process that
// outlived its command (and then raced the unsandboxed tools).
import * as vscode from 'vscode';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string }[]>;
}

/** The slice of VS Code's git extension API (v1) this test uses. */
interface GitApi {
  state: 'uninitialized' | 'initialized';
  openRepository(root: vscode.Uri): Promise<{ rootUri: vscode.Uri } | null>;
  repositories: { rootUri: vscode.Uri }[];
}

const api = async () => vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
const root = () => vscode.workspace.workspaceFolders![0].uri;

/** VS Code's git extension, switched on as users have it (the test profile turns it off), once its model is up. */
async function gitApi(): Promise<GitApi> {
  await vscode.workspace.getConfiguration('git').update('enabled', true, vscode.ConfigurationTarget.Global);
  const extension = vscode.extensions.getExtension<{ enabled: boolean; getAPI(version: 1): GitApi }>('vscode.git');
  assert(extension, "VS Code's git extension is there");
  const exports = await extension.activate();
  await waitFor("VS Code's git extension to be enabled", () => exports.enabled, 20_000);
  const git = exports.getAPI(1);
  await waitFor("VS Code's git extension to initialise", () => git.state === 'initialized', 20_000);
  return git;
}

/** Runs git outside any sandbox, as VS Code's git extension does: whatever the repository's config says runs here. */
function gitOutside(args: string[], cwd: string): Promise<string> {
  return new Promise((resolve) =>
    execFile('git', args, { cwd, timeout: 15_000 }, (error, stdout, stderr) => resolve(`${stdout}${stderr}${error ? ` (${error.message})` : ''}`)),
  );
}

/** Host processes whose command line is exactly `argv` (a child PID namespace's processes are visible from the host's). */
function processesRunning(argv: string[]): number[] {
  const wanted = `${argv.join('\0')}\0`;
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === wanted) found.push(Number(entry));
    } catch {
      // Gone between the listing and the read.
    }
  }
  return found;
}

async function runAutoSession(gateway: AgentApi, title: string, turns: unknown[]): Promise<string[]> {
  await resetEmulator();
  // Set here too, so each test also runs alone (E2E_GREP).
  const settings = vscode.workspace.getConfiguration('gateway');
  await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
  assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
  await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
  await settings.update('agent.approval', 'auto', vscode.ConfigurationTarget.Global);
  await scriptTurns('demo-key', turns);
  const run = vscode.commands.executeCommand('gateway.agent.start', title);
  await waitFor('the session to finish', async () => (await gateway.agentSessions()).find((s) => s.title === title && s.status === 'done'), 60_000).catch(
    async (error: Error) => {
      throw new Error(`${error.message}; sessions: ${JSON.stringify(await gateway.agentSessions())}; waiting: ${JSON.stringify(gateway.pendingApprovals())}`);
    },
  );
  await run;
  return (await emulatorRequests())
    .filter((r) => r.path === '/v1/responses')
    .slice(1)
    .map((r) => String(r.body.input[0].output));
}

test(
  'auto: a git repository (a .git, and the bare layout under another name) planted with core.fsmonitor by a sandboxed command is held back; git outside runs nothing',
  async () => {
    const gateway = await api();
    const settings = vscode.workspace.getConfiguration('gateway');
    const marker = join(dirname(root().fsPath), `fsmonitor-ran-${process.pid}-${Date.now()}`);
    const planted = vscode.Uri.joinPath(root(), 'planted-repo');
    const bare = vscode.Uri.joinPath(root(), 'planted-cache');
    // Switched on before the command runs, so the git extension watches the workspace while it plants.
    const git = await gitApi();
    try {
      // The command plants a repository, and a second one in git's bare layout (no .git name) whose work tree is the workspace.
      const bareLayout =
        `mkdir -p planted-cache/objects planted-cache/refs && echo 'ref: refs/heads/main' > planted-cache/HEAD && ` +
        `printf '[core]\\n\\tworktree = ..\\n\\tfsmonitor = touch ${marker}; false\\n' > planted-cache/config`;
      const command = `git init -q planted-repo && git -C planted-repo config core.fsmonitor 'touch ${marker}; false' && ${bareLayout} && echo planted && sleep 2`;
      const outputs = await runAutoSession(gateway, 'plant a repository', [
        { toolCalls: [{ name: 'run_command', arguments: { command } }] },
        { text: 'Planted.' },
      ]);
      assertEqual(outputs.length, 1, 'tool results sent back');
      assert(/planted-repo\/\.git/.test(outputs[0]) && /planted-cache/.test(outputs[0]), `the model is told what was held back: ${outputs[0]}`);
      assert(!existsSync(join(planted.fsPath, '.git')), 'planted-repo/.git never reached the workspace');
      assert(!existsSync(bare.fsPath), 'planted-cache never reached the workspace');
      assertEqual(await git.openRepository(bare), null, 'VS Code git found no repository in planted-cache');
      // What VS Code's git extension does with a new repository: open it, then run git in it.
      const opened = await git.openRepository(planted);
      assertEqual(opened, null, 'VS Code git found no repository in planted-repo');
      const status = await gitOutside(['status', '--porcelain'], existsSync(planted.fsPath) ? planted.fsPath : root().fsPath);
      assert(!existsSync(marker), `the fsmonitor command ran outside the sandbox (git status: ${status})`);
      assert(
        git.repositories.every((repository) => !repository.rootUri.fsPath.startsWith(planted.fsPath)),
        'no repository under planted-repo is open',
      );
    } finally {
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      await vscode.workspace.getConfiguration('git').update('enabled', undefined, vscode.ConfigurationTarget.Global);
      await vscode.workspace.fs.delete(planted, { recursive: true }).then(undefined, () => undefined);
      await vscode.workspace.fs.delete(bare, { recursive: true }).then(undefined, () => undefined);
      await vscode.workspace.fs.delete(vscode.Uri.file(marker)).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 120_000 },
);

test(
  'auto: a background process a sandboxed command starts (setsid, nohup, &) is gone when the command ends',
  async () => {
    const gateway = await api();
    const settings = vscode.workspace.getConfiguration('gateway');
    // Durations no other process on the machine uses, so the host can find them by their command line.
    const seconds = [3017 + (process.pid % 1000), 4019 + (process.pid % 1000)];
    try {
      const command = `setsid sleep ${seconds[0]} >/dev/null 2>&1 < /dev/null & nohup sleep ${seconds[1]} >/dev/null 2>&1 & echo started-in-background`;
      const outputs = await runAutoSession(gateway, 'leave something running', [
        { toolCalls: [{ name: 'run_command', arguments: { command } }] },
        { text: 'Started.' },
      ]);
      assert(/started-in-background/.test(outputs[0]) && /Ran in the sandbox/.test(outputs[0]), `the command ran in the sandbox: ${outputs[0]}`);
      for (const duration of seconds) {
        await waitFor(`sleep ${duration} to be gone`, () => processesRunning(['sleep', String(duration)]).length === 0, 10_000).catch((error: Error) => {
          throw new Error(`${error.message}: still running as ${processesRunning(['sleep', String(duration)]).join(', ')}`);
        });
      }
    } finally {
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      for (const duration of seconds) for (const pid of processesRunning(['sleep', String(duration)])) process.kill(pid, 'SIGKILL');
    }
  },
  { timeoutMs: 90_000 },
);

test(
  'auto (issue 36, finding 9): a protected file saved into the workspace while a sandboxed command runs stops the command before it reads it',
  async () => {
    const gateway = await api();
    const settings = vscode.workspace.getConfiguration('gateway');
    const late = join(root().fsPath, '.env.saved-late');
    rmSync(late, { force: true });
    try {
      // The command waits for the file, then prints it: it must be stopped first (VS Code's watcher reports the save).
      const command = 'for i in $(seq 1 100); do [ -e .env.saved-late ] && sleep 2 && cat .env.saved-late && exit 0; sleep 0.1; done; echo never-appeared';
      const running = runAutoSession(gateway, 'read a late secret', [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'Done.' }]);
      await waitFor(
        'the command to start',
        async () => (await gateway.agentSessions()).some((s) => s.title === 'read a late secret' && s.status === 'running'),
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      writeFileSync(late, 'API_KEY=saved-while-it-ran\n');
      const outputs = await running;
      assertEqual(outputs.length, 1, 'tool results sent back');
      assert(!/saved-while-it-ran/.test(outputs[0]), `the command read the protected file: ${outputs[0]}`);
      assert(/a protected file appeared/.test(outputs[0]), `the model is told why it was stopped: ${outputs[0]}`);
    } finally {
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      rmSync(late, { force: true });
    }
  },
  { timeoutMs: 90_000 },
);

test(
  'auto (round 19b): a covered protected file whose folder the user renames while a sandboxed command runs stops the command before it reads it',
  async () => {
    const gateway = await api();
    const settings = vscode.workspace.getConfiguration('gateway');
    const before = join(root().fsPath, 'renamed-config');
    const after = join(root().fsPath, 'renamed-settings');
    rmSync(after, { recursive: true, force: true });
    mkdirSync(before, { recursive: true });
    writeFileSync(join(before, '.env'), 'API_KEY=renamed-while-it-ran\n');
    try {
      // Covered at renamed-config/.env when the command starts; after the rename it sits where no cover is.
      const command =
        'for i in $(seq 1 100); do [ -e renamed-settings ] && sleep 2 && cat renamed-settings/.env && exit 0; sleep 0.1; done; echo never-renamed';
      const running = runAutoSession(gateway, 'read a renamed secret', [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'Done.' }]);
      await waitFor(
        'the command to start',
        async () => (await gateway.agentSessions()).some((s) => s.title === 'read a renamed secret' && s.status === 'running'),
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 1500));
      renameSync(before, after);
      const outputs = await running;
      assertEqual(outputs.length, 1, 'tool results sent back');
      assert(!/renamed-while-it-ran/.test(outputs[0]), `the command read the protected file under its folder's new name: ${outputs[0]}`);
      assert(/a protected file (appeared|was moved or removed)/.test(outputs[0]), `the model is told why it was stopped: ${outputs[0]}`);
    } finally {
      await settings.update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);
      rmSync(before, { recursive: true, force: true });
      rmSync(after, { recursive: true, force: true });
    }
  },
  { timeoutMs: 90_000 },
);
