// Issue 27, item 7: under `auto` the chat says where a command ran: "exited with 0 in the sandbox (no
// network)", and for a command the sandbox made fail, why ("failed because of the sandbox", with the
// evidence and what to do). Two scripted commands: one that works, one that writes outside (/usr).
// Issue 36: a command that plants a repository in git's bare layout under another name and rewrites the
// file a real repository's include.path points at: both held back, the notification offers Apply / Discard,
// nothing of it is in the workspace, and the ordinary file it wrote beside them landed.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Scenario } from './harness';
import { ensureKey, ensureUserSettings } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { scriptAgent } from './agentActions';
import { clickNotificationButton, readNotification } from './notifications';

const CHAT = '.interactive-session';
const TOASTS = '.notifications-toasts .notification-toast';

let attempt = 0;

export const agentSandboxNotesScenario: Scenario = {
  id: 'i27-sandbox-notes',
  title: 'auto: the chat says a command ran in the sandbox, and that another failed because of it',
  async run(ctx, s) {
    // A user setting (application scope); the change reloads the page, and the finally puts "ask" back.
    await ensureUserSettings(ctx, { 'gateway.agent.approval': 'auto' });
    try {
      await ensureKey(ctx, 'demo-key');
      await scriptAgent(ctx, [
        { toolCalls: [{ name: 'run_command', arguments: { command: 'echo sandboxed-ok' } }] },
        { toolCalls: [{ name: 'run_command', arguments: { command: 'touch /usr/ui-outside-sandbox.txt' } }] },
        { text: 'The first ran; the sandbox stopped the second.' },
      ]);
      attempt++;
      const task = `try two commands${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
      await s.step(
        'sandbox-notes',
        `"@gateway /agent ${task}" under auto: the failed command "exited with 1 in the sandbox", and why: the sandbox`,
        async () => {
          await newChat(ctx);
          await ask(ctx, `@gateway /agent ${task}`);
          // The notes stay outside the steps that fold away when the turn ends: the last command's is in view with the summary.
          const response = await waitForResponse(ctx, task, /Session done/, 60_000, true);
          s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
          s.check(/exited with 1 in the sandbox \(no network\)/.test(response.text), `the command ran in the sandbox ("${response.text.slice(0, 600)}")`);
          s.check(
            /failed because of the sandbox \("Read-only file system"\)/.test(response.text),
            `the note says the sandbox made it fail, with the evidence ("${response.text.slice(0, 600)}")`,
          );
          await s.crop('chat', CHAT);
        },
      );
      await heldChangesStep(ctx, s);
    } finally {
      await ensureUserSettings(ctx, { 'gateway.agent.approval': undefined });
    }
  },
};

/** Issue 36: what a sandboxed command planted is held back, with the notification, and nothing of it lands. */
async function heldChangesStep(ctx: Parameters<Scenario['run']>[0], s: Parameters<Scenario['run']>[1]): Promise<void> {
  const demo = join(ctx.workspace, 'held-demo');
  rmSync(demo, { recursive: true, force: true });
  mkdirSync(demo);
  // A real repository whose config includes a file of its work tree, as a team's shared settings would.
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: demo, env: { ...process.env, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
  git('init', '-q');
  git('config', 'include.path', '../team.gitconfig');
  const plant =
    'mkdir -p held-demo/cache/objects held-demo/cache/refs && echo "ref: refs/heads/main" > held-demo/cache/HEAD && ' +
    'printf "[core]\\n\\tworktree = ..\\n\\tfsmonitor = touch /tmp/ui-fsmonitor-ran\\n" > held-demo/cache/config && ' +
    'printf "[core]\\n\\tfsmonitor = touch /tmp/ui-fsmonitor-ran\\n" > held-demo/team.gitconfig && echo notes > held-demo/notes.txt';
  try {
    await scriptAgent(ctx, [{ toolCalls: [{ name: 'run_command', arguments: { command: plant } }] }, { text: 'Planted; the sandbox held two of them back.' }]);
    attempt++;
    const task = `plant a repository${attempt > 2 ? ` (attempt ${attempt})` : ''}`;
    await s.step(
      'held-back',
      `"@gateway /agent ${task}" under auto: the bare-layout repository and the include.path target are held back, the notification offers Apply / Discard`,
      async () => {
        await newChat(ctx);
        await ask(ctx, `@gateway /agent ${task}`);
        const response = await waitForResponse(ctx, task, /Session done/, 60_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        const notice = await readNotification(ctx, ['held back'], 30_000);
        s.check(/held-demo\/cache/.test(notice.text) || /2 changes/.test(notice.text), `the notification names what was held ("${notice.text}")`);
        s.check(notice.buttons.includes('Apply…') && notice.buttons.includes('Discard'), `it offers Apply… and Discard (${notice.buttons.join(', ')})`);
        s.check(!existsSync(join(demo, 'cache')), 'the planted repository is not in the workspace');
        s.check(!existsSync(join(demo, 'team.gitconfig')), 'the include.path target is not in the workspace');
        s.check(existsSync(join(demo, 'notes.txt')) && readFileSync(join(demo, 'notes.txt'), 'utf8') === 'notes\n', 'the ordinary file beside them landed');
        s.check(!existsSync('/tmp/ui-fsmonitor-ran'), "no fsmonitor ran (VS Code's git found nothing to run)");
        await ctx.wb.runCommand('Notifications: Show Notifications');
        await s.crop('notification', '.notifications-center');
        await clickNotificationButton(ctx, ['held back'], 'Discard');
        s.check((await ctx.page.locator(TOASTS).filter({ hasText: 'held back' }).count()) === 0, 'Discard answered it');
      },
    );
  } finally {
    rmSync(demo, { recursive: true, force: true });
  }
}
