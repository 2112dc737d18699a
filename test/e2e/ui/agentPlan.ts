// The agent's plan as a person sees it: `/agent` in the Chat view, the scripted model keeps
// a plan with update_plan, and each change shows as a checklist in the response.
import type { Scenario } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { scriptAgent } from './agentActions';

const CHAT = '.interactive-session';

const steps = (first: string, second: string, third: string) => [
  { step: 'Read the greeting', status: first },
  { step: 'Suggest a friendlier one', status: second },
  { step: 'Summarise', status: third },
];

let attempt = 0;

export const agentPlanScenario: Scenario = {
  id: 'agent-plan',
  title: '/agent keeps a plan: each update_plan shows as a checklist in the chat',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    await scriptAgent(ctx, [
      { toolCalls: [{ name: 'update_plan', arguments: { steps: steps('in_progress', 'pending', 'pending') } }] },
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }] },
      { toolCalls: [{ name: 'update_plan', arguments: { steps: steps('done', 'done', 'in_progress') } }] },
      { text: 'Plan followed: "Hi there" would be friendlier.' },
    ]);
    attempt++;
    const shown = `plan a friendlier greeting${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
    await s.step(
      'plan-shown',
      `"@gateway /agent ${shown}": the plan shows as a checklist, twice (started, then updated), and the session finishes`,
      async () => {
        await newChat(ctx);
        await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
        await ask(ctx, `@gateway /agent ${shown}`);
        const response = await waitForResponse(ctx, shown, /Session done/, 30_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        const plans = response.text.split('Plan').length - 1;
        s.check(plans >= 2, `the plan is shown at each change (${plans} times in "${response.text.slice(0, 400)}")`);
        s.check(
          /Read the greeting[\s\S]*Suggest a friendlier one[\s\S]*Summarise/.test(response.text),
          `the steps are listed in order ("${response.text.slice(0, 400)}")`,
        );
        const checked = await ctx.page.locator(`${CHAT} .interactive-response input[type="checkbox"]:checked, ${CHAT} .interactive-response li`).count();
        s.check(checked >= 6, `the checklist items are rendered (${checked})`);
      },
    );
  },
};
