// Issue 39, item 5, as a person meets it: Stop pressed while an answer streams. VS Code draws nothing of a stopped
// turn but its followups (not even the result's message), so the followup says it: "Stopped before the end · Retry"
// under a `@gateway` answer, "Stopped · Continue the session" under an agent turn — which finishes the session.
// Before, the text ended mid-word with no marker.
import type { Scenario, UiContext } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, responseTo, waitForResponse } from './chatActions';
import { scriptTurns } from './agentActions';

const CHAT = '.interactive-session';
/** A long answer, slowly streamed: Stop lands in its middle. */
const SLOW = { text: 'counting slowly one two three four five six seven eight nine ten ', repeat: 40, delayMs: 120 };

/** Presses the chat's Stop (the input's toolbar shows it while a request runs), once the answer has begun. */
async function stopOnceStreaming(ctx: UiContext, prompt: string, begun: RegExp): Promise<void> {
  await waitForResponse(ctx, prompt, begun, 60_000);
  const input = `${CHAT} .interactive-input-part`;
  const stop = ctx.page
    .locator([`${input} .codicon-stop-circle`, `${input} .codicon-debug-stop`, `${input} [aria-label^="Cancel"]`, `${input} [aria-label^="Stop"]`].join(', '))
    .first();
  await stop.click({ timeout: 10_000 });
}

/** A followup (VS Code draws it as a link or button under the last answer) whose text matches `label`. */
function followupLocator(ctx: UiContext, label: RegExp) {
  return ctx.page.locator(`${CHAT} .monaco-button, ${CHAT} a, ${CHAT} [role="button"]`).filter({ hasText: label }).last();
}

async function followupNamed(ctx: UiContext, label: RegExp): Promise<boolean> {
  return followupLocator(ctx, label)
    .waitFor({ state: 'visible', timeout: 15_000 })
    .then(
      () => true,
      () => false,
    );
}

export const stoppedScenario: Scenario = {
  id: 'i39-stopped',
  title: "Stop while an answer streams: the @gateway answer's followup says it stopped and offers Retry; a stopped session's says so and Continue finishes it",
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    const question = '@gateway count to a thousand slowly';
    await scriptTurns(ctx, [{ ...SLOW, endpoint: 'chat' }]);
    await s.step('answer-stopped', `"${question}", Stop while it streams: the followup under the answer says "Stopped before the end · Retry"`, async () => {
      await newChat(ctx);
      await ask(ctx, question);
      await stopOnceStreaming(ctx, 'count to a thousand slowly', /counting slowly one two/);
      // VS Code draws nothing of a stopped turn but its followups: theirs is the stopped line.
      const followup = await followupNamed(ctx, /Stopped before the end · Retry/);
      s.check(followup, 'the followup under the answer says it stopped and offers Retry');
      await s.crop('chat', CHAT);
      const response = await responseTo(ctx, 'count to a thousand slowly');
      s.check(
        response !== undefined && !/(counting slowly one two three four five six seven eight nine ten ){40}/.test(response.text),
        'the answer was cut, not streamed to its end',
      );
    });

    const task = 'explain the greeting slowly';
    await scriptTurns(ctx, [
      { ...SLOW, toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }], model: 'gw-code', endpoint: 'responses' },
      { text: 'The greeting is explained.', model: 'gw-code', endpoint: 'responses' },
    ]);
    await s.step('session-stopped', `"@gateway /agent ${task}", Stop while it streams: the followup says "Stopped · Continue the session"`, async () => {
      await newChat(ctx);
      await ask(ctx, `@gateway /agent ${task}`);
      await stopOnceStreaming(ctx, task, /counting slowly one two/);
      s.check(await followupNamed(ctx, /Stopped · Continue the session/), 'the followup says the session stopped and offers Continue');
      const seen = await responseTo(ctx, task);
      s.check(seen !== undefined && seen.errors.length === 0, `no bare error (${JSON.stringify(seen?.errors)})`);
      await s.crop('chat', CHAT);
    });

    await s.step('session-continued', 'Continue: the session goes on from where it stopped and is done', async () => {
      await followupLocator(ctx, /Stopped · Continue the session/).click({ timeout: 10_000 });
      const response = await waitForResponse(ctx, 'Continue', /Session done/, 60_000, true);
      s.check(response.errors.length === 0, `no error (${JSON.stringify(response.errors)})`);
      s.check(/The greeting is explained\./.test(response.text), `the session's last answer shows (${JSON.stringify(response.text.slice(-300))})`);
    });
  },
};
