// Issue 40 in a real VS Code with the scripted model: two sessions started at once, each in a worktree of its own,
// change the same file in two ways and neither sees the other's change; one is applied to the workspace (its
// change is there, the other's is not), the other discarded (its worktree and branch gone). The workspace folder
// is made a Git repository for the test and is no longer one at its end. In `auto`, a worktree session's command runs
// in the sandbox rooted at its worktree: its file lands there, and the linked node_modules is not written.
import * as vscode from 'vscode';
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';
import { git, makeRepository, removeRepository } from './gitRepository';

interface WorktreeApi {
  agentSessions(): Promise<
    { id: string; title: string; status: string; worktree?: { path: string; branch: string; baseCommit: string; discarded: boolean } }[]
  >;
}

const FILE = 'e2e-worktree.txt';
const ORIGINAL = 'shared line\n';
const changed = (name: string) => `shared line\nWT-CHANGED by ${name}\n`;

/** One turn serves both sessions, whichever asks first: it writes its session's change once, then says it is done. */
const turn = {
  text: 'Done.',
  requires: {
    text: 'WT-CHANGED',
    otherwise: {
      toolCalls: [{ name: 'write_file', arguments: { path: FILE, content: changed('ALPHA') } }],
      requires: { text: 'session ALPHA', otherwise: { toolCalls: [{ name: 'write_file', arguments: { path: FILE, content: changed('BETA') } }] } },
    },
  },
};

test(
  'two sessions in worktrees of their own at once: isolated; one applied to the workspace, the other discarded',
  async () => {
    const gateway = await vscode.extensions.getExtension<WorktreeApi>(EXTENSION_ID)!.activate();
    const dir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert(!existsSync(join(dir, '.git')), 'the sample workspace is not a Git repository before the test');
    const settings = vscode.workspace.getConfiguration('gateway');
    const approval = settings.get<string>('agent.approval');
    writeFileSync(join(dir, FILE), ORIGINAL);
    makeRepository(dir);
    const made: string[] = [];
    try {
      await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await settings.update('agent.approval', 'auto-edit', vscode.ConfigurationTarget.Global);
      await resetEmulator();
      await scriptTurns('demo-key', [turn, turn, turn, turn]);

      const [alpha, beta] = await Promise.all(
        ['ALPHA', 'BETA'].map((name) =>
          vscode.commands.executeCommand<{ id: string; status: string }>('gateway.agent.start', `change the file in session ${name}`, { place: 'worktree' }),
        ),
      );
      const saved = await gateway.agentSessions();
      const worktreeOf = (id: string) => {
        const worktree = saved.find((session) => session.id === id)?.worktree;
        assert(worktree !== undefined, `session ${id} works in a worktree`);
        made.push(worktree.path);
        return worktree;
      };
      const a = worktreeOf(alpha.id);
      const b = worktreeOf(beta.id);
      assertEqual(alpha.status, 'done', 'the first session finished');
      assertEqual(beta.status, 'done', 'the second session finished');
      assertEqual(a.branch, `gateway/${alpha.id}`, 'its branch');
      assertEqual(a.baseCommit, git(dir, 'rev-parse', 'HEAD').trim(), 'made from the current commit');
      assert(!a.path.startsWith(`${dir}/`) && !b.path.startsWith(`${dir}/`), 'the worktrees are outside the workspace folder');
      assertEqual(readFileSync(join(a.path, FILE), 'utf8'), changed('ALPHA'), "the first worktree has its own change, not the other's");
      assertEqual(readFileSync(join(b.path, FILE), 'utf8'), changed('BETA'), "the second worktree has its own change, not the other's");
      assertEqual(readFileSync(join(dir, FILE), 'utf8'), ORIGINAL, 'the workspace is untouched while they work');

      assertEqual(await vscode.commands.executeCommand<number>('gateway.agent.reviewWorktree', alpha.id), 1, 'Review Changes shows the one file changed');

      const applied = await vscode.commands.executeCommand<{ applied: boolean; files?: string[] }>('gateway.agent.applyWorktree', alpha.id);
      assertEqual(JSON.stringify(applied), JSON.stringify({ applied: true, files: [FILE] }), 'the first is applied');
      assertEqual(readFileSync(join(dir, FILE), 'utf8'), changed('ALPHA'), "the workspace has the first's change and not the second's");

      // The second now conflicts with the workspace: refused, nothing written.
      const refused = await vscode.commands.executeCommand<{ applied: boolean; reason?: string }>('gateway.agent.applyWorktree', beta.id);
      assert(refused.applied === false && (refused.reason ?? '').includes(FILE), `the conflict is shown, not forced: ${JSON.stringify(refused)}`);
      assertEqual(readFileSync(join(dir, FILE), 'utf8'), changed('ALPHA'), 'a refused apply changes nothing');

      // Round 19b: a file the workspace folder's own (untracked) .envrc sources is not carried by a script's call.
      mkdirSync(join(a.path, 'tools'), { recursive: true });
      writeFileSync(join(a.path, 'tools', 'dev-env.sh'), 'echo ran outside the sandbox\n');
      writeFileSync(join(dir, '.envrc'), 'source tools/dev-env.sh\n');
      try {
        const held = await vscode.commands.executeCommand<{ applied: boolean; held?: { path: string }[] }>('gateway.agent.applyWorktree', alpha.id, {
          confirmed: true,
        });
        assert(
          held.applied === false && JSON.stringify(held.held?.map((entry) => entry.path)) === JSON.stringify(['tools/dev-env.sh']),
          `what the folder's .envrc sources is held, not applied: ${JSON.stringify(held)}`,
        );
        assert(!existsSync(join(dir, 'tools', 'dev-env.sh')), 'nothing was written');
      } finally {
        rmSync(join(dir, '.envrc'), { force: true });
        rmSync(join(a.path, 'tools'), { recursive: true, force: true });
      }

      assert(await vscode.commands.executeCommand<boolean>('gateway.agent.discardWorktree', beta.id, { confirmed: true }), 'the second is discarded');
      assert(!existsSync(b.path), 'its worktree is gone');
      assertEqual(git(dir, 'branch', '--list', b.branch).trim(), '', 'its branch is gone');
      assert(
        (await gateway.agentSessions()).find((session) => session.id === beta.id)?.worktree?.discarded === true,
        'the session says its worktree was discarded',
      );
      assert(existsSync(a.path), "the other session's worktree stays");

      // A worktree whose session is gone (a crash, a deleted session) is found and removed; the live session's stays.
      const gone = join(a.path, '..', 'sgone');
      git(dir, 'worktree', 'add', '-q', '-b', 'gateway/sgone', gone);
      made.push(gone);
      assertEqual(await vscode.commands.executeCommand<number>('gateway.agent.cleanUpWorktrees', { confirmed: true }), 1, 'one stale worktree removed');
      assert(!existsSync(gone) && git(dir, 'branch', '--list', 'gateway/sgone').trim() === '', 'the stale worktree and branch are gone');
      assert(existsSync(a.path), "a saved session's worktree is not stale");
      assert(await vscode.commands.executeCommand<boolean>('gateway.agent.discardWorktree', alpha.id, { confirmed: true }), 'the first is discarded too');
    } finally {
      await settings.update('agent.approval', approval, vscode.ConfigurationTarget.Global);
      removeRepository(dir, made);
      rmSync(join(dir, FILE), { force: true });
    }
  },
  { timeoutMs: 180_000 },
);

test(
  'auto in a worktree: a command runs sandboxed in the worktree, its file lands there only, the linked node_modules is not written',
  async () => {
    const gateway = await vscode.extensions.getExtension<WorktreeApi>(EXTENSION_ID)!.activate();
    const dir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert(!existsSync(join(dir, '.git')), 'the sample workspace is not a Git repository before the test');
    const settings = vscode.workspace.getConfiguration('gateway');
    const approval = settings.get<string>('agent.approval');
    const modules = join(dir, 'node_modules');
    assert(!existsSync(modules), 'the sample workspace has no node_modules of its own');
    mkdirSync(join(modules, 'dep'), { recursive: true });
    writeFileSync(join(modules, 'dep', 'index.js'), 'module.exports = 1;\n');
    // Ignored, as a real node_modules is: Git leaves it out of the worktree and the session links it in.
    makeRepository(dir, () => writeFileSync(join(dir, '.git', 'info', 'exclude'), 'node_modules/\n'));
    let made: string | undefined;
    try {
      await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await settings.update('agent.approval', 'auto', vscode.ConfigurationTarget.Global);
      await resetEmulator();
      const command = 'pwd && echo from-command > e2e-sandboxed.txt && (echo evil > node_modules/dep/evil.txt || echo link-not-written)';
      await scriptTurns('demo-key', [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'Ran it.' }]);
      const ran = await vscode.commands.executeCommand<{ id: string; status: string }>('gateway.agent.start', 'run a command in a worktree', {
        place: 'worktree',
      });
      assertEqual(ran.status, 'done', 'the session finished (nothing asked in auto)');
      const worktree = (await gateway.agentSessions()).find((session) => session.id === ran.id)?.worktree;
      assert(worktree !== undefined, 'the session works in a worktree');
      made = worktree.path;
      assert(lstatSync(join(worktree.path, 'node_modules')).isSymbolicLink(), 'node_modules is linked into the worktree');
      const output = String((await emulatorRequests()).filter((r) => r.path === '/v1/responses')[1]?.body.input[0].output);
      assert(/Ran in the sandbox/.test(output), `the command ran sandboxed: ${output}`);
      assert(output.includes(`${worktree.path}\n`), `its folder was the worktree: ${output}`);
      assert(/link-not-written/.test(output), `the write through the link failed inside the sandbox: ${output}`);
      assertEqual(readFileSync(join(worktree.path, 'e2e-sandboxed.txt'), 'utf8'), 'from-command\n', 'its file landed in the worktree');
      assert(!existsSync(join(dir, 'e2e-sandboxed.txt')), 'and not in the workspace');
      assert(!existsSync(join(modules, 'dep', 'evil.txt')), "the main folder's node_modules was not written");
      assertEqual(readFileSync(join(modules, 'dep', 'index.js'), 'utf8'), 'module.exports = 1;\n', "the main folder's node_modules is as it was");
      assert(await vscode.commands.executeCommand<boolean>('gateway.agent.discardWorktree', ran.id, { confirmed: true }), 'discarded');
      assert(existsSync(join(modules, 'dep', 'index.js')), "discarding leaves the linked folder's contents");
    } finally {
      await settings.update('agent.approval', approval, vscode.ConfigurationTarget.Global);
      removeRepository(dir, made ? [made] : []);
      rmSync(modules, { recursive: true, force: true });
    }
  },
  { timeoutMs: 120_000 },
);
