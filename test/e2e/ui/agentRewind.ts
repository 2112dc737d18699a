// Review and rewind as a person does it: `/agent` makes three steps on two files (each a
// checkpoint with "Restore to Here"), "Review Session Changes" shows both files in one
// multi-file diff, the user edits one file meanwhile, "Restore to Here" on step 1 names that
// file and keeps it when asked, the session continues from step 1, and the restore is undone.
// Last, "Gateway: Delete Agent Session…" removes the session and its checkpoint folder after a
// modal naming it, and leaves the files it changed as they are.
// The emulator's scripted model plays the agent (gw-code on /v1/responses).
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Locator } from '../lib/browser';
import type { Scenario, UiContext } from './harness';
import { emulatorRequests, ensureKey } from './gateway';
import { ask, chatButton, chatLink, newChat, waitForChatButton, waitForResponse } from './chatActions';
import { scriptAgent, showSessionsView, task, waitForDisk } from './agentActions';
import { readNotification } from './notifications';

const CHAT = '.interactive-session';
const DIALOG = '.monaco-dialog-box';
const TOASTS = '.notifications-toasts .notification-toast';
const SESSIONS_PANE = '.part.sidebar .pane:has(.pane-header[aria-label^="Agent Sessions"])';

const A0 = 'export const answer = 0;\n';
const B0 = 'export const label = "zero";\n';
const edit = (file: string, from: string, to: string) => ({ toolCalls: [{ name: 'edit_file', arguments: { path: file, old_text: from, new_text: to } }] });

/** The modal dialog showing `message`: its text and buttons. */
async function waitForDialog(ctx: UiContext, message: string): Promise<{ dialog: Locator; text: string; buttons: string[] }> {
  const dialog = ctx.page.locator(DIALOG).filter({ hasText: message }).first();
  await dialog.waitFor({ state: 'visible', timeout: 30_000 });
  const text = (await dialog.innerText()).replace(/\s+/g, ' ').trim();
  const buttons = (await dialog.locator('.dialog-buttons .monaco-button').allInnerTexts()).map((b) => b.trim()).filter(Boolean);
  return { dialog, text, buttons };
}

async function clickDialogButton(dialog: Locator, title: string): Promise<void> {
  await dialog
    .locator('.dialog-buttons .monaco-button')
    .filter({ hasText: new RegExp(`^\\s*${title}\\s*$`) })
    .first()
    .click({ timeout: 10_000 });
  await dialog.waitFor({ state: 'detached', timeout: 10_000 });
}

async function waitForToast(ctx: UiContext, text: string): Promise<string> {
  return (await readNotification(ctx, [text])).text;
}

/** The extension's agent-sessions and agent-checkpoints folders in the run's workspace storage (`ud/User/workspaceStorage/<hash>/<extension id>`). */
function storageFolders(runDir: string): { sessions: string; checkpoints: string } | undefined {
  const workspaces = path.join(runDir, 'ud', 'User', 'workspaceStorage');
  for (const hash of existsSync(workspaces) ? readdirSync(workspaces) : []) {
    const storage = path.join(workspaces, hash, 'gateway.gateway-vscode');
    if (existsSync(path.join(storage, 'agent-checkpoints')))
      return { sessions: path.join(storage, 'agent-sessions'), checkpoints: path.join(storage, 'agent-checkpoints') };
  }
  return undefined;
}

/** The id of the saved session with this title (its snapshot file's name). */
function sessionIdByTitle(sessionsDir: string, title: string): string | undefined {
  for (const name of readdirSync(sessionsDir).filter((n) => n.endsWith('.json'))) {
    const state = JSON.parse(readFileSync(path.join(sessionsDir, name), 'utf8')) as { title?: string };
    if (state.title === title) return name.slice(0, -'.json'.length);
  }
  return undefined;
}

/** The previous_response_id of each /v1/responses request, in order. */
async function chainIds(ctx: UiContext): Promise<(string | undefined)[]> {
  return (await emulatorRequests(ctx))
    .filter((r) => r.path === '/v1/responses')
    .map((r) => (r.body as { previous_response_id?: string } | null)?.previous_response_id);
}

export const agentRewindScenario: Scenario = {
  id: '12-agent-rewind',
  title: 'review and rewind: three checkpoints, the session diff, Restore to Here keeping a user edit, continue from step 1, undo the restore',
  async run(ctx, s) {
    const fileA = path.join(ctx.workspace, 'src', 'rewind-a.ts');
    const fileB = path.join(ctx.workspace, 'src', 'rewind-b.ts');
    writeFileSync(fileA, A0);
    writeFileSync(fileB, B0);
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      edit('src/rewind-a.ts', 'answer = 0', 'answer = 1'),
      edit('src/rewind-b.ts', '"zero"', '"two"'),
      edit('src/rewind-a.ts', 'answer = 1', 'answer = 3'),
      { text: 'Three steps done.' },
    ]);
    const taskText = task('12', 'change the answer and the label');
    const prompt = `@gateway /agent ${taskText}`;

    await s.step(
      'three-steps',
      `"${prompt}": three steps, each a checkpoint with "Review Step" and "Restore to Here"; the summary offers the review`,
      async () => {
        await newChat(ctx);
        await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
        await ask(ctx, prompt);
        // Approvals stay "ask" (the default): each edit is approved in the chat.
        for (let n = 1; n <= 3; n++) await (await waitForChatButton(ctx, 'Approve', n, 60_000)).click({ timeout: 10_000 });
        const response = await waitForResponse(ctx, taskText, /Session done/, 60_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        for (const label of ['Step 1: src/rewind-a.ts', 'Step 2: src/rewind-b.ts', 'Step 3: src/rewind-a.ts']) {
          s.check(response.text.includes(`Checkpoint: ${label}`), `the chat shows the checkpoint "${label}" ("${response.text.slice(0, 500)}")`);
        }
        s.check((await chatButton(ctx, 'Restore to Here').count()) === 3, 'a "Restore to Here" button after each step');
        s.check((await chatButton(ctx, 'Review Step').count()) === 3, 'a "Review Step" button after each step');
        // One primary action (Review, in bold) and the restores, all links; none to step 3 (the present state).
        for (const title of ['Restore to Step 2', 'Restore to Step 1']) await chatLink(ctx, title).waitFor({ state: 'visible', timeout: 30_000 });
        s.check((await chatLink(ctx, 'Restore to Step 3').count()) === 0, 'no "Restore to Step 3": that is the present state');
        await chatLink(ctx, 'Review Session Changes').waitFor({ state: 'visible', timeout: 30_000 });
        s.check((await waitForDisk(fileA, (t) => t === 'export const answer = 3;\n', 'step 3 on disk')) !== undefined, 'rewind-a.ts holds step 3');
      },
    );

    await s.step('review', '"Review Session Changes": one multi-file diff shows both files against their state before the session', async () => {
      await chatLink(ctx, 'Review Session Changes').click({ timeout: 10_000 });
      const tab = ctx.page.locator('.part.editor .tabs-container .tab').filter({ hasText: 'Session changes' }).first();
      await tab.waitFor({ state: 'visible', timeout: 60_000 });
      const editor = ctx.page.locator('.part.editor .editor-group-container.active').first();
      await ctx.page.waitForFunction(
        `(() => { const t = document.querySelector('.part.editor .editor-group-container.active')?.innerText || ''; return t.includes('rewind-a.ts') && t.includes('rewind-b.ts'); })()`,
        undefined,
        { timeout: 60_000, polling: 200 },
      );
      const text = (await editor.innerText()).replace(/\u00a0/g, ' ');
      s.check(/answer = 3/.test(text) && /answer = 0/.test(text), `the diff of rewind-a.ts shows 0 → 3 (${JSON.stringify(text.slice(0, 400))})`);
      s.check(/"two"/.test(text) && /"zero"/.test(text), `the diff of rewind-b.ts shows "zero" → "two" (${JSON.stringify(text.slice(0, 400))})`);
    });

    let dialog!: Locator;
    await s.step(
      'restore-asked',
      'the user edits rewind-b.ts; "Restore to Here" on step 1: a modal names rewind-b.ts and offers "Keep My Changes" or "Overwrite Them"',
      async () => {
        writeFileSync(fileB, 'export const label = "two"; // my own edit\n');
        // The chat folds a finished turn's steps (and their own buttons) into "Completed N steps"; the summary repeats them.
        await chatLink(ctx, 'Restore to Step 1').click({ timeout: 10_000 });
        const found = await waitForDialog(ctx, 'Restore the session to step 1?');
        dialog = found.dialog;
        s.check(found.text.includes('You changed src/rewind-b.ts since the agent did'), `the dialog names the user's file ("${found.text}")`);
        s.check(/Files put back: src\/rewind-a\.ts, src\/rewind-b\.ts/.test(found.text), `the dialog lists the files put back ("${found.text}")`);
        s.check(
          found.buttons.includes('Keep My Changes') && found.buttons.includes('Overwrite Them'),
          `the dialog offers Keep My Changes and Overwrite Them (${JSON.stringify(found.buttons)})`,
        );
      },
    );

    await s.step(
      'restored',
      '"Keep My Changes": rewind-a.ts is back at step 1, the user\'s rewind-b.ts is kept; the Sessions view lists the checkpoints',
      async () => {
        await clickDialogButton(dialog, 'Keep My Changes');
        await waitForDisk(fileA, (t) => t === 'export const answer = 1;\n', 'rewind-a.ts restored to step 1');
        const toast = await waitForToast(ctx, 'Restored to step 1');
        s.check(/Kept your changes in src\/rewind-b\.ts/.test(toast), `the notice says the user's file was kept ("${toast}")`);
        s.check(/Undo Restore/.test(toast), `the notice offers Undo Restore ("${toast}")`);
        await waitForDisk(fileB, (t) => t === 'export const label = "two"; // my own edit\n', "the user's edit kept");
        await showSessionsView(ctx);
        const rows = ctx.page.locator(`${SESSIONS_PANE} .monaco-list-row`);
        // The session row shows its checkpoints when expanded (a row first listed without any stays folded).
        const session = rows.filter({ hasText: taskText }).first();
        await session.waitFor({ state: 'visible', timeout: 60_000 });
        if ((await session.getAttribute('aria-expanded')) === 'false') await session.locator('.monaco-tl-twistie').click({ timeout: 10_000 });
        await rows.filter({ hasText: 'Before restoring to step 1' }).first().waitFor({ state: 'visible', timeout: 60_000 });
        const listed = (await rows.allInnerTexts()).map((r) => r.replace(/\s+/g, ' ').trim());
        s.check(
          ['Step 1: src/rewind-a.ts', 'Step 2: src/rewind-b.ts', 'Step 3: src/rewind-a.ts'].every((label) => listed.some((r) => r.includes(label))),
          `the Sessions view lists the three checkpoints under the session (${JSON.stringify(listed)})`,
        );
      },
    );

    const followUp = 'now make the answer ten';
    await s.step('continued', `"@gateway /agent ${followUp}" in the same chat: the chain goes on from step 1's response`, async () => {
      const before = await chainIds(ctx);
      const step1Response = before[1];
      await scriptAgent(ctx, [edit('src/rewind-a.ts', 'answer = 1', 'answer = 10'), { text: 'Continued from step 1.' }]);
      await ask(ctx, `@gateway /agent ${followUp}`);
      // The restore's own turn (@gateway /session) can leave the first turn's folded buttons out of the list: the newest Approve is this one's.
      await waitForChatButton(ctx, 'Approve', 1, 60_000);
      await chatButton(ctx, 'Approve').last().click({ timeout: 10_000 });
      const response = await waitForResponse(ctx, followUp, /Session done/, 60_000, true);
      s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
      await waitForDisk(fileA, (t) => t === 'export const answer = 10;\n', 'the continued edit');
      const after = await chainIds(ctx);
      s.check(
        step1Response !== undefined && after[0] === step1Response,
        `the first request after the restore continues from step 1's response ${step1Response} (it sent ${after[0]})`,
      );
      s.check(after.length === 2, `two requests for the two scripted turns, no replay of a lost chain (saw ${after.length})`);
    });

    await s.step('undo', '"Gateway: Undo Checkpoint Restore": rewind-a.ts is back at step 3, the user\'s rewind-b.ts still kept', async () => {
      await ctx.wb.clearNotifications().catch(() => undefined);
      await ctx.wb.runCommand('Gateway: Undo Checkpoint Restore', { timeoutMs: 30_000 });
      const row = ctx.wb.quickPickRow(taskText);
      await row.waitFor({ state: 'visible', timeout: 15_000 });
      await row.click({ timeout: 10_000 });
      await ctx.wb.waitForQuickInputClosed();
      // Nothing of the user's changed since and no command ran: the undo asks no second question.
      await waitForDisk(fileA, (t) => t === 'export const answer = 3;\n', 'rewind-a.ts back at step 3');
      await waitForToast(ctx, 'Restore undone');
      await waitForDisk(fileB, (t) => t === 'export const label = "two"; // my own edit\n', "the user's edit still there");
      const added = readdirSync(ctx.workspace, { recursive: true })
        .map(String)
        .filter((entry) => /gw-restore|checkpoint|^\.git$/.test(entry));
      s.check(added.length === 0, `the checkpoints added nothing to the workspace (found ${JSON.stringify(added)})`);
    });

    await s.step(
      'undo-stale',
      '"Gateway: Restore Agent Checkpoint…" to "Before restoring to step 1" again (as an old Undo Restore link would): it says the restore was already undone and changes nothing',
      async () => {
        await ctx.wb.clearNotifications().catch(() => undefined);
        await ctx.wb.runCommand('Gateway: Restore Agent Checkpoint…', { timeoutMs: 30_000 });
        const session = ctx.wb.quickPickRow(taskText);
        await session.waitFor({ state: 'visible', timeout: 15_000 });
        await session.click({ timeout: 10_000 });
        const before = ctx.wb.quickPickRow('Before restoring to step 1');
        await before.waitFor({ state: 'visible', timeout: 15_000 });
        await before.click({ timeout: 10_000 });
        await ctx.wb.waitForQuickInputClosed();
        const toast = await waitForToast(ctx, 'already undone');
        s.check(/nothing was changed/.test(toast), `the notice says nothing changed ("${toast}")`);
        await waitForDisk(fileA, (t) => t === 'export const answer = 3;\n', 'rewind-a.ts still at step 3');
      },
    );

    await s.step(
      'delete',
      '"Gateway: Delete Agent Session…": a modal names the session and its checkpoints; after "Delete" its folder is gone, the view no longer lists it, the files stay',
      async () => {
        const folders = storageFolders(ctx.server.runDir);
        s.check(folders !== undefined, `the extension's agent-checkpoints folder is under ${ctx.server.runDir}`);
        const id = folders && sessionIdByTitle(folders.sessions, taskText);
        s.check(id !== undefined && existsSync(path.join(folders!.checkpoints, id)), `the session's checkpoint folder is there before (${id})`);
        await ctx.wb.runCommand('Gateway: Delete Agent Session…', { timeoutMs: 30_000 });
        const row = ctx.wb.quickPickRow(taskText);
        await row.waitFor({ state: 'visible', timeout: 15_000 }).catch(async (error: unknown) => {
          const toasts = await ctx.page.locator(TOASTS).allInnerTexts();
          throw new Error(`${String(error)}; quick pick rows ${JSON.stringify(await ctx.wb.quickPickRows())}; notifications ${JSON.stringify(toasts)}`);
        });
        await row.click({ timeout: 10_000 });
        await ctx.wb.waitForQuickInputClosed();
        const found = await waitForDialog(ctx, 'Delete the agent session');
        s.check(found.text.includes(taskText), `the dialog names the session ("${found.text}")`);
        s.check(
          /all its checkpoints/.test(found.text) && /changes it made to your files stay/.test(found.text),
          `the dialog says what goes and what stays ("${found.text}")`,
        );
        await clickDialogButton(found.dialog, 'Delete');
        // The delete removes the saved session, renames the checkpoint folder aside (".retired-…")
        // and then removes that copy file by file: the end state is awaited, not the first step of it.
        const left = () => [
          ...readdirSync(folders!.checkpoints).filter((name) => name.startsWith(id!)),
          ...(existsSync(path.join(folders!.sessions, `${id}.json`)) ? [`${id}.json`] : []),
        ];
        const deadline = Date.now() + 60_000;
        while (left().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
        s.check(!existsSync(path.join(folders!.checkpoints, id!)), `the checkpoint folder ${id} is gone`);
        s.check(!existsSync(path.join(folders!.sessions, `${id}.json`)), `the saved session ${id}.json is gone`);
        s.check(left().length === 0, `nothing of it is left in the checkpoint folder, no retired copy either (left: ${JSON.stringify(left())})`);
        await showSessionsView(ctx);
        await ctx.page.waitForFunction(
          `(() => !Array.from(document.querySelectorAll('${SESSIONS_PANE} .monaco-list-row')).some((r) => r.innerText.includes(${JSON.stringify(taskText)})))()`,
          undefined,
          { timeout: 60_000, polling: 200 },
        );
        s.check(readFileSync(fileA, 'utf8') === 'export const answer = 3;\n', "the session's change to rewind-a.ts stays");
      },
    );
  },
};
