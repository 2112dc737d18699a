// Issue 23, a command that does not end, as a person sees it: `/agent` in the Chat view asks to run a small
// server "in the background"; once approved it shows in a terminal of its own, "Gateway Agent: … (background)",
// the scripted model reads its output and stops it, and the terminal says it ended.
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, waitForChatButton, waitForResponse } from './chatActions';
import { scriptAgent, task } from './agentActions';

const CHAT = '.interactive-session';
const ROWS = `[...document.querySelectorAll('.part.panel .xterm-rows > div')].map((row) => row.innerText.replace(/\\u00a0/g, ' ').trim())`;

/** A server that says it listens, then that it is alive every 3 s (longer than the wait for quiet output). */
const SERVER =
  `node -e "require('http').createServer((q, s) => s.end('pong')).listen(0, '127.0.0.1', () => console.log('server listening')); ` +
  `setInterval(() => console.log('alive'), 3000)"`;

/** Waits until a row of the shown terminal matches `line` (xterm's DOM renderer). */
async function waitForTerminalRow(ctx: UiContext, line: RegExp, timeoutMs = 30_000): Promise<void> {
  await ctx.page.waitForFunction(`${ROWS}.some((row) => ${line.toString()}.test(row))`, undefined, { timeout: timeoutMs, polling: 200 }).catch(async () => {
    const rows = await ctx.page.evaluate<string[]>(ROWS);
    throw new Error(
      `the terminal never showed a line ${line} within ${timeoutMs / 1000}s; it shows: ${JSON.stringify(rows.filter(Boolean).join(' | ').slice(0, 400))}`,
    );
  });
}

export const agentBackgroundScenario: Scenario = {
  id: 'agent-background',
  title: '/agent runs a server in the background: the approval says so, its own terminal shows it, it is stopped',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'run_command', arguments: { command: SERVER, background: true } }] },
      { toolCalls: [{ name: 'command_output', arguments: { id: 'bg1' } }] },
      { toolCalls: [{ name: 'command_output', arguments: { id: 'bg1', stop: true } }] },
      { text: 'The server started and stayed up; I stopped it.' },
    ]);
    const taskText = task('bg', 'start the server in the background');
    const prompt = `@gateway /agent ${taskText}`;

    await s.step('approval', `"${prompt}" in a new chat: the approval says the command runs in the background`, async () => {
      await newChat(ctx);
      await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
      await ask(ctx, prompt);
      const response = await waitForResponse(ctx, taskText, /Approval needed: run this command in the background/, 30_000, true);
      s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
      s.check(/server listening/.test(response.text), `the approval shows the command whole ("${response.text.slice(0, 400)}")`);
      await waitForChatButton(ctx, 'Approve', 1);
    });

    await s.step('terminal', 'Approve clicked: the terminal "Gateway Agent: … (background)" shows the command and "server listening"', async () => {
      await (await waitForChatButton(ctx, 'Approve', 1)).click({ timeout: 10_000 });
      await waitForTerminalRow(ctx, /^server listening$/);
      await waitForTerminalRow(ctx, /\(in the background\)$/);
      const tabs = await ctx.page
        .locator('.part.panel .terminal-tabs-entry, .part.panel .single-terminal-tab')
        .allInnerTexts()
        .catch(() => []);
      const panel = (await ctx.page.locator('.part.panel').first().innerText({ timeout: 5_000 })).replace(/\s+/g, ' ');
      s.check(
        `${panel} ${tabs.join(' ')}`.includes('(background)'),
        `the terminal is named "… (background)" (${JSON.stringify(tabs.length ? tabs : panel.slice(0, 300))})`,
      );
    });

    await s.step('stopped', 'the model read its output and stopped it: the terminal says it ended; the chat says the session is done', async () => {
      await waitForTerminalRow(ctx, /^alive$/);
      await waitForTerminalRow(ctx, /^\[ended, exit code none\]$/);
      const response = await waitForResponse(ctx, taskText, /Session done/, 60_000, true);
      s.check(/I stopped it\./.test(response.text), `the model's closing text shows ("${response.text.slice(0, 400)}")`);
      s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
    });
  },
};
