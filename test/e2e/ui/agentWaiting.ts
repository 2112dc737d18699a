// Issue 27, items 1 and 5: a session waiting for the user shows it everywhere until answered.
// From the palette: the progress notification names the waiting command with Approve / Deny
// links and stays after the approval's own toast has hidden itself; the status bar and the
// Agent Sessions view's badge show the wait. In the chat: the progress line says what waits,
// the answer is written under the approval, and its old button (in the turn's folded steps) says it was answered.
import type { Locator } from '../lib/browser';
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { ask, chatButton, newChat, waitForChatButton, waitForResponse } from './chatActions';
import { scriptAgent, showSessionsView, startFromPalette, task, waitForSessionRow, waitForTerminalLine } from './agentActions';
import { chatLayout } from './layout';
import { hideNotificationCenter, readNotification } from './notifications';

const WAITING_ITEM = 'gateway.gateway-vscode.gateway.agentWaiting';
const TOASTS = '.notifications-toasts .notification-toast';
const CHAT_RESPONSE = '.interactive-session .interactive-response';

/** The progress notification's toast while it says the session waits for `command`. */
function waitingToast(ctx: UiContext, command: string): Locator {
  return ctx.page.locator(TOASTS).filter({ hasText: 'waiting for your approval' }).filter({ hasText: command }).first();
}

/** The Gateway container's badge in the activity bar ('' when it has none). */
async function gatewayBadge(ctx: UiContext): Promise<string> {
  return ctx.page.evaluate<string>(`(() => {
    const item = [...document.querySelectorAll('.part.activitybar .action-item')].find((el) => /Gateway/.test(el.querySelector('.action-label')?.getAttribute('aria-label') || ''));
    const badge = item?.querySelector('.badge .badge-content');
    return badge && badge.offsetParent !== null ? badge.textContent.trim() : '';
  })()`);
}

async function waitFor(what: string, read: () => Promise<string>, ok: (value: string) => boolean, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!ok(value)) {
    if (Date.now() > deadline) throw new Error(`${what}: never so within ${timeoutMs / 1000}s (it is ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    value = await read();
  }
  return value;
}

const waitingItemText = (ctx: UiContext) =>
  ctx.wb
    .statusBarItem(WAITING_ITEM)
    .innerText({ timeout: 1_000 })
    .then((t) => t.replace(/\s+/g, ' ').trim())
    .catch(() => '');

export const agentWaitingScenario: Scenario = {
  id: 'i27-agent-waiting',
  title: 'a session waiting for approval shows it in the progress notification (after the toast hides), the status bar, the view badge and the chat',
  layout: chatLayout,
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    const command = 'echo waited-for-you';
    await scriptAgent(ctx, [{ toolCalls: [{ name: 'run_command', arguments: { command } }] }, { text: 'Ran it.' }]);
    const taskText = task('agent-waiting', 'run the waiting command');

    await s.step(
      'waiting-shown',
      'started from the palette: the progress notification says what waits, with Approve and Deny; status bar item and badge',
      async () => {
        await startFromPalette(ctx, taskText, true);
        await waitingToast(ctx, command).waitFor({ state: 'visible', timeout: 60_000 });
        const text = (await waitingToast(ctx, command).innerText()).replace(/\s+/g, ' ');
        s.check(
          /Gateway agent: waiting for your approval: echo waited-for-you/.test(text),
          `the progress says "waiting for your approval: ${command}" ("${text}")`,
        );
        const links = await waitingToast(ctx, command).locator('a').allInnerTexts();
        s.check(links.includes('Approve') && links.includes('Deny'), `the progress has Approve and Deny links (${JSON.stringify(links)})`);
        const item = await waitFor(
          'the waiting status bar item',
          () => waitingItemText(ctx),
          (t) => /waits for your approval/.test(t),
        );
        s.check(/Agent waits for your approval/.test(item), `the status bar says "Agent waits for your approval" ("${item}")`);
        const badge = await waitFor(
          "the Gateway view's badge",
          () => gatewayBadge(ctx),
          (t) => t === '1',
        );
        s.check(badge === '1', `the activity bar's Gateway icon has the badge 1 ("${badge}")`);
      },
    );

    await s.step('still-waiting', 'the approval toast has hidden itself: the progress notification still shows the waiting command and its links', async () => {
      const approvalToast = ctx.page.locator(TOASTS).filter({ hasText: 'Gateway agent wants to:' }).first();
      // VS Code hides a warning toast after 15–18 s; the issue saw it go after ~12 s.
      await approvalToast.waitFor({ state: 'hidden', timeout: 45_000 });
      s.check(await waitingToast(ctx, command).isVisible(), 'the progress notification with the waiting command is still shown');
      s.check(/waits for your approval/.test(await waitingItemText(ctx)), 'the status bar item still shows the wait');
    });

    await s.step('approved-from-progress', 'Approve clicked in the progress notification: the command runs; the status bar item and the badge go', async () => {
      await waitingToast(ctx, command)
        .locator('a')
        .filter({ hasText: /^Approve$/ })
        .click({ timeout: 10_000 });
      await waitForTerminalLine(ctx, 'waited-for-you');
      await readNotification(ctx, [`Gateway agent: "${taskText}" is done ·`], 60_000);
      await waitFor(
        'the waiting status bar item gone',
        () => waitingItemText(ctx),
        (t) => t === '',
      );
      await waitFor(
        'the badge gone',
        () => gatewayBadge(ctx),
        (t) => t === '',
      );
      await showSessionsView(ctx);
      await waitForSessionRow(ctx, taskText, /^done\b/);
      await ctx.wb.clearNotifications().catch(() => undefined);
    });

    const chatCommand = 'echo answered-in-chat';
    await scriptAgent(ctx, [{ toolCalls: [{ name: 'run_command', arguments: { command: chatCommand } }] }, { text: 'Ran it in the chat.' }]);
    const chatTask = task('agent-waiting-chat', 'run the chat command');
    await s.step(
      'chat-waiting',
      'in the chat: the approval with Approve / Deny, and the progress line "Waiting for your approval: echo answered-in-chat"',
      async () => {
        await newChat(ctx);
        await ask(ctx, `@gateway /agent ${chatTask}`);
        const response = await waitForResponse(ctx, chatTask, /Waiting for your approval: echo answered-in-chat/, 60_000);
        s.check(/Approve or Deny above/.test(response.text), `the progress line points at the buttons ("${response.text}")`);
        await waitForChatButton(ctx, 'Approve', 1);
      },
    );

    await s.step('chat-answered', 'Approve clicked: "✓ Approved: echo answered-in-chat" is written under it and the waiting line is gone', async () => {
      await chatButton(ctx, 'Approve').last().click({ timeout: 10_000 });
      const response = await waitForResponse(ctx, chatTask, /Approved: echo answered-in-chat[\s\S]*Session done/, 60_000);
      s.check(!/Waiting for your approval/.test(response.text), `the waiting line is gone once answered ("${response.text}")`);
    });

    await s.step(
      'stale-button',
      "the finished turn's folded steps opened: the answered approval shows; its old Approve clicked says it was already approved",
      async () => {
        // Once the turn ends VS Code folds its steps ("Completed N steps"), the approval and its buttons with them.
        const folded = ctx.page.locator(`${CHAT_RESPONSE} details.completed-response-disclosure:not([open]) > summary`).last();
        if (await folded.isVisible()) await folded.click({ timeout: 10_000 });
        const approve = await waitForChatButton(ctx, 'Approve', 1, 15_000);
        await approve.click({ timeout: 10_000 });
        const told = await readNotification(ctx, ['You already approved'], 20_000);
        s.check(/You already approved ".*echo answered-in-chat/.test(told.text), `the old button says it was approved ("${told.text}")`);
        await hideNotificationCenter(ctx);
      },
    );
  },
};
