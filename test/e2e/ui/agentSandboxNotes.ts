// Issue 27, item 7: under `auto` the chat says where a command ran: "exited with 0 in the sandbox (no
// network)", and for a command the sandbox made fail, why ("failed because of the sandbox", with the
// evidence and what to do). Two scripted commands: one that works, one that writes outside (/usr).
import type { Scenario } from './harness';
import { ask, ensureKey, ensureUserSettings, newChat, waitForResponse } from './gateway';
import { scriptAgent } from './agent';

const CHAT = '.interactive-session';
const RESPONSE = `${CHAT} .interactive-response`;

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
      await s.step('sandbox-notes', `"@gateway /agent ${task}" under auto: "in the sandbox" after each command, and why the second failed`, async () => {
        await newChat(ctx);
        await ask(ctx, `@gateway /agent ${task}`);
        await waitForResponse(ctx, task, /Session done/, 60_000, true);
        // The steps fold away once the turn ends: opened to read (and show) the notes.
        const folded = ctx.page.locator(`${RESPONSE} details.completed-response-disclosure:not([open]) > summary`).last();
        if (await folded.isVisible()) await folded.click({ timeout: 10_000 });
        const response = await waitForResponse(ctx, task, /failed because of the sandbox/, 10_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        s.check(/exited with 0 in the sandbox/.test(response.text), `the first command ran in the sandbox ("${response.text.slice(0, 600)}")`);
        s.check(/Read-only file system/.test(response.text), `the second's note names the evidence ("${response.text.slice(0, 600)}")`);
        await s.crop('chat', CHAT);
      });
    } finally {
      await ensureUserSettings(ctx, { 'gateway.agent.approval': undefined });
    }
  },
};
