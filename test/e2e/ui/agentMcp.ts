// An MCP server with the agent, as a person sees it: the workspace's .vscode/mcp.json names the
// stdio server of test/e2e/fixtures/mcp-probe; "Gateway: Choose Agent Tools…" starts it and lists
// VS Code's tools grouped by source (VS Code, each extension, each MCP server) with descriptions;
// the user picks two of the server's tools; `/agent` says which MCP tools the session has, and the
// call of a tool that is not read-only shows VS Code's own confirmation in the chat (the request's
// token), asked once: the agent adds no approval of its own. Allow, and the model gets the result.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario, UiContext } from './harness';
import { emulatorRequests, ensureKey } from './gateway';
import { ask, newChat, responseTo, waitForResponse } from './chatActions';
import { scriptAgent } from './agentActions';

const CHAT = '.interactive-session';
const ROWS = '.quick-input-widget .quick-input-list .monaco-list-row';
const NOTE = 'mcp_probe_note';
const CONFIRMATION = `${CHAT} .chat-confirmation-widget-container`;

function writeMcpJson(workspace: string): string {
  const file = path.join(workspace, '.vscode', 'mcp.json');
  mkdirSync(path.dirname(file), { recursive: true });
  const server = path.resolve('test', 'e2e', 'fixtures', 'mcp-probe', 'server.mjs');
  writeFileSync(file, JSON.stringify({ servers: { probe: { type: 'stdio', command: process.execPath, args: [server] } } }, null, 2));
  return file;
}

async function listText(ctx: UiContext): Promise<string> {
  return (await ctx.page.locator('.quick-input-widget .quick-input-list').innerText({ timeout: 5_000 })).replace(/\s+/g, ' ');
}

/** The picker row of a probe tool: its description is the tool's full id. */
function row(ctx: UiContext, tool: string) {
  return ctx.page.locator(ROWS).filter({ hasText: `mcp_probe_${tool}` });
}

/** VS Code's own "Allow in this Session" (1.139; "Allow" or "Continue" elsewhere) of a tool confirmation in the chat. */
function allowButton(ctx: UiContext) {
  return ctx.page
    .locator(`${CONFIRMATION} .monaco-button`)
    .filter({ hasText: /^\s*(Allow|Allow in this Session|Continue)\s*$/ })
    .first();
}

let attempt = 0;

export const agentMcpScenario: Scenario = {
  id: 'agent-mcp',
  title: 'An MCP server of .vscode/mcp.json: started and grouped by Choose Agent Tools, its confirmation in the chat, asked once',
  async run(ctx, s) {
    await ensureKey(ctx, 'demo-key');
    // Written just before "Choose Agent Tools…" (as in the whole suite, where the key is already set): VS Code
    // learns of the server a moment after the file is there, and the listing must wait for it (it once did not).
    const mcpJson = writeMcpJson(ctx.workspace);
    try {
      await s.step('tools-grouped', '"Gateway: Choose Agent Tools…" starts the probe server and lists tools with descriptions, "VS Code" first', async () => {
        await ctx.wb.runCommand('Gateway: Choose Agent Tools…');
        await ctx.page.locator(ROWS).filter({ hasText: 'run_in_terminal' }).first().waitFor({ state: 'visible', timeout: 45_000 });
        const list = await listText(ctx);
        s.check(/VS Code/.test(list), `VS Code's own tools are a group (${list.slice(0, 300)})`);
        s.check(/persistent bash terminal/.test(list), `with their descriptions (${list.slice(0, 300)})`);
        s.check(!/inline_chat_exit/.test(list), "without the tools of VS Code's own chat");
        await s.crop('picker', '.quick-input-widget');
      });
      await s.step('tools-mcp-group', 'Down, End: the last group, "MCP server: probe", with its tools and their descriptions', async () => {
        // A filter hides the separators, so the list is scrolled to its end instead (the MCP servers come last).
        await ctx.page.keyboard.press('ArrowDown');
        await ctx.page.keyboard.press('End');
        await row(ctx, 'note').first().waitFor({ state: 'visible', timeout: 15_000 });
        const list = await listText(ctx);
        s.check(/MCP server: probe/.test(list), `the server's group is shown (${list.slice(0, 300)})`);
        s.check(/Records a short note/.test(list), `with the server's descriptions (${list.slice(0, 300)})`);
        await s.crop('picker', '.quick-input-widget');
      });
      await s.step('tools-picked', 'typing "mcp_probe" filters by the full id; note and echo picked ("2 Selected"), OK', async () => {
        await ctx.page.locator('.quick-input-widget .quick-input-box input').fill('mcp_probe');
        for (const tool of ['note', 'echo']) await row(ctx, tool).first().click({ timeout: 10_000 });
        const count = await ctx.page.locator('.quick-input-widget .quick-input-count').innerText({ timeout: 5_000 });
        s.check(/2/.test(count), `two are picked (${count})`);
        await ctx.page.keyboard.press('Enter');
        await ctx.page.waitForSelector('.quick-input-widget', { state: 'hidden', timeout: 10_000 });
      });

      await scriptAgent(ctx, [{ toolCalls: [{ name: NOTE, arguments: { note: 'lunch at noon' } }] }, { text: 'Noted through the probe server.' }]);
      attempt++;
      const task = `note lunch with the probe server${attempt > 1 ? ` (attempt ${attempt})` : ''}`;
      await s.step(
        'mcp-confirmation',
        `"@gateway /agent ${task}": the session names its MCP tools; VS Code's own confirmation for note shows in the chat`,
        async () => {
          await newChat(ctx);
          await ask(ctx, `@gateway /agent ${task}`);
          const response = await waitForResponse(ctx, task, /MCP tools for this session: probe/, 45_000, true);
          s.check(/echo.*note|note.*echo/.test(response.text), `both tools are named (${response.text.slice(0, 300)})`);
          await allowButton(ctx).waitFor({ state: 'visible', timeout: 30_000 });
          const widget = (await ctx.page.locator(CONFIRMATION).last().innerText()).replace(/\s+/g, ' ');
          s.check(/note/i.test(widget), `the confirmation names the tool (${widget.slice(0, 200)})`);
          const ours = (await responseTo(ctx, task))?.buttons.filter((b) => /^Approve$/.test(b)) ?? [];
          s.check(ours.length === 0, `no Approve button of the agent's own beside VS Code's (${ours.length})`);
          await s.crop('chat', CHAT);
        },
      );
      await s.step('mcp-result', "Allow clicked: the session finishes and the model received the server's answer", async () => {
        await allowButton(ctx).click({ timeout: 10_000 });
        const response = await waitForResponse(ctx, task, /Session done/, 45_000, true);
        s.check(response.errors.length === 0, `no error (${JSON.stringify(response.errors)})`);
        const outputs = (await emulatorRequests(ctx))
          .filter((r) => r.path === '/v1/responses')
          .flatMap((r) => {
            const input = (r.body as { input?: unknown } | undefined)?.input;
            return Array.isArray(input) ? (input as { output?: unknown }[]) : [];
          })
          .map((item) => item.output)
          .filter((output: unknown): output is string => typeof output === 'string');
        s.check(outputs.includes('probe noted: lunch at noon'), `the model received the result (${JSON.stringify(outputs).slice(0, 300)})`);
      });
    } finally {
      rmSync(mcpJson, { force: true });
    }
  },
};
