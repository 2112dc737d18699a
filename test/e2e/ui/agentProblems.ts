// The agent sees what VS Code sees, and so does the person (issue 23): `/agent` in the Chat view,
// the scripted model's edit has the wrong indentation (spaces where the file has tabs) and a type
// error; once approved it lands in the file's tabs, and the chat shows, under the changed file,
// the error TypeScript now reports, as the tool result gave it to the model.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, waitForChatButton, waitForResponse } from './chatActions';
import { quickOpen, scriptAgent, task } from './agentActions';

const CHAT = '.interactive-session';
const COUNTER = 'export class Counter {\n\tprivate count = 0;\n\n\tincrement(): number {\n\t\tthis.count += 1;\n\t\treturn this.count;\n\t}\n}\n';
const EDITED = COUNTER.replace('return this.count;', 'return `count: ${this.count}`;');
// A file with a type error: its squiggle in the editor says TypeScript checks the workspace's files.
const WARM = "export const warm: number = 'not yet';\n";

/** Opens warm.ts and waits for TypeScript's squiggle under its error: tsserver has loaded the project. */
async function typescriptChecking(ctx: UiContext): Promise<void> {
  writeFileSync(path.join(ctx.workspace, 'src', 'warm.ts'), WARM);
  await quickOpen(ctx, 'warm.ts', 'warm.ts');
  await ctx.page.locator('.part.editor .editor-group-container.active .monaco-editor .squiggly-error').first().waitFor({ state: 'attached', timeout: 90_000 });
  await ctx.wb.runCommand('View: Close All Editors');
  rmSync(path.join(ctx.workspace, 'src', 'warm.ts'), { force: true });
}

type WheelPage = UiContext['page'] & { mouse: { move(x: number, y: number): Promise<void>; wheel(dx: number, dy: number): Promise<void> } };

/** Where the chat's deepest element showing `text` is, and the chat's own box (page coordinates). */
const placeOf = (text: string) => `(() => {
  const chat = document.querySelector(${JSON.stringify(CHAT)})?.getBoundingClientRect();
  const hits = [...document.querySelectorAll(${JSON.stringify(`${CHAT} .interactive-response *`)})].filter((el) => el.textContent.includes(${JSON.stringify(text)}));
  const el = hits.find((hit) => ![...hit.children].some((child) => child.textContent.includes(${JSON.stringify(text)})));
  const box = el?.getBoundingClientRect();
  return chat ? { top: box ? box.top : null, chatTop: chat.top, chatBottom: chat.bottom, chatX: chat.left + chat.width / 2 } : null;
})()`;

/**
 * Scrolls the chat with the mouse wheel (its list scrolls only that way) until `text` sits in its upper part;
 * whether it got there. The session's summary comes after the note, and the chat follows the newest text.
 */
async function scrollChatTo(ctx: UiContext, text: string): Promise<boolean> {
  const page = ctx.page as WheelPage;
  for (let i = 0; i < 12; i++) {
    const place = await page.evaluate<{ top: number | null; chatTop: number; chatBottom: number; chatX: number } | null>(placeOf(text));
    if (!place) return false;
    const dy = place.top === null ? -300 : place.top - (place.chatTop + 200);
    if (place.top !== null && Math.abs(dy) < 40) return true;
    await page.mouse.move(place.chatX, place.chatTop + 150);
    await page.mouse.wheel(0, dy);
    const before = place.top;
    await page
      .waitForFunction(`(() => { const p = ${placeOf(text)}; return p && p.top !== ${JSON.stringify(before)}; })()`, undefined, {
        timeout: 2_000,
        polling: 100,
      })
      .catch(() => undefined);
  }
  return false;
}

export const agentProblemsScenario: Scenario = {
  id: 'agent-problems',
  title: "/agent: a mis-indented edit lands in the file's tabs; the type error it brings shows in the chat as the tool result gave it",
  async run(ctx, s) {
    const counter = path.join(ctx.workspace, 'src', 'counter.ts');
    writeFileSync(counter, COUNTER);
    try {
      await ensureKey(ctx, 'demo-key');
      await s.step('typescript-checking', 'src/warm.ts opened: TypeScript underlines its type error (the language service is up)', () =>
        typescriptChecking(ctx),
      );
      await scriptAgent(ctx, [
        {
          toolCalls: [
            {
              name: 'edit_file',
              arguments: {
                path: 'src/counter.ts',
                old_text: '    increment(): number {\n        this.count += 1;\n        return this.count;\n    }',
                new_text: '    increment(): number {\n        this.count += 1;\n        return `count: ${this.count}`;\n    }',
              },
            },
          ],
        },
        { text: 'increment now reports the count; its return type is next.' },
      ]);
      const shown = task('agent-problems', 'make increment report the count');
      await s.step('edit-approval', `"@gateway /agent ${shown}" in a new chat: the edit asks for approval`, async () => {
        await newChat(ctx);
        await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
        await ask(ctx, `@gateway /agent ${shown}`);
        await waitForChatButton(ctx, 'Approve', 1);
      });
      await s.step(
        'problems-in-chat',
        'Approve clicked: the edit lands in tabs, and the chat shows "VS Code now reports 1 new error in src/counter.ts" with the TS2322 line',
        async () => {
          await (await waitForChatButton(ctx, 'Approve', 1)).click({ timeout: 10_000 });
          const response = await waitForResponse(ctx, shown, /Session done/, 60_000, true);
          s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
          s.check(
            existsSync(counter) && readFileSync(counter, 'utf8') === EDITED,
            `the edit landed in the file's tabs: ${JSON.stringify(readFileSync(counter, 'utf8'))}`,
          );
          s.check(
            /VS Code now reports 1 new error in src\/counter\.ts: src\/counter\.ts:6:\d+: error TS2322 Type 'string' is not assignable to type 'number'\./.test(
              response.text,
            ),
            `the chat shows the new error as the model got it ("${response.text.slice(0, 600)}")`,
          );
          s.check(await scrollChatTo(ctx, 'TS2322'), 'the problems note is in view for the screenshot');
        },
      );
    } finally {
      await ctx.wb.runCommand('View: Close All Editors').catch(() => undefined);
      rmSync(counter, { force: true });
      rmSync(path.join(ctx.workspace, 'src', 'warm.ts'), { force: true });
    }
  },
};
