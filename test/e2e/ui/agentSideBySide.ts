// Issue 40, "Done when": sessions side by side, each in a Git worktree of its own, as the Sessions view shows them.
// The sample workspace is made a Git repository for the scenario (and is none again at its end). Three sessions are
// started from the palette, each "In a new worktree": the scripted model streams the first two's answers slowly, so
// both are working at the same moment, and asks the third to run a command, which waits for the user's approval.
// The view then lists two running rows and one awaiting approval, each with its place (worktree · gateway/<id>).
// Then all three end cleanly: the two are stopped, the command approved (its session finishes), every worktree
// discarded, so later scenarios start in a plain folder again.
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from '../lib/browser';
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { clickApprovalButton, scriptAgent, sessionRow, showSessionsView, task, waitForApproval, waitForSessionRow } from './agentActions';
import { chatLayout } from './layout';

const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
const QUICK_INPUT_ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';
const SESSIONS_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Agent Sessions"])';
const DIALOG_BUTTON = '.monaco-dialog-box .monaco-button';
const COMMAND = 'echo side-by-side-approved';

/** An answer streamed slowly (six characters every half second, about 150 s): the session stays "running" meanwhile. */
const slowAnswer = (name: string) => ({ text: `Working on ${name}: reading the code, step by step. `, repeat: 40, chunkChars: 6, delayMs: 500 });

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    timeout: 15_000,
    env: { ...process.env, GIT_AUTHOR_NAME: 'e2e', GIT_AUTHOR_EMAIL: 'e2e@example.com', GIT_COMMITTER_NAME: 'e2e', GIT_COMMITTER_EMAIL: 'e2e@example.com' },
  });
}

/** The folder the sessions' worktrees are made in, beside the workspace (`.<name>.gateway-worktrees`). */
const worktreesFolder = (ctx: UiContext) => path.join(path.dirname(ctx.workspace), `.${path.basename(ctx.workspace)}.gateway-worktrees`);

/** The workspace as a plain folder again: no worktree, no branch, no repository (whatever an attempt left). */
function unmakeRepository(ctx: UiContext): void {
  if (existsSync(path.join(ctx.workspace, '.git'))) {
    for (const line of git(ctx.workspace, 'worktree', 'list', '--porcelain').split('\n')) {
      const made = line.startsWith('worktree ') ? line.slice('worktree '.length) : '';
      if (made && made !== ctx.workspace && existsSync(made)) git(ctx.workspace, 'worktree', 'remove', '--force', made);
    }
    rmSync(path.join(ctx.workspace, '.git'), { recursive: true, force: true });
  }
  rmSync(worktreesFolder(ctx), { recursive: true, force: true });
}

/** "Gateway: Start Agent Session…", the task, Enter, then "In a new worktree" in the question where it works. */
async function startInWorktree(ctx: UiContext, taskText: string): Promise<void> {
  await ctx.wb.runCommand('Gateway: Start Agent Session…');
  await ctx.wb.waitForQuickInput('Gateway: Start Agent Session');
  // A workspace with custom agents (an earlier scenario leaves one) is first asked which agent: the standard one.
  const placeholder = (wanted: RegExp) =>
    ctx.page.waitForFunction(
      `${wanted.toString()}.test(document.querySelector(${JSON.stringify(QUICK_INPUT_BOX)})?.getAttribute('placeholder') || '')`,
      undefined,
      { timeout: 15_000, polling: 100 },
    );
  await placeholder(/Start as which agent|add a unit test/);
  if (/which agent/.test((await ctx.page.locator(QUICK_INPUT_BOX).getAttribute('placeholder')) ?? '')) {
    await ctx.page.locator(QUICK_INPUT_ROWS).filter({ hasText: 'The standard agent' }).first().click({ timeout: 10_000 });
    await placeholder(/add a unit test/);
  }
  await ctx.page.locator(QUICK_INPUT_BOX).fill(taskText, { timeout: 10_000 });
  await ctx.page.keyboard.press('Enter');
  await ctx.wb.waitForQuickInput('Where should the agent session work?', 30_000);
  await ctx.page.locator(QUICK_INPUT_ROWS).filter({ hasText: 'In a new worktree' }).first().click({ timeout: 10_000 });
  await ctx.wb.waitForQuickInputClosed();
}

type MousePage = Page & {
  mouse: { move(x: number, y: number, options?: { steps?: number }): Promise<void>; down(): Promise<void>; up(): Promise<void> };
};

/** Where the primary side bar is on the page (undefined when it is hidden). */
function sideBarBox(ctx: UiContext): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
  return ctx.page.evaluate<{ x: number; y: number; width: number; height: number } | undefined>(`(() => {
    const rect = document.querySelector('.part.sidebar')?.getBoundingClientRect();
    return rect && rect.width > 0 ? { x: rect.left, y: rect.top, width: rect.width, height: rect.height } : undefined;
  })()`);
}

/** Drags the primary side bar's edge until it is `width` px wide (the sash on its right edge); returns the width it had. */
async function sideBarWidth(ctx: UiContext, width: number): Promise<number> {
  const box = await sideBarBox(ctx);
  if (!box) throw new Error('the primary side bar is not shown');
  const { mouse } = ctx.page as MousePage;
  const y = box.y + box.height / 2;
  await mouse.move(box.x + box.width, y);
  await mouse.down();
  await mouse.move(box.x + width, y, { steps: 10 });
  await mouse.up();
  // Off the sash, so it is not drawn highlighted in the screenshot.
  await mouse.move(0, 0);
  return box.width;
}

/** A palette command that asks for a session: the row of `title` picked. */
async function pickSession(ctx: UiContext, command: string, title: string): Promise<void> {
  await ctx.wb.runCommand(command);
  await ctx.page.locator(QUICK_INPUT_ROWS).filter({ hasText: title }).first().click({ timeout: 15_000 });
  await ctx.wb.waitForQuickInputClosed();
}

export const agentSideBySideScenario: Scenario = {
  id: 'i40-side-by-side',
  title: 'three sessions in worktrees of their own: two working at once and one waiting, in the Sessions view; then ended cleanly',
  layout: chatLayout,
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    unmakeRepository(ctx);
    git(ctx.workspace, 'init', '-q', '-b', 'main');
    git(ctx.workspace, 'add', '-A');
    git(ctx.workspace, 'commit', '-q', '-m', 'sample');
    const first = task('i40-first', 'tidy the greeting');
    const second = task('i40-second', 'document the notes');
    const third = task('i40-third', 'check the build');
    // The queue is shared: each session takes the next turn with its first request, so they start one after another.
    await scriptAgent(ctx, [
      slowAnswer('the greeting'),
      slowAnswer('the notes'),
      { toolCalls: [{ name: 'run_command', arguments: { command: COMMAND } }] },
      { text: 'Checked.' },
    ]);
    let originalWidth: number | undefined;
    const branchRow = /^(running|awaiting approval) · \d+ turns? · [\d: A-Za-z]+ · worktree · gateway\/[a-z0-9]+/;
    try {
      await s.step('three-started', 'three sessions started from the palette, each "In a new worktree"; the third asks to run a command', async () => {
        await showSessionsView(ctx);
        await startInWorktree(ctx, first);
        await waitForSessionRow(ctx, first, /^running\b/, 60_000);
        await startInWorktree(ctx, second);
        await waitForSessionRow(ctx, second, /^running\b/, 60_000);
        await startInWorktree(ctx, third);
        const approval = await waitForApproval(ctx, COMMAND);
        s.check(approval.buttons.includes('Approve'), `the approval offers Approve (${JSON.stringify(approval.buttons)})`);
      });

      await s.step(
        'sessions-view',
        'the Sessions view: two rows "running · … · worktree · gateway/<id>" and one "awaiting approval · … · worktree · gateway/<id>"',
        async () => {
          await showSessionsView(ctx);
          // Wide enough for a row's place (at the default width the view cuts each row after its state and turns).
          originalWidth = await sideBarWidth(ctx, 760);
          const widened = (await sideBarBox(ctx))?.width ?? 0;
          s.check(widened > 600, `the side bar is widened (${originalWidth} → ${widened} px)`);
          const rows: string[] = [];
          for (const [title, state] of [
            [first, /^running\b/],
            [second, /^running\b/],
            [third, /^awaiting approval\b/],
          ] as const) {
            const description = await waitForSessionRow(ctx, title, state, 30_000);
            s.check(branchRow.test(description), `"${title}" says its state, then its place ("${description}")`);
            rows.push(description);
          }
          const branches = new Set(rows.map((row) => /gateway\/[a-z0-9]+/.exec(row)?.[0]));
          s.check(branches.size === 3, `each session has a branch of its own (${JSON.stringify(rows)})`);
          const made = existsSync(worktreesFolder(ctx)) ? git(ctx.workspace, 'worktree', 'list').trim().split('\n').length : 0;
          s.check(made === 4, `Git lists the workspace and three worktrees (${made})`);
          await s.crop('sessions', `.part.sidebar .composite.title, ${SESSIONS_PANE} .monaco-list-row`);
        },
      );

      await s.step('ended', 'the two stopped, the command approved (its session done), all three worktrees discarded', async () => {
        await clickApprovalButton(ctx, COMMAND, 'Approve');
        // Its session's end says the command ran: the panel may show another scenario's terminal, not the one it ran in
        // (the full suite's first attempt read an earlier terminal and timed out).
        await waitForSessionRow(ctx, third, /^done\b/, 60_000);
        for (const title of [first, second]) {
          await pickSession(ctx, 'Gateway: Stop Agent Session', title);
          await waitForSessionRow(ctx, title, /^paused\b/, 30_000);
        }
        for (const title of [first, second, third]) {
          await pickSession(ctx, 'Gateway: Discard Worktree…', title);
          await ctx.page
            .locator(DIALOG_BUTTON)
            .filter({ hasText: /^\s*Discard\s*$/ })
            .first()
            .click({ timeout: 10_000 });
          await waitForSessionRow(ctx, title, /worktree discarded · gateway\//, 30_000);
        }
        const left = git(ctx.workspace, 'worktree', 'list').trim().split('\n');
        s.check(left.length === 1, `no worktree left (${JSON.stringify(left)})`);
        s.check(git(ctx.workspace, 'branch', '--list', 'gateway/*').trim() === '', 'no gateway/ branch left');
        s.check((await sessionRow(ctx, third).innerText()).includes(third.slice(0, 20)), 'the sessions stay in the view, to be read');
        await ctx.wb.clearNotifications().catch(() => undefined);
      });
    } finally {
      // An attempt that failed half-way leaves nothing running or waiting (a later scenario counts the waiting ones).
      for (const title of [first, second, third])
        if (
          await sessionRow(ctx, title)
            .isVisible()
            .catch(() => false)
        )
          if (/^(running|awaiting approval)\b/.test(await waitForSessionRow(ctx, title, /./, 5_000).catch(() => '')))
            await pickSession(ctx, 'Gateway: Stop Agent Session', title).catch(() => ctx.page.keyboard.press('Escape'));
      if (originalWidth !== undefined) await sideBarWidth(ctx, originalWidth).catch(() => undefined);
      // Later scenarios start in a plain folder (a repository would make Start Agent Session… ask where).
      unmakeRepository(ctx);
    }
  },
};
