// Scenarios 7–9: agent sessions as a person runs them. `/agent` in the Chat view with
// Approve buttons, the diff, the terminal and undo; the same kind of task from the palette
// with approval notifications, the "Gateway Agent" output and the Agent Sessions view; and
// a page reload while an approval waits, then "Continue Agent Session…".
// The emulator's scripted model plays the agent (gw-code on /v1/responses).
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '../lib/browser';
import type { Scenario } from './harness';
import { afterReload, emulatorRequests, ensureKey } from './gateway';
import { ask, chatButton, newChat, waitForChatButton, waitForResponse } from './chatActions';
import {
  activeEditorText,
  clickApprovalButton,
  editorTab,
  quickOpen,
  scriptAgent,
  sessionRow,
  showSessionsView,
  startFromPalette,
  task,
  waitForActiveEditorText,
  waitForApproval,
  waitForDisk,
  waitForOutput,
  waitForSessionRow,
  waitForTerminalLine,
} from './agentActions';
import { readNotification } from './notifications';

const ORIGINAL_HELLO = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';

// page.reload and locator.hover exist in playwright-core; the rig's narrow types leave them out.
type FullPage = Page & { reload(options?: { timeout?: number; waitUntil?: 'load' | 'domcontentloaded' }): Promise<unknown> };
type Hoverable = Locator & { hover(options?: { timeout?: number }): Promise<void> };

// ---- 7: /agent in the Chat view ---------------------------------------------------------

export const agentChatScenario: Scenario = {
  id: '7-agent-chat',
  title: '/agent in the Chat view: Approve buttons, the proposed diff, the edit on disk, the command in a terminal, the summary, undo',
  async run(ctx, s) {
    const hello = path.join(ctx.workspace, 'src', 'hello.ts');
    writeFileSync(hello, ORIGINAL_HELLO); // a retry starts from the sample file
    await ensureKey(ctx, 'demo-key');
    // A retry: the first attempt's terminal (and its "agent-ran-here") goes.
    if ((await ctx.page.locator('.part.panel .xterm').count()) > 0) {
      await ctx.wb.runCommand('Terminal: Kill All Terminals');
      await ctx.page.waitForSelector('.part.panel .xterm', { state: 'detached', timeout: 10_000 });
    }
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }] },
      { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/hello.ts', old_text: 'Hello, ', new_text: 'Hi there, ' } }] },
      { toolCalls: [{ name: 'run_command', arguments: { command: 'echo agent-ran-here && (exit 3)' } }] },
      { text: 'Greeting updated.' },
    ]);
    const taskText = task('7', 'make the greeting friendlier');
    const prompt = `@gateway /agent ${taskText}`;
    const shown = prompt.replace(/^@gateway \/agent /, '');

    await s.step(
      'edit-approval',
      `"${prompt}" sent in a new chat: "Approval needed" with an Approve button, and the diff "src/hello.ts: proposed by the agent" opens`,
      async () => {
        await newChat(ctx);
        await ask(ctx, prompt);
        const response = await waitForResponse(ctx, shown, /Approval needed:/, 30_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        s.check(/src\/hello\.ts/.test(response.text), `the approval names src/hello.ts (the response shows "${response.text}")`);
        await waitForChatButton(ctx, 'Approve', 1);
        s.check((await chatButton(ctx, 'Deny').count()) >= 1, 'a Deny button sits next to Approve');
        await editorTab(ctx, 'proposed by the agent').waitFor({ state: 'visible', timeout: 15_000 });
        const tab = (await editorTab(ctx, 'proposed by the agent').innerText()).replace(/\s+/g, ' ').trim();
        s.check(/src\/hello\.ts: proposed by the agent/.test(tab) || /hello\.ts/.test(tab), `the diff's tab names the file ("${tab}")`);
        // Side by side or inline (a narrow editor): the proposed line is in one of the diff's view-lines.
        const diffLines = `[...document.querySelectorAll('.part.editor .monaco-diff-editor .view-lines')].map((el) => el.innerText.replace(/\\u00a0/g, ' ')).join('\\n')`;
        const diffShown = await ctx.page
          .waitForFunction(`(() => { const t = ${diffLines}; return t.includes('Hi there, ') ? t : false; })()`, undefined, { timeout: 10_000, polling: 100 })
          .then(() => 'Hi there, ')
          .catch(() => ctx.page.evaluate<string>(diffLines));
        s.check(diffShown.includes('Hi there, '), `the diff shows the proposed "Hi there, " (it shows ${JSON.stringify(diffShown.slice(0, 200))})`);
        s.check(readFileSync(hello, 'utf8') === ORIGINAL_HELLO, 'nothing is written before the approval');
      },
    );

    await s.step('edit-approved', 'Approve clicked in the chat: src/hello.ts on disk now says "Hi there, "; the command approval appears', async () => {
      await (await waitForChatButton(ctx, 'Approve', 1)).click({ timeout: 10_000 });
      await waitForDisk(hello, (t) => !!t?.includes('Hi there, ${name}'), 'the approved edit');
      await waitForResponse(ctx, shown, /Approval needed: run this command in[\s\S]*echo agent-ran-here && \(exit 3\)/, 30_000);
      await waitForChatButton(ctx, 'Approve', 2);
    });

    await s.step('command-ran', 'the second Approve clicked: the terminal "Gateway Agent: …" shows agent-ran-here', async () => {
      await (await waitForChatButton(ctx, 'Approve', 2)).click({ timeout: 10_000 });
      await waitForTerminalLine(ctx, 'agent-ran-here');
      const panel = (await ctx.page.locator('.part.panel').first().innerText({ timeout: 5_000 })).replace(/\s+/g, ' ');
      const tabs = await ctx.page
        .locator('.part.panel .terminal-tabs-entry, .part.panel .single-terminal-tab')
        .allInnerTexts()
        .catch(() => []);
      const names = `${panel} ${tabs.join(' ')}`;
      s.check(
        names.includes(`Gateway Agent: ${taskText.slice(0, 40)}`),
        `the terminal is named "Gateway Agent: ${taskText.slice(0, 40)}" (the panel shows ${JSON.stringify(tabs.length ? tabs : panel.slice(0, 300))})`,
      );
    });

    await s.step(
      'summary',
      'the chat ends with "Session done" and "Files changed: src/hello.ts"; the model was told the output and the exit code 3',
      async () => {
        const response = await waitForResponse(ctx, shown, /Session done[\s\S]*Commands run:/, 30_000, true);
        s.check(/Greeting updated\./.test(response.text), `the model's closing text shows ("${response.text}")`);
        s.check(/Files changed: src\/hello\.ts/.test(response.text), `the summary says "Files changed: src/hello.ts" ("${response.text}")`);
        s.check(/exited with 3/.test(response.text), `the chat says the command exited with 3 ("${response.text}")`);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        const calls = (await emulatorRequests(ctx)).filter((r) => r.path === '/v1/responses');
        const last = calls.at(-1)?.body as { input?: unknown } | undefined;
        const inputs = Array.isArray(last?.input) ? (last.input as { type?: string; output?: unknown }[]) : [];
        const output = inputs
          .filter((i) => i.type === 'function_call_output')
          .map((i) => String(i.output))
          .join('\n');
        s.check(
          /agent-ran-here/.test(output) && /\b3\b/.test(output),
          `the last /v1/responses input has a function_call_output with agent-ran-here and 3 (it has ${JSON.stringify(output.slice(0, 300))})`,
        );
        s.check(calls.length === 4, `four /v1/responses requests for four scripted turns (saw ${calls.length})`);
      },
    );

    await s.step('undo', 'src/hello.ts opened with Quick Open, Ctrl+Z: the editor shows "Hello, " again; Ctrl+S puts it back on disk', async () => {
      await quickOpen(ctx, 'hello.ts', 'hello.ts');
      await waitForActiveEditorText(ctx, 'Hi there, ');
      await ctx.page.locator('.part.editor .editor-group-container.active .editor-container .monaco-editor .view-lines').first().click({ timeout: 5_000 });
      await ctx.page.keyboard.press('Control+Z');
      await waitForActiveEditorText(ctx, 'return `Hello, ${name}!`;');
      const text = await activeEditorText(ctx);
      s.check(!text.includes('Hi there'), `the edit is gone from the editor (it shows ${JSON.stringify(text)})`);
      await ctx.page.keyboard.press('Control+S');
      await waitForDisk(hello, (t) => t === ORIGINAL_HELLO, 'the undone file saved');
      await ctx.page
        .locator('.part.editor .tabs-container .tab.active.dirty')
        .waitFor({ state: 'detached', timeout: 5_000 })
        .catch(() => undefined);
    });
  },
};

// ---- 8: the palette --------------------------------------------------------------------

export const agentPaletteScenario: Scenario = {
  id: '8-agent-palette',
  title: '"Gateway: Start Agent Session…": the approval notification, the "Gateway Agent" output, the session done in the Agent Sessions view',
  async run(ctx, s) {
    const doc = path.join(ctx.workspace, 'docs', 'palette.md');
    rmSync(doc, { force: true });
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'docs/palette.md', content: '# Written from the palette\n' } }] },
      { text: 'Wrote the palette doc.' },
    ]);
    const taskText = task('8', 'write the palette doc');

    await s.step('task-typed', `F1 → "Gateway: Start Agent Session…": the input box asks for the task; "${taskText}" typed`, async () => {
      await startFromPalette(ctx, taskText, false);
      const prompt = await ctx.page
        .locator('.quick-input-widget .quick-input-message, .quick-input-widget .quick-input-header')
        .first()
        .innerText({ timeout: 5_000 })
        .catch(() => '');
      s.check(/What should the agent do/.test(prompt), `the box asks "What should the agent do in this workspace?" (it says ${JSON.stringify(prompt)})`);
    });

    await s.step('approval-toast', 'Enter: a notification "Gateway agent wants to: …docs/palette.md" offers Approve and Deny', async () => {
      await ctx.page.keyboard.press('Enter');
      await ctx.wb.waitForQuickInputClosed();
      const found = await waitForApproval(ctx, 'docs/palette.md');
      s.check(
        found.buttons.includes('Approve') && found.buttons.includes('Deny'),
        `the notification offers Approve and Deny (buttons ${JSON.stringify(found.buttons)}; "${found.text}")`,
      );
      s.check(!existsSync(doc), 'nothing is written before the approval');
    });

    await s.step('approved-output', 'Approve clicked: the file is written; the "Gateway Agent" output shows the run; "… is done" is announced', async () => {
      await clickApprovalButton(ctx, 'docs/palette.md', 'Approve');
      await waitForDisk(doc, (t) => t === '# Written from the palette\n', 'the approved write');
      // The end says the model, files and tokens, with what can be done next (issue 39, item 7).
      const end = await readNotification(ctx, [`Gateway agent: "${taskText}" is done ·`], 60_000);
      s.check(/1 file changed \(docs\/palette\.md\)/.test(end.text), `the end names the file changed (${JSON.stringify(end.text)})`);
      s.check(end.buttons.includes('Review Session Changes'), `the end offers Review Session Changes (buttons ${JSON.stringify(end.buttons)})`);
      const out = await waitForOutput(ctx, [`=== ${taskText}`, '▶', '✓', 'Wrote the palette doc.']);
      s.check(/waiting for your approval/.test(out), `the output notes the wait for approval (${JSON.stringify(out.slice(0, 400))})`);
    });

    await s.step('sessions-view', "the activity bar's Gateway icon: the Agent Sessions view lists the session as done", async () => {
      await ctx.wb.clearNotifications().catch(() => undefined);
      await showSessionsView(ctx);
      const description = await waitForSessionRow(ctx, taskText, /^done · 2 turns · \d\d:\d\d$/);
      s.check(/^done/.test(description), `the row's description says done ("${description}")`);
    });
  },
};

// ---- 9: a reload while an approval waits ---------------------------------------------------

export const agentReloadScenario: Scenario = {
  id: '9-agent-reload',
  title: 'a reload while an approval waits: the session shows paused ("Interrupted…"); "Continue Agent Session…" finishes it',
  async run(ctx, s) {
    const later = path.join(ctx.workspace, 'later.txt');
    rmSync(later, { force: true });
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'write_file', arguments: { path: 'later.txt', content: 'later\n' } }] },
      { text: 'Finished after continuing.' },
    ]);
    const taskText = task('9', 'write later.txt across a reload');

    await s.step('approval-waiting', `"${taskText}" started from the palette: the approval notification for later.txt waits`, async () => {
      await startFromPalette(ctx, taskText, true);
      const found = await waitForApproval(ctx, 'later.txt');
      s.check(found.buttons.includes('Approve'), `the notification offers Approve (${JSON.stringify(found.buttons)})`);
      await showSessionsView(ctx);
      await waitForSessionRow(ctx, taskText, /^awaiting approval\b/);
    });

    await s.step(
      'reloaded-paused',
      'page reloaded: the workbench comes back; the Agent Sessions view shows the session paused, its tooltip says "Interrupted…"',
      async () => {
        await (ctx.page as FullPage).reload({ waitUntil: 'domcontentloaded', timeout: 60_000 });
        await afterReload(ctx);
        await showSessionsView(ctx);
        const row = await waitForSessionRow(ctx, taskText, /^paused\b/, 120_000);
        s.check(!existsSync(later), 'later.txt is not written: nobody approved it');
        // The reopened window says the session waits (issue 39, item 6), with Continue.
        const told = await readNotification(ctx, [`"${taskText}" was waiting for your approval when the window closed`], 60_000);
        s.check(told.buttons.includes('Continue'), `the notice offers Continue (buttons ${JSON.stringify(told.buttons)})`);
        const hover = ctx.page.locator('.workbench-hover, .monaco-hover').filter({ hasText: 'Interrupted' }).first();
        // A hover can be dismissed before it shows on a busy machine (the tree re-renders the row when the
        // session's state arrives): the mouse leaves the row and comes back, as a person would, until it shows.
        let tip = '';
        for (const deadline = Date.now() + 60_000; tip === '' && Date.now() < deadline;) {
          await (ctx.page as Page & { mouse: { move(x: number, y: number): Promise<void> } }).mouse.move(0, 0);
          await (sessionRow(ctx, taskText) as Hoverable).hover({ timeout: 30_000 });
          tip = await hover
            .waitFor({ state: 'visible', timeout: 10_000 })
            .then(async () => (await hover.innerText()).replace(/\s+/g, ' ').trim())
            .catch(() => '');
        }
        s.check(
          /Interrupted: the window closed or reloaded/.test(tip),
          `the row's tooltip says "Interrupted: the window closed or reloaded…" (tooltip ${JSON.stringify(tip)}; row "${row}")`,
        );
      },
    );

    await s.step(
      'continue-picked',
      'F1 → "Gateway: Continue Agent Session…": the session is offered as paused and picked; the approval notification comes back',
      async () => {
        await ctx.wb.runCommand('Gateway: Continue Agent Session…', { timeoutMs: 30_000 });
        const row = ctx.wb.quickPickRow(taskText);
        await row.waitFor({ state: 'visible', timeout: 15_000 });
        const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
        s.check(/paused/.test(text), `the pick says paused ("${text}")`);
        await row.click({ timeout: 10_000 });
        await ctx.wb.waitForQuickInputClosed();
        await waitForApproval(ctx, 'later.txt');
      },
    );

    await s.step('finished', 'Approve clicked: later.txt holds "later"; the session is done in the Agent Sessions view', async () => {
      await clickApprovalButton(ctx, 'later.txt', 'Approve');
      // "… is done" comes after the write returned: the file is read then, not when it first
      // exists (the write creates it, then fills it; on a loaded machine a poll can fall between).
      await readNotification(ctx, [`Gateway agent: "${taskText}" is done ·`], 60_000);
      const written = existsSync(later) ? readFileSync(later, 'utf8') : undefined;
      s.check(written === 'later\n', `later.txt holds the scripted content (${JSON.stringify(written)})`);
      await showSessionsView(ctx);
      await waitForSessionRow(ctx, taskText, /^done\b/);
    });
  },
};
