// A workspace's hook as a person meets it: `/agent` in the Chat view in a workspace whose .claude/settings.json
// has a post-edit hook; the chat asks once to run it, showing its command, when it runs and its file; after
// Approve, the agent's write runs the hook and its output reaches the model with the write's result.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import type { Scenario } from './harness';
import { emulatorRequests, ensureKey } from './gateway';
import { ask, newChat, waitForChatButton, waitForResponse } from './chatActions';
import { scriptAgent } from './agentActions';

const CHAT = '.interactive-session';
const HOOK_SCRIPT = [
  'input=$(cat)',
  'file=$(printf "%s" "$input" | sed -n \'s/.*"file_path":"\\([^"]*\\)".*/\\1/p\')',
  'printf \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"ui-hook: checked %s"}}\' "${file##*/}"',
].join('\n');

let attempt = 0;

export const agentHooksScenario: Scenario = {
  id: 'agent-hooks',
  title: "/agent in a workspace with a post-edit hook: approved once in the chat, the hook's output reaches the model",
  async run(ctx, s) {
    attempt++;
    // A retry changes the hook (its command names the attempt), so it asks again: an approval is remembered by content.
    const command = `sh .claude/hooks/ui-post.sh # attempt ${attempt}`;
    const claude = path.join(ctx.workspace, '.claude');
    mkdirSync(path.join(claude, 'hooks'), { recursive: true });
    writeFileSync(path.join(claude, 'hooks', 'ui-post.sh'), HOOK_SCRIPT);
    writeFileSync(
      path.join(claude, 'settings.json'),
      JSON.stringify({ hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command, timeout: 10 }] }] } }, null, 2),
    );
    const file = `hooked-${attempt}.txt`;
    try {
      await ensureKey(ctx, 'demo-key');
      await scriptAgent(ctx, [
        { toolCalls: [{ name: 'write_file', arguments: { path: file, content: 'hooked\n' } }] },
        { text: 'Written; the hook checked it.' },
      ]);
      const shown = `write a hooked file${attempt > 1 ? ` (attempt ${attempt})` : ''}`;

      await s.step('hook-approval', `"@gateway /agent ${shown}": the chat asks to run the workspace's hook, showing its command, event and file`, async () => {
        await newChat(ctx);
        await ctx.page.locator(`${CHAT} .interactive-input-part .monaco-editor`).first().waitFor({ state: 'visible', timeout: 10_000 });
        await ask(ctx, `@gateway /agent ${shown}`);
        const response = await waitForResponse(ctx, shown, /Approval needed: run this command in[\s\S]*ui-post\.\s*sh/, 45_000, true);
        s.check(
          /Hooks of this workspace \(\.claude\/settings\.json\)/.test(response.text),
          `the approval names the hook file ("${response.text.slice(0, 400)}")`,
        );
        s.check(/postToolUse of Edit\|\s*Write/.test(response.text), 'the approval says when the hook runs');
        await waitForChatButton(ctx, 'Approve', 1);
        await s.crop('chat', CHAT);
      });

      await s.step('hook-ran', "Approve clicked, then the write approved: the session finishes and the model received the hook's output", async () => {
        await (await waitForChatButton(ctx, 'Approve', 1)).click({ timeout: 10_000 });
        await (await waitForChatButton(ctx, 'Approve', 2)).click({ timeout: 10_000 });
        await waitForResponse(ctx, shown, /Session done/, 45_000);
        const bodies = (await emulatorRequests(ctx)).filter((r) => r.path === '/v1/responses').map((r) => JSON.stringify(r.body));
        s.check(
          bodies.some((body) => body.includes(`ui-hook: checked ${file}`)),
          `a request carried the hook's output (${bodies.length} requests)`,
        );
        await s.crop('chat', CHAT);
      });
    } finally {
      rmSync(claude, { recursive: true, force: true });
      rmSync(path.join(ctx.workspace, file), { force: true });
    }
  },
};
