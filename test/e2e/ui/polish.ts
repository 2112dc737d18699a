// Issue 27's smaller fixes as a user sees them: one chat model (the status bar's pick moves the Chat view's picker,
// each answer names its model, a pick in the Chat view answers without rewriting gateway.chatModel), a repeated
// "@gateway" not sent as a question, a command approval that names its folder and says why it asks, the summary's
// one primary action, a review diff that looks like a modification, and the Sessions view's row.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario, UiContext } from './harness';
import { chatPickerModel, ensureKey, ensureUserSettings, normalStatus, pickChatModel, waitForStatus } from './gateway';
import { ask, chatButton, chatLink, clickChatButton, waitForResponse } from './chatActions';
import { scriptAgent, showSessionsView, task } from './agentActions';
import { chatLayout } from './layout';

const CHAT = '.interactive-session';
const SESSIONS_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Agent Sessions"])';
const HELLO = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
const LONG_COMMAND = 'cat src/hello.ts && echo check-that-a-long-command-line-wraps-in-the-narrow-chat-view-instead-of-hiding-its-end';

function userSetting(ctx: UiContext, key: string): unknown {
  const file = path.join(ctx.server.runDir, 'ud', 'User', 'settings.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)[key];
}

export const polishModelScenario: Scenario = {
  id: '27-polish-model',
  title: 'one chat model: Select Chat Model moves the Chat view picker; each answer names its model; a Chat view pick answers and becomes gateway.chatModel',
  // The reload that clearing gateway.chatModel may take comes first, then the layout: the layout is what the
  // steps start from, and a freshly reloaded window has settled (the status bar in its normal state).
  async layout(ctx) {
    await ensureKey(ctx, 'demo-key');
    await ensureUserSettings(ctx, { 'gateway.chatModel': undefined });
    await waitForStatus(ctx, normalStatus(), 60_000);
    await chatLayout(ctx);
  },
  async run(ctx, s) {
    await s.step(
      'status-bar-pick',
      '"Gateway: Select Chat Model" → gw-chat-pro: the status bar and the Chat view\'s picker both show gw-chat-pro',
      async () => {
        await ctx.wb.runCommand('Gateway: Select Chat Model');
        await ctx.wb.waitForQuickInput('Gateway: Select Chat Model');
        await ctx.wb.quickPickRow('gw-chat-pro').click({ timeout: 15_000 });
        await ctx.wb.waitForQuickInputClosed();
        // The round trip the user sees: the setting written, the extension told, the status bar redrawn and the
        // Chat view's picker switched (after VS Code has our model list). Bounds, not paces: a loaded machine
        // took over 15 s for it right after a reload.
        await waitForStatus(ctx, normalStatus('gw-chat-pro'), 60_000);
        const picked = await ctx.page
          .waitForFunction(
            `(document.querySelector('${CHAT} .interactive-input-part .model-picker-item .chat-input-picker-label')?.textContent || '').trim() === 'gw-chat-pro'`,
            undefined,
            { timeout: 60_000, polling: 200 },
          )
          .then(
            () => true,
            () => false,
          );
        s.check(picked, `the Chat view's picker shows gw-chat-pro (it shows ${await chatPickerModel(ctx)})`);
      },
    );

    await s.step('answer-names-model', '"@gateway hello": the answer ends with "Answered by gw-chat-pro"', async () => {
      await ask(ctx, '@gateway hello');
      const response = await waitForResponse(ctx, 'hello', /Answered by `?gw-chat-pro/, 30_000, true);
      s.check(response.errors.length === 0, `no error (${JSON.stringify(response.errors)})`);
    });

    await s.step(
      'chat-view-pick',
      'gw-chat-mini picked in the Chat view: the answer names gw-chat-mini, the status bar follows, gateway.chatModel becomes gw-chat-mini and Select Chat Model marks it current',
      async () => {
        await pickChatModel(ctx, 'gw-chat-mini');
        await ask(ctx, '@gateway which model?');
        await waitForResponse(ctx, 'which model?', /Answered by `?gw-chat-mini/, 30_000);
        await waitForStatus(ctx, normalStatus('gw-chat-mini'));
        // One model everywhere (issue 39, item 3): the pick is the setting, so Edit Selection and the next window use it too.
        let setting: unknown;
        for (const deadline = Date.now() + 10_000; setting !== 'gw-chat-mini' && Date.now() < deadline;) {
          setting = userSetting(ctx, 'gateway.chatModel');
          if (setting !== 'gw-chat-mini') await ctx.page.waitForTimeout(200);
        }
        s.check(setting === 'gw-chat-mini', `gateway.chatModel is the pick (${String(setting)})`);
        await ctx.wb.runCommand('Gateway: Select Chat Model');
        await ctx.wb.waitForQuickInput('Gateway: Select Chat Model');
        const row = ctx.wb.quickPickRow('gw-chat-mini');
        await row.waitFor({ state: 'visible', timeout: 15_000 });
        const text = (await row.innerText()).replace(/\s+/g, ' ');
        s.check(/\bcurrent\b/.test(text), `Select Chat Model marks gw-chat-mini current ("${text}")`);
        await ctx.page.keyboard.press('Escape');
        await ctx.wb.waitForQuickInputClosed();
      },
    );

    await s.step('repeated-mention', '"@gateway @gateway hello twice": answered as "hello twice", not as a question about "@gateway"', async () => {
      await ask(ctx, '@gateway @gateway hello twice');
      await waitForResponse(ctx, 'hello twice', /Echo: /, 30_000);
      // What was sent, not the echo on screen: VS Code attaches context (its "Chat customizations index", long once the
      // workspace has custom agents) before the question, and the echo of it is cut before the question shows.
      const sent = [...ctx.emulator.requests].reverse().find((r) => r.path === '/v1/chat/completions');
      const body = JSON.stringify(sent?.body ?? {});
      s.check(body.includes('hello twice') && !body.includes('@gateway hello twice'), `the question sent was "hello twice" (…${body.slice(-200)})`);
    });
  },
};

export const polishAgentScenario: Scenario = {
  id: '27-polish-agent',
  title: 'an agent command approval names its folder and why it asks; one primary summary action; the review diff is a modification; the Sessions row',
  layout: chatLayout,
  async run(ctx, s) {
    const hello = path.join(ctx.workspace, 'src', 'hello.ts');
    writeFileSync(hello, HELLO);
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/hello.ts', old_text: 'Hello, ', new_text: 'Hi, ' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: LONG_COMMAND } }] },
      { text: 'Done.' },
    ]);
    const taskText = task('27', 'greet shorter and show the file');
    const folder = path.basename(ctx.workspace);

    await s.step('command-approval', `the command approval says "in \`${folder}\`", shows the whole command wrapped, and why it asks`, async () => {
      await ask(ctx, `@gateway /agent ${taskText}`);
      await clickChatButton(ctx, 'Approve', 1);
      // The chat writes a response out progressively: wait for its last sentence.
      const response = await waitForResponse(
        ctx,
        taskText,
        /Approval needed: run this command in[\s\S]*It asks because[\s\S]*every command asks/,
        60_000,
        true,
      );
      s.check(response.text.includes(`run this command in ${folder}:`), `the approval names the folder ${folder} (${response.text.slice(-400)})`);
      s.check(/It asks because the approval mode is "ask"/.test(response.text), `it says why it asks (${response.text.slice(-300)})`);
      await ctx.page.waitForTimeout(500);
      const hidden = await ctx.page.evaluate<boolean>(
        `[...document.querySelectorAll('${CHAT} .interactive-response .monaco-editor .view-lines')].some((el) => el.scrollWidth > el.clientWidth + 2 && el.innerText.includes('check-that'))`,
      );
      s.check(!hidden, 'the command block wraps: no part of the command is scrolled out of sight');
    });

    await s.step(
      'summary',
      'approved: the summary stays visible after the turn folds, its one primary action (Review Session Changes) in bold, Revert as a link, no restore to the present step',
      async () => {
        await clickChatButton(ctx, 'Approve', 2);
        const response = await waitForResponse(ctx, taskText, /Session done · gw-code · 3 turns[\s\S]*Revert Session Changes…/, 60_000, true);
        s.check(response.errors.length === 0, `no error (${JSON.stringify(response.errors)})`);
        // VS Code folds a finished turn up to its trailing markdown: the summary is all markdown, so it stays in view.
        await chatLink(ctx, 'Review Session Changes').waitFor({ state: 'visible', timeout: 30_000 });
        const primary = ctx.page.locator('.interactive-session .interactive-response strong a').filter({ hasText: /^\s*Review Session Changes\s*$/ });
        s.check((await primary.count()) >= 1, 'Review Session Changes is the bold (primary) action');
        // The chat's own folds ("Completed 16 steps in 17s", "Used 1 reference") are buttons too.
        const buttons = response.buttons.filter(
          (b) => !/^(Approve|Deny|Review Step|Restore to Here|Show Diff)$|^Completed \d+ steps?\b|^Used \d+ references?$/.test(b),
        );
        s.check(buttons.length === 0, `no summary button: a button would fold the summary away (${JSON.stringify(buttons)})`);
        s.check((await chatButton(ctx, 'Revert Session Changes…').count()) === 0, 'Revert Session Changes… is a link, not a button');
        s.check(
          (await chatButton(ctx, 'Restore to Step 1').count()) === 0 && !/Restore to Step 1/.test(response.text),
          'no restore to the only (present) step',
        );
      },
    );

    await s.step('review', '"Review Session Changes": src/hello.ts as a modification (no "R" renamed badge, not struck through)', async () => {
      await chatLink(ctx, 'Review Session Changes').click({ timeout: 10_000 });
      const editor = '.part.editor .editor-group-container.active';
      await ctx.page.waitForFunction(`(document.querySelector('${editor}')?.innerText || '').includes('hello.ts')`, undefined, { timeout: 60_000 });
      await ctx.page.waitForTimeout(1_000);
      const marks = await ctx.page.evaluate<{ renamed: number; deleted: number; struck: number }>(
        `(() => { const root = document.querySelector('${editor}'); return { renamed: root.querySelectorAll('.status.renamed').length, deleted: root.querySelectorAll('.status.deleted').length, struck: root.querySelectorAll('.strikethrough, .label-name.strikethrough').length }; })()`,
      );
      s.check(marks.renamed === 0 && marks.deleted === 0 && marks.struck === 0, `no renamed/deleted badge or strike-through (${JSON.stringify(marks)})`);
    });

    await s.step('sessions-row', 'the Agent Sessions view: the row says "done · 3 turns · HH:MM"', async () => {
      await showSessionsView(ctx);
      const row = ctx.page
        .locator(`${SESSIONS_PANE} .monaco-list-row`)
        .filter({ hasText: taskText.slice(0, 20) })
        .first();
      await row.waitFor({ state: 'visible', timeout: 30_000 });
      const description = ((await row.locator('.label-description').first().innerText({ timeout: 10_000 })) || '').replace(/\s+/g, ' ').trim();
      s.check(/^done · 3 turns · \d\d:\d\d$/.test(description), `the description (${description})`);
    });
  },
};
