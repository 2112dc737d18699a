// A workspace's post-edit hook (Claude Code's format, .claude/settings.json) in a real VS Code: the user approves
// it once in the chat, it runs after the scripted model's write and its output reaches the model with the write's
// result (the emulator's log); a second session runs it without asking again.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface AgentApi {
  pendingApprovals(): { sessionId: string; callId: string; summary: string }[];
  agentSessions(): Promise<{ id: string; title: string; status: string; projectInstructions?: string[] }[]>;
}

const HOOK_SCRIPT = [
  'input=$(cat)',
  'file=$(printf "%s" "$input" | sed -n \'s/.*"file_path":"\\([^"]*\\)".*/\\1/p\')',
  'printf \'{"hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"e2e-hook: checked %s"}}\' "${file##*/}"',
].join('\n');
const SETTINGS = JSON.stringify({
  hooks: { PostToolUse: [{ matcher: 'Edit|Write', hooks: [{ type: 'command', command: 'sh .claude/hooks/e2e-post.sh', timeout: 10 }] }] },
});

async function approveNext(gateway: AgentApi, expected: RegExp): Promise<void> {
  const pending = await waitFor(`an approval matching ${expected}`, () => gateway.pendingApprovals().find((p) => expected.test(p.summary)), 30_000);
  assert(
    await vscode.commands.executeCommand<boolean>('gateway.agent.approve', pending.sessionId, pending.callId),
    `approval ${pending.summary} was not waiting`,
  );
}

/** Runs `/agent <task>` whose scripted model writes `file`, approving what `approvals` name in order; the output the model got for the write. */
async function sessionWriting(gateway: AgentApi, task: string, file: string, approvals: RegExp[]): Promise<string> {
  await resetEmulator();
  await scriptTurns('demo-key', [{ toolCalls: [{ name: 'write_file', arguments: { path: file, content: 'hooked\n' } }] }, { text: 'written' }]);
  await vscode.commands.executeCommand('workbench.action.chat.newChat');
  await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /agent ${task}` });
  for (const approval of approvals) await approveNext(gateway, approval);
  const session = await waitFor(
    'the session to finish',
    async () => (await gateway.agentSessions()).find((s) => s.title === task && s.status === 'done'),
    60_000,
  );
  assert(
    session.projectInstructions?.includes('.claude/settings.json') === true,
    `the hook file is named in the session: ${JSON.stringify(session.projectInstructions)}`,
  );
  const bodies = (await emulatorRequests()).filter((r) => r.path === '/v1/responses').map((r) => r.body);
  assertEqual(bodies.length, 2, 'responses requests');
  return JSON.stringify(bodies[1].input.filter((item: { type?: string }) => item.type === 'function_call_output'));
}

test(
  '/agent: a post-edit hook approved once; its output reaches the model after the write',
  async () => {
    const gateway = await vscode.extensions.getExtension<AgentApi>(EXTENSION_ID)!.activate();
    const root = vscode.workspace.workspaceFolders![0].uri;
    const write = (path: string, text: string) => vscode.workspace.fs.writeFile(vscode.Uri.joinPath(root, path), new TextEncoder().encode(text));
    await write('.claude/hooks/e2e-post.sh', HOOK_SCRIPT);
    await write('.claude/settings.json', SETTINGS);
    try {
      await vscode.workspace.getConfiguration('gateway').update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await vscode.workspace.getConfiguration('gateway').update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      // The writes must ask (an earlier test of the suite leaves `auto`, under which a workspace write goes unasked).
      await vscode.workspace.getConfiguration('gateway').update('agent.approval', 'ask', vscode.ConfigurationTarget.Global);

      const first = await sessionWriting(gateway, 'write hooked one', 'hooked-one.txt', [
        /hook of this workspace \(\.claude\/settings\.json\)/,
        /hooked-one\.txt/,
      ]);
      assert(first.includes('e2e-hook: checked hooked-one.txt'), `the hook's output is in the write's result: ${first}`);

      // Approved by its content: the next session's only approval is its write.
      const second = await sessionWriting(gateway, 'write hooked two', 'hooked-two.txt', [/hooked-two\.txt/]);
      assert(second.includes('e2e-hook: checked hooked-two.txt'), `the hook ran again unasked: ${second}`);
    } finally {
      await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, '.claude'), { recursive: true });
      for (const file of ['hooked-one.txt', 'hooked-two.txt'])
        await vscode.workspace.fs.delete(vscode.Uri.joinPath(root, file)).then(undefined, () => undefined);
    }
  },
  { timeoutMs: 150_000 },
);
