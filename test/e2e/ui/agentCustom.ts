// A custom agent and a prompt file as a person sees them: `@gateway /agent @ui-reviewer …` starts a session
// that says which tools it has (and which names it left out), runs, and names its agent in the summary;
// `@gateway /prompt ui-hello who=Ada` answers the prompt file with its input filled in.
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario } from './harness';
import { ensureKey } from './gateway';
import { ask, newChat, waitForResponse } from './chatActions';
import { scriptTurns } from './agentActions';

const CHAT = '.interactive-session';
const AGENT = "---\ndescription: Reviews without editing\ntools: ['read', 'fetch']\n---\n\nYou only review.\n";
const PROMPT = '---\ndescription: Greets someone\n---\nSay hello to ${input:who} in one line.\n';

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
  },
};
