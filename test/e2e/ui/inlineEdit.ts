// Scenario 10: "Gateway: Edit Selection…" as a person runs it. src/hello.ts opened with
// Quick Open, its text selected, the instruction typed into the extension's QuickPick; the
// rewrite opens as a diff "…: Gateway edit"; Accept (the editor-title button) applies it as
// one undo step; a second run offers the instruction as "recent", and Escape rejects it,
// leaving the file untouched. The emulator's scripted model writes the rewrite.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator, Page } from '../lib/browser';
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { postEmulator, quickOpen } from './agentActions';

const ORIGINAL_HELLO = 'export function hello(name: string): string {\n  return `Hello, ${name}!`;\n}\n';
const REWRITE_ANSWER = 'Here you go:\n```ts\nexport function hello(name: string): string {\n  return `Hi, ${name}!`;\n}\n```\n';
const INSTRUCTION = 'use a shorter greeting';
const QUICK_INPUT_BOX = '.quick-input-widget .quick-input-box input';
const ACTIVE_GROUP = '.part.editor .editor-group-container.active';
const ACTIVE_EDITOR_LINES = `${ACTIVE_GROUP} .editor-container .monaco-editor .view-lines`;
const DIFF = '.part.editor .monaco-diff-editor';

// ---- set-up outside the UI: the emulator's script ------------------------------------------

/** POST /_emulator/reset, then /_emulator/script: demo-key's next answer (any model, any endpoint) is the rewrite. */
async function scriptRewrite(ctx: UiContext, reset: boolean): Promise<void> {
  if (reset) await postEmulator(ctx, '/_emulator/reset', {});
  await postEmulator(ctx, '/_emulator/script', { key: 'demo-key', turns: [{ text: REWRITE_ANSWER }] });
}

const readDisk = (file: string) => readFileSync(file, 'utf8');

/** Waits (polling the disk on this machine) until `file` satisfies `ok`. */
async function waitForDisk(file: string, ok: (text: string) => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ok(readDisk(file))) {
    if (Date.now() > deadline)
      throw new Error(`${what}: not so on disk within ${timeoutMs / 1000}s; ${path.basename(file)} holds ${JSON.stringify(readDisk(file))}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// ---- the UI ------------------------------------------------------------------------------------

/** An editor tab (any group) whose label contains `text`. */
function editorTab(ctx: UiContext, text: string | RegExp): Locator {
  return ctx.page.locator('.part.editor .tabs-container .tab').filter({ hasText: text }).first();
}

/** The active group's active tab. */
function activeTab(ctx: UiContext): Locator {
  return ctx.page.locator(`${ACTIVE_GROUP} .tabs-container .tab.active`).first();
}

/** The text of the active editor as shown (non-breaking spaces made plain). */
async function activeEditorText(ctx: UiContext): Promise<string> {
  return (await ctx.page.locator(ACTIVE_EDITOR_LINES).first().innerText({ timeout: 5_000 })).replace(/\u00a0/g, ' ');
}

async function waitForActiveEditorText(ctx: UiContext, text: string, timeoutMs = 10_000): Promise<void> {
  await ctx.page
    .waitForFunction(
      `(() => { const el = document.querySelector(${JSON.stringify(ACTIVE_EDITOR_LINES)});
        return !!el && !el.closest('.monaco-diff-editor') && el.innerText.replace(/\\u00a0/g, ' ').includes(${JSON.stringify(text)}); })()`,
      undefined,
      { timeout: timeoutMs, polling: 100 },
    )
    .catch(async () => {
      throw new Error(
        `the editor never showed ${JSON.stringify(text)} within ${timeoutMs / 1000}s; it shows ${JSON.stringify(await activeEditorText(ctx).catch(() => '(no editor)'))}`,
      );
    });
}

type MousePage = Page & { mouse: { move(x: number, y: number): Promise<void> } };

/**
 * A click into the active editor's text. The mouse leaves the tab row first: resting there after
 * Quick Open, it raises the tab's hover, which covers the editor's first lines until it goes.
 */
async function clickIntoEditor(ctx: UiContext): Promise<void> {
  await (ctx.page as MousePage).mouse.move(700, 450);
  await ctx.page.locator(ACTIVE_EDITOR_LINES).first().click({ timeout: 30_000 });
}

/** src/hello.ts active in a plain editor, its whole text selected (click into it, Ctrl+A). */
async function openAndSelectHello(ctx: UiContext): Promise<void> {
  await quickOpen(ctx, 'hello.ts', 'hello.ts');
  await waitForActiveEditorText(ctx, 'return `Hello, ${name}!`;');
  await clickIntoEditor(ctx);
  await ctx.page.keyboard.press('Control+A');
  await ctx.page.locator(`${ACTIVE_GROUP} .editor-container .monaco-editor .selected-text`).first().waitFor({ state: 'attached', timeout: 5_000 });
}

/** F1 → "Gateway: Edit Selection…": the extension's QuickPick "Gateway: Edit Selection" opens. */
async function openInstructionPick(ctx: UiContext): Promise<void> {
  await ctx.wb.runCommand('Gateway: Edit Selection…', { timeoutMs: 30_000 });
  await ctx.wb.waitForQuickInput('Gateway: Edit Selection');
}

/** The rows of the open QuickPick, each "label description" on one line. */
const pickRows = (ctx: UiContext) => ctx.wb.quickPickRows().catch(() => [] as string[]);

/** Types `instruction` into the open QuickPick, waits until its row is the focused one, Enter. */
async function sendInstruction(ctx: UiContext, instruction: string): Promise<void> {
  const { page } = ctx;
  await page.locator(QUICK_INPUT_BOX).fill(instruction, { timeout: 10_000 });
  const row = ctx.wb.quickPickRow(instruction);
  await page
    .waitForFunction(
      `[...document.querySelectorAll('.quick-input-widget .quick-input-list .monaco-list-row.focused')].some((r) => (r.getAttribute('aria-label') || '').split(',')[0] === ${JSON.stringify(instruction)})`,
      undefined,
      { timeout: 10_000, polling: 100 },
    )
    .catch(async () => {
      throw new Error(`the QuickPick never offered ${JSON.stringify(instruction)} as the focused row; rows: ${JSON.stringify(await pickRows(ctx))}`);
    });
  await row.waitFor({ state: 'visible', timeout: 5_000 });
  await page.keyboard.press('Enter');
  await ctx.wb.waitForQuickInputClosed();
}

/** Every line the open diff editor shows (side by side: both sides; inline: the one editor). */
const DIFF_TEXT = `[...document.querySelectorAll(${JSON.stringify(`${DIFF} .view-lines`)})].map((el) => el.innerText.replace(/\\u00a0/g, ' ')).join('\\n')`;
/**
 * The proposed (modified) side of the diff: the modified editor's own lines, side by side or
 * inline (inline, the removed lines are drawn in view zones, which have a .view-lines too).
 */
const MODIFIED_TEXT = `(document.querySelector(${JSON.stringify(`${DIFF} .editor.modified .lines-content > .view-lines`)})?.innerText || '').replace(/\\u00a0/g, ' ')`;

/** The editor-title action of the active group whose label starts with `label` ("Accept Edit", "Reject Edit"). */
function titleAction(ctx: UiContext, label: string): Locator {
  return ctx.page
    .locator(
      `${ACTIVE_GROUP} .title-actions a.action-label[aria-label^=${JSON.stringify(label)}], ${ACTIVE_GROUP} .editor-actions a.action-label[aria-label^=${JSON.stringify(label)}]`,
    )
    .first();
}

/** Waits for the diff tab "…: Gateway edit…" and for the finished proposal (the Accept button shows once streaming ends). */
async function waitForProposal(ctx: UiContext): Promise<{ tab: string; modified: string; all: string }> {
  const tab = editorTab(ctx, 'Gateway edit');
  await tab.waitFor({ state: 'visible', timeout: 20_000 });
  await ctx.page.locator(DIFF).first().waitFor({ state: 'visible', timeout: 10_000 });
  await titleAction(ctx, 'Accept Edit')
    .waitFor({ state: 'visible', timeout: 30_000 })
    .catch(async () => {
      const labels = await ctx.page
        .locator(`${ACTIVE_GROUP} .title-actions a.action-label, ${ACTIVE_GROUP} .editor-actions a.action-label`)
        .evaluateAll((els) => els.map((el) => el.getAttribute('aria-label')));
      throw new Error(
        `the diff's title bar never showed an "Accept Edit" button (it shows ${JSON.stringify(labels)}); the diff shows ${JSON.stringify(await ctx.page.evaluate<string>(DIFF_TEXT))}`,
      );
    });
  const modified = await ctx.page
    .waitForFunction(`(() => { const t = ${MODIFIED_TEXT}; return t.includes('Hi, ') ? t : false; })()`, undefined, { timeout: 10_000, polling: 100 })
    .then((h) => (h as { jsonValue(): Promise<string> }).jsonValue())
    .catch(() => ctx.page.evaluate<string>(MODIFIED_TEXT));
  return { tab: (await tab.innerText()).replace(/\s+/g, ' ').trim(), modified, all: await ctx.page.evaluate<string>(DIFF_TEXT) };
}

// ---- 10: Edit Selection -------------------------------------------------------------------------

export const inlineEditScenario: Scenario = {
  id: '10-inline-edit',
  title:
    '"Gateway: Edit Selection…": the rewrite in a "Gateway edit" diff; Accept applies it as one undo step; the instruction comes back as recent; Escape rejects, but not from another file; Ctrl+Enter accepts; a file changed while the instruction was typed is not edited',
  async run(ctx, s) {
    const hello = path.join(ctx.workspace, 'src', 'hello.ts');
    await ensureKey(ctx, 'demo-key');
    // A retry, or an earlier scenario's leftovers: no pending edit, the sample file on disk and in the editor.
    if ((await editorTab(ctx, 'Gateway edit').count()) > 0) await ctx.wb.runCommand('Gateway: Reject Edit').catch(() => undefined);
    writeFileSync(hello, ORIGINAL_HELLO);
    await quickOpen(ctx, 'hello.ts', 'hello.ts');
    if ((await ctx.page.locator(`${ACTIVE_GROUP} .tabs-container .tab.active.dirty`).count()) > 0) await ctx.wb.runCommand('File: Revert File');
    await waitForActiveEditorText(ctx, 'return `Hello, ${name}!`;');
    await scriptRewrite(ctx, true);

    await s.step(
      'instruction-typed',
      `src/hello.ts selected (Ctrl+A), F1 → "Gateway: Edit Selection…": the QuickPick asks how the code should change; "${INSTRUCTION}" typed`,
      async () => {
        await openAndSelectHello(ctx);
        await openInstructionPick(ctx);
        const placeholder = (await ctx.page.locator(QUICK_INPUT_BOX).getAttribute('placeholder', { timeout: 5_000 })) ?? '';
        s.check(
          /How should the selected code change\?/.test(placeholder),
          `the box asks "How should the selected code change?" (placeholder ${JSON.stringify(placeholder)})`,
        );
        await ctx.page.locator(QUICK_INPUT_BOX).fill(INSTRUCTION, { timeout: 10_000 });
        await ctx.wb.quickPickRow(INSTRUCTION).waitFor({ state: 'visible', timeout: 10_000 });
      },
    );

    await s.step(
      'diff-proposed',
      'Enter: the diff "src/hello.ts: Gateway edit (Accept Ctrl+Enter · Reject Esc)" shows `Hi, ` on the proposed side; the file on disk is unchanged',
      async () => {
        await sendInstruction(ctx, INSTRUCTION);
        const shown = await waitForProposal(ctx);
        s.check(/hello\.ts: Gateway edit/.test(shown.tab), `the diff's tab reads "src/hello.ts: Gateway edit…" (it reads ${JSON.stringify(shown.tab)})`);
        s.check(
          shown.modified.includes('return `Hi, ${name}!`;'),
          `the proposed side shows "return \`Hi, \${name}!\`;" (it shows ${JSON.stringify(shown.modified.slice(0, 300))})`,
        );
        s.check(!/Here you go|```/.test(shown.all), `the model's prose and fences are not in the diff (it shows ${JSON.stringify(shown.all.slice(0, 300))})`);
        s.check(readDisk(hello) === ORIGINAL_HELLO, `the file on disk is unchanged before Accept (it holds ${JSON.stringify(readDisk(hello))})`);
      },
    );

    await s.step('accepted', 'the editor title\'s "Accept Edit" button: the diff closes; the editor on src/hello.ts shows `Hi, `', async () => {
      await titleAction(ctx, 'Accept Edit').click({ timeout: 10_000 });
      await editorTab(ctx, 'Gateway edit').waitFor({ state: 'detached', timeout: 10_000 });
      await activeTab(ctx).filter({ hasText: 'hello.ts' }).waitFor({ state: 'visible', timeout: 10_000 });
      await waitForActiveEditorText(ctx, 'return `Hi, ${name}!`;');
      const text = await activeEditorText(ctx);
      s.check(!text.includes('Hello, '), `the whole function was replaced, once (the editor shows ${JSON.stringify(text)})`);
      s.check((text.match(/export function hello/g) ?? []).length === 1, `one hello() in the editor (it shows ${JSON.stringify(text)})`);
    });

    await s.step('undone', 'Ctrl+Z once: `Hello, ` is back; Ctrl+S: the disk holds the original and the tab is not dirty', async () => {
      await clickIntoEditor(ctx);
      await ctx.page.keyboard.press('Control+Z');
      await waitForActiveEditorText(ctx, 'return `Hello, ${name}!`;');
      const text = await activeEditorText(ctx);
      s.check(!text.includes('Hi, '), `one undo removed the whole edit (the editor shows ${JSON.stringify(text)})`);
      await ctx.page.keyboard.press('Control+S');
      await ctx.page.locator(`${ACTIVE_GROUP} .tabs-container .tab.active.dirty`).waitFor({ state: 'detached', timeout: 10_000 });
      await waitForDisk(hello, (t) => t === ORIGINAL_HELLO, 'the undone file saved');
    });

    await s.step('recent-offered', 'selected again, F1 → "Gateway: Edit Selection…": the QuickPick offers "use a shorter greeting" as recent', async () => {
      await scriptRewrite(ctx, false);
      await openAndSelectHello(ctx);
      await openInstructionPick(ctx);
      const row = ctx.wb.quickPickRow(INSTRUCTION);
      await row.waitFor({ state: 'visible', timeout: 10_000 });
      const text = (await row.innerText()).replace(/\s+/g, ' ').trim();
      s.check(/recent/.test(text), `the row says recent ("${text}"; rows ${JSON.stringify(await pickRows(ctx))})`);
    });

    await s.step(
      'rejected',
      'the recent instruction sent (Enter), the diff shown, then Escape: the diff closes; src/hello.ts is untouched and not dirty',
      async () => {
        await ctx.page.keyboard.press('Enter'); // the recent row is the focused one
        await ctx.wb.waitForQuickInputClosed();
        const shown = await waitForProposal(ctx);
        s.check(
          shown.modified.includes('return `Hi, ${name}!`;'),
          `the second proposal shows "Hi, " on the proposed side (it shows ${JSON.stringify(shown.modified.slice(0, 300))})`,
        );
        await ctx.page.keyboard.press('Escape');
        await editorTab(ctx, 'Gateway edit')
          .waitFor({ state: 'detached', timeout: 10_000 })
          .catch(() => {
            throw new Error('Escape did not close the "Gateway edit" diff within 10s');
          });
        await activeTab(ctx).filter({ hasText: 'hello.ts' }).waitFor({ state: 'visible', timeout: 10_000 });
        const text = await activeEditorText(ctx);
        s.check(text.includes('return `Hello, ${name}!`;') && !text.includes('Hi, '), `the editor still shows the original (it shows ${JSON.stringify(text)})`);
        s.check(
          (await ctx.page.locator('.part.editor .tabs-container .tab.dirty').filter({ hasText: 'hello.ts' }).count()) === 0,
          'the hello.ts tab is not dirty',
        );
        s.check(readDisk(hello) === ORIGINAL_HELLO, `the file on disk is the original (it holds ${JSON.stringify(readDisk(hello))})`);
      },
    );

    await s.step(
      'keys-stay-local',
      'a third proposal; README.md opened and Escape pressed there: the edit stays pending; back in the diff, Ctrl+Enter accepts it',
      async () => {
        await scriptRewrite(ctx, false);
        await openAndSelectHello(ctx);
        await openInstructionPick(ctx);
        await sendInstruction(ctx, INSTRUCTION);
        await waitForProposal(ctx);
        await quickOpen(ctx, 'README.md', 'README.md');
        await clickIntoEditor(ctx);
        await ctx.page.keyboard.press('Escape');
        await new Promise((resolve) => setTimeout(resolve, 500)); // a rejected edit closes its diff at once; give it the chance to (wrongly) do so
        s.check((await editorTab(ctx, 'Gateway edit').count()) === 1, 'Escape in another file left the "Gateway edit" diff open');
        await editorTab(ctx, 'Gateway edit').click({ timeout: 5_000 });
        await ctx.wb.runCommand('View: Focus Active Editor Group');
        await ctx.page.keyboard.press('Control+Enter');
        await editorTab(ctx, 'Gateway edit')
          .waitFor({ state: 'detached', timeout: 10_000 })
          .catch(async () => {
            const focus = await ctx.page.evaluate<string>(
              `(() => { const e = document.activeElement; const ed = e && e.closest('.monaco-editor'); return (e ? e.tagName + '.' + e.className : 'none') + ' in ' + (ed ? ed.className : 'no editor') + ' / diff: ' + (e && e.closest('.monaco-diff-editor') ? 'yes' : 'no'); })()`,
            );
            throw new Error(`Ctrl+Enter in the diff did not accept the edit (focus: ${focus})`);
          });
        await waitForActiveEditorText(ctx, 'return `Hi, ${name}!`;');
        await clickIntoEditor(ctx);
        await ctx.page.keyboard.press('Control+Z');
        await waitForActiveEditorText(ctx, 'return `Hello, ${name}!`;');
        await ctx.page.keyboard.press('Control+S');
        await waitForDisk(hello, (t) => t === ORIGINAL_HELLO, 'the undone file saved');
      },
    );

    await s.step(
      'changed-while-typing',
      'the instruction typed, then a line typed into src/hello.ts before Enter: nothing is sent, a warning says the file changed; the typed line stays',
      async () => {
        await scriptRewrite(ctx, false);
        await openAndSelectHello(ctx);
        await openInstructionPick(ctx);
        await ctx.page.locator(QUICK_INPUT_BOX).fill(INSTRUCTION, { timeout: 10_000 });
        // The QuickPick stays open (ignoreFocusOut) while the user types in the file.
        await clickIntoEditor(ctx);
        // A new first line, then the comment typed on it. Typing "// typed meanwhile" + Enter
        // in front of "export function…" would split a line comment, and TypeScript's
        // on-enter rule continues it ("// export function…") once its language
        // configuration has loaded: a text that depended on timing.
        await ctx.page.keyboard.press('Control+Home');
        await ctx.page.keyboard.press('Enter');
        await ctx.page.keyboard.press('ArrowUp');
        await ctx.page.keyboard.type('// typed meanwhile');
        await waitForActiveEditorText(ctx, '// typed meanwhile');
        await ctx.page.locator(QUICK_INPUT_BOX).click({ timeout: 5_000 });
        await ctx.page.keyboard.press('Enter');
        await ctx.wb.waitForQuickInputClosed();
        const toast = ctx.wb.notificationToast('The file changed while you wrote the instruction');
        await toast.waitFor({ state: 'visible', timeout: 10_000 });
        s.check((await editorTab(ctx, 'Gateway edit').count()) === 0, 'no "Gateway edit" diff opened');
        const text = await activeEditorText(ctx);
        // Line by line: the editor's line elements are not in document order after an edit.
        const lines = text.split('\n');
        s.check(
          lines.includes('// typed meanwhile') &&
            ORIGINAL_HELLO.trimEnd()
              .split('\n')
              .every((line) => lines.includes(line)),
          `the editor keeps the typed line and every line of the original code, uncommented (it shows ${JSON.stringify(text)})`,
        );
        await ctx.wb.runCommand('File: Revert File');
        await waitForDisk(hello, (t) => t === ORIGINAL_HELLO, 'the file on disk untouched');
      },
    );
  },
};
