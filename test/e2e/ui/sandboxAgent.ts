// Issue 27, item 3: the agent `npm run sandbox` shows a newcomer, in the real window: the same
// emulator script (test/e2e/sandboxAgent.ts) for the first /agent task: the file read, the edit
// proposed as a diff, the command asked for, the summary with its checkpoint and Review
// Session Changes.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { ask, chatButton, chatLink, waitForResponse } from './chatActions';
import { editorTab, waitForTerminalLine } from './agentActions';
import { chatLayout } from './layout';
import { SANDBOX_AGENT_COMMAND, SANDBOX_AGENT_FILE, SANDBOX_AGENT_SCRIPT } from '../sandboxAgent';

const ORIGINAL = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

/**
 * Clicks the `n`-th Approve of the turn, once the chat shows it. An answered approval keeps its buttons in the
 * page (hidden in its collapsed step): clicking the newest before the `n`-th is there once clicked the old one.
 */
async function approveNth(ctx: UiContext, n: number): Promise<void> {
  const buttons = chatButton(ctx, 'Approve');
  const deadline = Date.now() + 60_000;
  for (;;) {
    const count = await buttons.count();
    const newest = buttons.nth(count - 1);
    if (
      count >= n &&
      (await newest.isVisible()) &&
      (await newest.click({ timeout: 5_000 }).then(
        () => true,
        () => false,
      ))
    )
      return;
    if (Date.now() > deadline) throw new Error(`approval ${n}: the chat shows ${count} Approve button(s), the newest not clickable`);
    await ctx.page.waitForTimeout(250);
  }
}

/** Opens the finished turn's "Completed N steps" fold when it is closed. */
async function unfoldTurn(ctx: UiContext): Promise<void> {
  const folded = ctx.page.locator('.interactive-session .interactive-response details.completed-response-disclosure:not([open]) > summary').last();
  if (await folded.isVisible()) await folded.click({ timeout: 10_000 });
}

export const sandboxAgentScenario: Scenario = {
  id: 'i27-sandbox-agent',
  title: "the sandbox's scripted agent: read, proposed edit with its diff, command approval, summary, review",
  layout: chatLayout,
  async run(ctx, s) {
    const file = path.join(ctx.workspace, SANDBOX_AGENT_FILE);
    writeFileSync(file, ORIGINAL);
    await ensureKey(ctx, 'demo-key');
    ctx.emulator.reset();
    ctx.emulator.script('demo-key', SANDBOX_AGENT_SCRIPT);
    const taskText = 'make the greeting friendlier';

    await s.step('edit-proposed', `"@gateway /agent ${taskText}": the agent reads the file, then proposes an edit; its diff opens`, async () => {
      await ask(ctx, `@gateway /agent ${taskText}`);
      const response = await waitForResponse(ctx, taskText, /Approval needed/, 60_000, true);
      s.check(/First I read the greeting\./.test(response.text), `the agent says it reads the file first ("${response.text}")`);
      await editorTab(ctx, 'proposed by the agent').waitFor({ state: 'visible', timeout: 30_000 });
      s.check(readFileSync(file, 'utf8') === ORIGINAL, 'nothing written before the approval');
    });

    await s.step('command-asked', 'Approve: the edit is written; the agent asks to run a command', async () => {
      await approveNth(ctx, 1);
      await waitForResponse(ctx, taskText, /Approval needed: run this command/, 60_000);
      s.check(readFileSync(file, 'utf8').includes('Hi there, '), 'src/hello.ts now says "Hi there, "');
    });

    await s.step('summary', 'Approve: the command runs; the summary lists the file, the command, the checkpoint and Review Session Changes', async () => {
      await approveNth(ctx, 2);
      await waitForTerminalLine(ctx, '2:  return `Hi there, ${name}!`;').catch(() => undefined);
      // The summary is written in parts (its text, the checkpoints, the button): wait for its last line. Once the
      // turn ends VS Code folds its steps into "Completed N steps" (the summary, all markdown, stays out of the fold).
      const deadline = Date.now() + 60_000;
      let text: string | undefined;
      while (text === undefined) {
        await unfoldTurn(ctx);
        text = await waitForResponse(ctx, taskText, /Session done[\s\S]*Checkpoints?: Step \d+/, 3_000).then(
          (response) => response.text,
          (error: unknown) => {
            if (Date.now() > deadline) throw error;
            return undefined;
          },
        );
      }
      s.check(text.includes(`Files changed: ${SANDBOX_AGENT_FILE}`), `the summary names the file ("${text}")`);
      s.check(text.includes(SANDBOX_AGENT_COMMAND), `the summary names the command ("${text}")`);
      await unfoldTurn(ctx);
      await chatLink(ctx, 'Review Session Changes').waitFor({ state: 'visible', timeout: 30_000 });
    });

    await s.step('review', 'Review Session Changes: the diff of src/hello.ts against its state before the session', async () => {
      await unfoldTurn(ctx);
      await chatLink(ctx, 'Review Session Changes').click({ timeout: 10_000 });
      await ctx.page.waitForFunction(
        `(() => { const t = (document.querySelector('.part.editor .editor-group-container.active')?.innerText || '').replace(/\\u00a0/g, ' '); return t.includes('hello.ts') && t.includes('Hi there'); })()`,
        undefined,
        { timeout: 60_000, polling: 200 },
      );
    });
  },
};
