// A subagent as a person sees it: `/agent` with gateway.agent.subagents on, the scripted model hands a
// search to run_subagent; the chat shows the subagent nested under the call (a quoted "Subagent:" line with
// its steps and the start of its answer, folded with the turn's steps once it ends), and its button opens
// the session's transcript with the subagent's steps.
import type { Scenario } from './harness';
import { ensureKey, ensureUserSettings } from './gateway';
import { ask, newChat, waitForChatButton, waitForResponse } from './chatActions';

const CHAT = '.interactive-session';
const RESPONSE = `${CHAT} .interactive-response`;
const SIDE_TASK = 'Find where the function hello is defined; answer with path:line.';
const ANSWER = 'hello is defined in src/hello.ts:1 and takes a name.';

let attempt = 0;

export const agentSubagentScenario: Scenario = {
  id: 'agent-subagent',
  title: '/agent hands a search to a subagent: nested in the chat, its transcript a click away',
  async run(ctx, s) {
    await ensureUserSettings(ctx, { 'gateway.agent.subagents': true });
    await ensureKey(ctx, 'demo-key');
    ctx.emulator.reset();
    ctx.emulator.script(
      'demo-key',
      [
        { toolCalls: [{ name: 'run_subagent', arguments: { task: SIDE_TASK } }] },
        { toolCalls: [{ name: 'search_text', arguments: { pattern: 'function hello' } }] },
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }] },
        { text: ANSWER },
        { text: 'The subagent found it: `hello` is in src/hello.ts.', requires: { text: ANSWER, otherwise: { text: 'No answer from the subagent.' } } },
      ].map((turn) => ({ ...turn, model: 'gw-code', endpoint: 'responses' as const })),
    );
    attempt++;
    const task = `where is hello defined${attempt > 1 ? ` (attempt ${attempt})` : ''}`;

    await s.step('session-done', `"@gateway /agent ${task}": the parent answers from the subagent's answer; the turn's steps fold away`, async () => {
      await newChat(ctx);
      await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
      await ask(ctx, `@gateway /agent ${task}`);
      const response = await waitForResponse(ctx, task, /Session done/, 60_000, true);
      s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
      s.check(response.text.includes('The subagent found it'), `the parent model read the subagent's answer ("${response.text.slice(0, 400)}")`);
    });

    await s.step(
      'subagent-nested',
      'unfolded: the "Subagent:" line with its steps and tokens, its answer quoted under it, and its transcript button',
      async () => {
        const folded = ctx.page.locator(`${RESPONSE} details.completed-response-disclosure:not([open]) > summary`).last();
        if (await folded.isVisible()) await folded.click({ timeout: 10_000 });
        const quote = ctx.page.locator(`${RESPONSE} blockquote`).filter({ hasText: 'Subagent:' }).last();
        await quote.waitFor({ state: 'visible', timeout: 10_000 });
        const text = (await quote.innerText()).replace(/\s+/g, ' ');
        s.check(text.includes(SIDE_TASK), `the line names the task ("${text}")`);
        s.check(/2 steps · [\d,]+ tokens/.test(text), `the line says its steps and tokens ("${text}")`);
        s.check(text.includes(ANSWER), `its answer is nested under it ("${text}")`);
        await waitForChatButton(ctx, 'Open Subagent Transcript', 1, 10_000);
        await s.crop('chat', CHAT);
      },
    );

    await s.step('subagent-transcript', "the button opens the session's transcript: the subagent nested under its call, with its steps", async () => {
      await (await waitForChatButton(ctx, 'Open Subagent Transcript', 1, 10_000)).click({ timeout: 10_000 });
      await ctx.page
        .locator('.editor-group-container .monaco-editor .view-lines')
        .filter({ hasText: 'Subagent:' })
        .first()
        .waitFor({ state: 'visible', timeout: 20_000 });
      const text = (await ctx.page.locator('.editor-group-container.active .monaco-editor .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
      s.check(text.includes('2 steps · 3 requests'), `the transcript says what it used (${JSON.stringify(text.slice(0, 600))})`);
      s.check(text.includes('Search for function hello') && text.includes('Read src/hello.ts'), `its steps are listed (${JSON.stringify(text.slice(0, 600))})`);
    });
  },
};
