// Issue 27, item 7: under `auto` the chat says where a command ran: "exited with 0 in the sandbox (no
// network)", and for a command the sandbox made fail, why ("failed because of the sandbox", with the
// evidence and what to do). Two scripted commands: one that works, one that writes outside (/usr).
import type { Scenario } from './harness';
import { ensureKey, ensureUserSettings } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { scriptAgent } from './agentActions';

const CHAT = '.interactive-session';

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
      await s.step(
        'sandbox-notes',
        `"@gateway /agent ${task}" under auto: the failed command "exited with 1 in the sandbox", and why: the sandbox`,
        async () => {
          await newChat(ctx);
          await ask(ctx, `@gateway /agent ${task}`);
          // The notes stay outside the steps that fold away when the turn ends: the last command's is in view with the summary.
          const response = await waitForResponse(ctx, task, /Session done/, 60_000, true);
          s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
          s.check(/exited with 1 in the sandbox \(no network\)/.test(response.text), `the command ran in the sandbox ("${response.text.slice(0, 600)}")`);
          s.check(
            /failed because of the sandbox \("Read-only file system"\)/.test(response.text),
            `the note says the sandbox made it fail, with the evidence ("${response.text.slice(0, 600)}")`,
          );
          await s.crop('chat', CHAT);
        },
      );
    } finally {
      await ensureUserSettings(ctx, { 'gateway.agent.approval': undefined });
    }
  },
};
