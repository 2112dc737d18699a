// A custom agent and a prompt file as a person sees them: `@gateway /agent @ui-reviewer …` starts a session
// that says which tools it has (and which names it left out), runs, and names its agent in the summary;
// `@gateway /prompt ui-hello who=Ada` answers the prompt file with its input filled in. Issue 38: an agent whose
// `name` has spaces (as Copilot's guide writes it) is offered by the palette's pick and started from it, and
// started from the chat by that name; a Copilot instructions file whose applyTo matches the file the session
// reads is applied and listed in the summary.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { scriptTurns, waitForOutput } from './agentActions';
import { readNotification } from './notifications';

const CHAT = '.interactive-session';
const AGENT = "---\ndescription: Reviews without editing\ntools: ['read', 'fetch']\n---\n\nYou only review.\n";
const PROMPT = '---\ndescription: Greets someone\n---\nSay hello to ${input:who} in one line.\n';

const SPACED_NAME = 'UI Principal Architect';
const SPACED_AGENT_PATH = '.github/agents/ui-architect.agent.md';
const SPACED_AGENT = `---\nname: '${SPACED_NAME}'\ndescription: Reviews designs\ntools: ['read', 'search']\n---\n\nYou review designs.\n`;
const INSTRUCTIONS_PATH = '.github/instructions/ui-hello.instructions.md';
const INSTRUCTIONS = "---\napplyTo: 'src/**/*.ts'\n---\nUI-RULE: greet in one line.\n";

function writeSpacedAgent(workspace: string): void {
  mkdirSync(path.join(workspace, '.github', 'instructions'), { recursive: true });
  writeFileSync(path.join(workspace, SPACED_AGENT_PATH), SPACED_AGENT);
  writeFileSync(path.join(workspace, INSTRUCTIONS_PATH), INSTRUCTIONS);
}

/** The architect's session: it reads src/hello.ts (which the instructions file's applyTo matches), then answers. */
const architectTurns = (answer: string) => [
  { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }], model: 'gw-code', endpoint: 'responses' },
  { text: answer, model: 'gw-code', endpoint: 'responses' },
];

function writeFiles(workspace: string): void {
  mkdirSync(path.join(workspace, '.github', 'agents'), { recursive: true });
  mkdirSync(path.join(workspace, '.github', 'prompts'), { recursive: true });
  writeFileSync(path.join(workspace, '.github', 'agents', 'ui-reviewer.agent.md'), AGENT);
  writeFileSync(path.join(workspace, '.github', 'prompts', 'ui-hello.prompt.md'), PROMPT);
}

export const agentCustomScenario: Scenario = {
  id: 'agent-custom',
  title: 'a custom agent (/agent @name) runs with its tools only; a prompt file runs with /prompt',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    writeFiles(ctx.workspace);
    await scriptTurns(ctx, [
      { toolCalls: [{ name: 'read_file', arguments: { path: 'src/hello.ts' } }], model: 'gw-code', endpoint: 'responses' },
      { text: 'The greeting is fine.', model: 'gw-code', endpoint: 'responses' },
    ]);
    const task = 'review src/hello.ts';
    await s.step(
      'agent-session',
      `"@gateway /agent @ui-reviewer ${task}": its tools are named, the left-out one too, and the summary names the agent`,
      async () => {
        await newChat(ctx);
        await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
        await ask(ctx, `@gateway /agent @ui-reviewer ${task}`);
        // Waited for to its last line: the summary streams in parts after "Session done".
        const response = await waitForResponse(ctx, task, /Agent: ui-reviewer[\s\S]*left out: fetch/, 30_000, true);
        s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
        // The start's notes fold away with the steps once the turn ends: the summary says it all again.
        s.check(
          /Agent: ui-reviewer \(\.github\/agents\/ui-reviewer\.agent\.md\), tools read_file, list_files; left out: fetch/.test(response.text),
          `the summary names the agent, its tools and the name left out ("${response.text.slice(-400)}")`,
        );
        await s.crop('chat', CHAT);
      },
    );
    await scriptTurns(ctx, [{ text: 'Hello, Ada!', endpoint: 'chat' }]);
    await s.step('prompt-file', '"@gateway /prompt ui-hello who=Ada": the prompt file is answered with its input filled in', async () => {
      await newChat(ctx);
      await ask(ctx, '@gateway /prompt ui-hello who=Ada');
      const response = await waitForResponse(ctx, 'ui-hello', /Hello, Ada!/, 30_000, true);
      s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
      const sent = ctx.emulator.requests.find((r) => r.path === '/v1/chat/completions');
      s.check(JSON.stringify(sent?.body ?? {}).includes('Say hello to Ada in one line.'), 'the prompt was sent with its input');
    });

    try {
      writeSpacedAgent(ctx.workspace);
      const paletteTask = 'review the greeting as the architect';
      await scriptTurns(ctx, architectTurns('Reviewed from the palette.'));
      await s.step(
        'spaced-agent-pick',
        `F1 → "Gateway: Start Agent Session…": the pick offers @"${SPACED_NAME}" (a name with spaces) beside the standard agent`,
        async () => {
          await ctx.wb.clearNotifications().catch(() => undefined);
          await ctx.wb.runCommand('Gateway: Start Agent Session…');
          await ctx.wb.waitForQuickInput('Gateway: Start Agent Session');
          const rows = await ctx.wb.quickPickRows();
          s.check(
            rows.some((row) => row.includes(`@"${SPACED_NAME}"`) && row.includes(SPACED_AGENT_PATH)),
            `a row @"${SPACED_NAME}" with its file (${JSON.stringify(rows)})`,
          );
          s.check(
            rows.some((row) => row.startsWith('Gateway Agent')),
            `the standard agent is offered too (${JSON.stringify(rows)})`,
          );
        },
      );
      await s.step('spaced-agent-palette', `picked, "${paletteTask}" typed: the session runs as "${SPACED_NAME}" and is done`, async () => {
        await ctx.page.keyboard.type('Principal Architect');
        await ctx.page.keyboard.press('Enter');
        await ctx.wb.waitForQuickInput(/Gateway: Start Agent Session/);
        await ctx.page.keyboard.type(paletteTask);
        await ctx.page.keyboard.press('Enter');
        await ctx.wb.waitForQuickInputClosed();
        const out = await waitForOutput(ctx, [`Agent "${SPACED_NAME}" (${SPACED_AGENT_PATH}): tools`, 'Reviewed from the palette.'], 60_000);
        s.check(out.includes(`Agent "${SPACED_NAME}"`), `the output names the agent (${JSON.stringify(out.slice(0, 400))})`);
        const end = await readNotification(ctx, [`Gateway agent: "${paletteTask}" is done ·`], 60_000);
        s.check(/is done/.test(end.text), `the end is announced (${JSON.stringify(end.text)})`);
        const sent = ctx.emulator.requests.filter((r) => r.path === '/v1/responses');
        s.check(JSON.stringify(sent[0]?.body ?? {}).includes('You review designs.'), "the agent's instructions were sent");
      });

      const chatTask = 'review the greeting by name';
      await scriptTurns(ctx, architectTurns('Reviewed from the chat.'));
      await s.step(
        'spaced-agent-chat',
        `"@gateway /agent @${SPACED_NAME} ${chatTask}": runs as that agent; the instructions file is applied after the read of src/hello.ts and listed`,
        async () => {
          await ctx.wb.clearNotifications().catch(() => undefined);
          await newChat(ctx);
          await ask(ctx, `@gateway /agent @${SPACED_NAME} ${chatTask}`);
          const response = await waitForResponse(ctx, chatTask, /Project instructions:[\s\S]*Agent: UI Principal Architect/, 60_000, true);
          s.check(response.errors.length === 0, `no error in the response (${JSON.stringify(response.errors)})`);
          s.check(
            new RegExp(`Project instructions: ${INSTRUCTIONS_PATH.replace(/[./]/g, '\\$&')}`).test(response.text),
            `the summary lists the instructions file applied ("${response.text.slice(-500)}")`,
          );
          const sent = ctx.emulator.requests.filter((r) => r.path === '/v1/responses');
          s.check(!JSON.stringify(sent[0]?.body ?? {}).includes('UI-RULE'), 'not sent before a matching file was read');
          s.check(JSON.stringify(sent[1]?.body ?? {}).includes('UI-RULE'), 'sent after the read of src/hello.ts');
          await s.crop('chat', CHAT);
        },
      );
    } finally {
      // Later scenarios start sessions from the palette: no agent pick there.
      rmSync(path.join(ctx.workspace, SPACED_AGENT_PATH), { force: true });
      rmSync(path.join(ctx.workspace, '.github', 'instructions'), { recursive: true, force: true });
    }
  },
};
