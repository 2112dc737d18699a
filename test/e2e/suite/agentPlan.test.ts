// Plan first (issue 40) in a real VS Code: `@gateway /plan <task>` runs a read-only planning session (a write the
// scripted model tries is refused as no tool), Edit Plan… opens the plan as a document, the user edits it, and
// Start runs a session whose first request carries the edited plan and whose todo list is the edited steps, which
// the model then follows with update_plan. A second Start of the same plan is refused and starts nothing.
// Start in a New Worktree: refused with its reason outside a Git repository; in one, the session works in a worktree of
// its own (its file written there, not in the workspace) with the plan as its todo list.
import * as vscode from 'vscode';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';
import { makeRepository, removeRepository } from './gitRepository';

interface PlanApi {
  agentSessions(): Promise<
    {
      id: string;
      title: string;
      status: string;
      plan?: { step: string; status: string }[];
      agent?: { name: string; path: string; tools?: string[] };
      worktree?: { path: string; branch: string; discarded: boolean };
    }[]
  >;
}

const TASK = 'add a greeting file e2e-plan.txt';
const toolNames = (body: { tools?: { name: string }[] }) => (body.tools ?? []).map((tool) => tool.name).join(',');

test(
  'plan first: /plan makes a read-only plan, edited in its document, started and followed as the todo list',
  async () => {
    const gateway = await vscode.extensions.getExtension<PlanApi>(EXTENSION_ID)!.activate();
    const root = vscode.workspace.workspaceFolders![0].uri;
    const config = vscode.workspace.getConfiguration('gateway');
    await config.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
    assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
    await config.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
    await resetEmulator();

    // The planning session: a write and a command are refused (not offered), a read goes through, the answer is a plan.
    await scriptTurns('demo-key', [
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'e2e-plan.txt', content: 'too early' } },
          { name: 'run_command', arguments: { command: 'touch e2e-plan-ran.txt' } },
        ],
      },
      { toolCalls: [{ name: 'list_files', arguments: { path: '.' } }] },
      { text: 'I looked around.\n\n1. Create e2e-plan.txt\n2. **Write** a greeting in it\n3. Tell the user' },
    ]);
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    await vscode.commands.executeCommand('workbench.action.chat.open', { query: `@gateway /plan ${TASK}` });
    const plan = await waitFor(
      'the planning session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.agent?.name === 'Plan' && s.status === 'done'),
      60_000,
    );
    assertEqual(plan.agent?.tools?.join(','), 'read_file,list_files,search_text,code_navigation,get_problems', 'the planning tools are saved');
    const planning = (await emulatorRequests()).filter((r) => r.path === '/v1/responses');
    assertEqual(planning.length, 3, 'planning requests');
    for (const request of planning)
      assertEqual(
        toolNames(request.body).split(',').sort().join(','),
        'code_navigation,get_problems,list_files,read_file,search_text',
        'only the read-only tools',
      );
    const refused = JSON.stringify(planning[1].body.input);
    assert(
      refused.includes('There is no tool named \\"write_file\\"') && refused.includes('There is no tool named \\"run_command\\"'),
      `the write and the command were refused: ${refused.slice(0, 400)}`,
    );
    for (const path of ['e2e-plan.txt', 'e2e-plan-ran.txt']) {
      const exists = await Promise.resolve(vscode.workspace.fs.stat(vscode.Uri.joinPath(root, path))).then(
        () => true,
        () => false,
      );
      assert(!exists, `${path} was not made while planning`);
    }

    // Edit Plan…: the plan as an untitled Markdown document; the user rewrites it.
    await vscode.commands.executeCommand('gateway.plan.edit', plan.id);
    const document = await waitFor(
      'the plan document',
      () => vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText().includes('Plan for: ')),
      10_000,
    );
    assert(document.getText().includes('1. Create e2e-plan.txt\n2. Write a greeting in it\n3. Tell the user'), `the plan document: ${document.getText()}`);
    const edit = new vscode.WorkspaceEdit();
    const whole = new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length));
    edit.replace(document.uri, whole, '# My plan\n\n1. Create e2e-plan.txt with "hello"\n2) Check it\n- [ ] Tell the user it is done\n');
    assert(await vscode.workspace.applyEdit(edit), 'the plan document is edited');
    const edited = ['Create e2e-plan.txt with "hello"', 'Check it'];

    // Start: a session with the edited plan as its todo list, which the model follows.
    await resetEmulator();
    await scriptTurns('demo-key', [
      {
        toolCalls: [
          {
            name: 'update_plan',
            arguments: {
              steps: [
                { step: edited[0], status: 'done' },
                { step: edited[1], status: 'in_progress' },
              ],
            },
          },
        ],
      },
      { toolCalls: [{ name: 'update_plan', arguments: { steps: edited.map((step) => ({ step, status: 'done' })) } }] },
      { text: 'All done.' },
    ]);
    await vscode.commands.executeCommand('gateway.plan.start', plan.id);
    const started = await waitFor(
      'the started session to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === TASK && s.agent === undefined && s.status === 'done'),
      60_000,
    );
    assertEqual(JSON.stringify(started.plan), JSON.stringify(edited.map((step) => ({ step, status: 'done' }))), 'the todo list is the edited plan, followed');
    const first = (await emulatorRequests()).find((r) => r.path === '/v1/responses');
    const input = JSON.stringify(first?.body.input);
    assert(
      input.includes(`${TASK}\\n\\nFollow this plan`) && input.includes('1. Create e2e-plan.txt with \\"hello\\"\\n2. Check it'),
      `the first request carries the edited plan: ${input.slice(0, 600)}`,
    );
    assert(!input.includes('Tell the user'), 'the numbered steps win over the bullet the user left');
    assert(toolNames(first?.body ?? {}).includes('write_file'), 'the started session has every tool');

    // A second Start (an old button): refused, nothing new runs.
    await resetEmulator();
    await vscode.commands.executeCommand('gateway.plan.start', plan.id, '1. Something else');
    assertEqual((await gateway.agentSessions()).filter((s) => s.title === TASK).length, 2, 'no third session');
    assertEqual((await emulatorRequests()).filter((r) => r.path === '/v1/responses').length, 0, 'no request');

    // The palette's Plan Before Acting… (the task as its argument): the same read-only session, its plan in a document.
    await scriptTurns('demo-key', [{ text: '1. Read the README\n2. Summarise it' }]);
    await vscode.commands.executeCommand('gateway.plan.create', 'summarise the README');
    const palettePlan = await waitFor(
      'the palette plan to finish',
      async () => (await gateway.agentSessions()).find((s) => s.title === 'summarise the README' && s.agent?.name === 'Plan' && s.status === 'done'),
      60_000,
    );
    assert(palettePlan.agent?.tools?.includes('read_file') && !palettePlan.agent.tools.includes('write_file'), 'read-only');
    const paletteDocument = await waitFor(
      'the palette plan document',
      () => vscode.workspace.textDocuments.find((d) => d.isUntitled && d.getText().includes('Plan for: summarise the README')),
      10_000,
    );
    assert(paletteDocument.getText().includes('1. Read the README\n2. Summarise it'), paletteDocument.getText());
    // The plan documents are closed unsaved (no "save?" dialog).
    for (const plan of [document, paletteDocument]) {
      await vscode.window.showTextDocument(plan);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  },
  { timeoutMs: 180_000 },
);

const WT_TASK = 'write the plan file e2e-plan-worktree.txt';
const WT_FILE = 'e2e-plan-worktree.txt';

test(
  'plan first: Start in a New Worktree says why outside a Git repository, and in one runs the plan in a worktree of its own',
  async () => {
    const gateway = await vscode.extensions.getExtension<PlanApi>(EXTENSION_ID)!.activate();
    const dir = vscode.workspace.workspaceFolders![0].uri.fsPath;
    assert(!existsSync(join(dir, '.git')), 'the sample workspace is not a Git repository before the test');
    const settings = vscode.workspace.getConfiguration('gateway');
    const approval = settings.get<string>('agent.approval');
    const made: string[] = [];
    try {
      await settings.update('baseUrl', EMULATOR_BASE_URL, vscode.ConfigurationTarget.Global);
      assert(await vscode.commands.executeCommand<boolean>('gateway.setApiKey', 'demo-key'), 'the key is accepted');
      await settings.update('agentModel', 'gw-code', vscode.ConfigurationTarget.Global);
      await settings.update('agent.approval', 'auto-edit', vscode.ConfigurationTarget.Global);
      await resetEmulator();
      await scriptTurns('demo-key', [{ text: `1. Write ${WT_FILE}\n2. Tell the user` }]);
      const plan = await vscode.commands.executeCommand<{ id: string; status: string }>('gateway.plan.create', WT_TASK);
      assertEqual(plan.status, 'done', 'the plan is made');
      const steps = [`Write ${WT_FILE}`, 'Tell the user'];

      // Not a Git repository: the worktree start says why and starts nothing (its warning offers Start Here).
      await resetEmulator();
      const why = await vscode.commands.executeCommand<unknown>('gateway.plan.startInWorktree', plan.id);
      assert(typeof why === 'string' && why.includes('is not in a Git repository'), `why no worktree: ${String(why)}`);
      assertEqual((await gateway.agentSessions()).filter((s) => s.title === WT_TASK).length, 1, 'no session started');
      assertEqual((await emulatorRequests()).filter((r) => r.path === '/v1/responses').length, 0, 'no request');

      // A Git repository with a commit: the session runs in a worktree of its own with the plan as its todo list.
      makeRepository(dir);
      await scriptTurns('demo-key', [
        { toolCalls: [{ name: 'write_file', arguments: { path: WT_FILE, content: 'written in the worktree\n' } }] },
        { toolCalls: [{ name: 'update_plan', arguments: { steps: steps.map((step) => ({ step, status: 'done' })) } }] },
        { text: 'Done in the worktree.' },
      ]);
      const ran = await vscode.commands.executeCommand<{ id: string; status: string }>('gateway.plan.startInWorktree', plan.id);
      assertEqual(ran.status, 'done', 'the session ran');
      const session = (await gateway.agentSessions()).find((s) => s.id === ran.id);
      const worktree = session?.worktree;
      assert(worktree !== undefined, `the session works in a worktree: ${JSON.stringify(session)}`);
      made.push(worktree.path);
      assertEqual(worktree.branch, `gateway/${ran.id}`, 'its branch');
      assert(!worktree.path.startsWith(`${dir}/`), 'the worktree is outside the workspace folder');
      assertEqual(readFileSync(join(worktree.path, WT_FILE), 'utf8'), 'written in the worktree\n', 'the file is written in the worktree');
      assert(!existsSync(join(dir, WT_FILE)), 'and not in the workspace');
      assertEqual(session?.title, WT_TASK, 'titled with the task');
      assertEqual(JSON.stringify(session?.plan), JSON.stringify(steps.map((step) => ({ step, status: 'done' }))), 'the todo list is the plan, followed');
      const first = (await emulatorRequests()).find((r) => r.path === '/v1/responses');
      assert(JSON.stringify(first?.body.input).includes(`1. Write ${WT_FILE}\\n2. Tell the user`), 'the first request carries the plan');

      // Started once: neither button starts it again.
      await resetEmulator();
      for (const command of ['gateway.plan.start', 'gateway.plan.startInWorktree']) await vscode.commands.executeCommand(command, plan.id);
      assertEqual((await gateway.agentSessions()).filter((s) => s.title === WT_TASK).length, 2, 'no third session');
      assertEqual((await emulatorRequests()).filter((r) => r.path === '/v1/responses').length, 0, 'no request');

      assert(await vscode.commands.executeCommand<boolean>('gateway.agent.discardWorktree', ran.id, { confirmed: true }), 'the worktree is discarded');
      assert(!existsSync(worktree.path), 'its folder is gone');
    } finally {
      await settings.update('agent.approval', approval, vscode.ConfigurationTarget.Global);
      removeRepository(dir, made);
      // The plan's document (opened by Plan Before Acting…) is closed unsaved.
      for (const document of vscode.workspace.textDocuments.filter((d) => d.isUntitled && d.getText().includes(`Plan for: ${WT_TASK}`))) {
        await vscode.window.showTextDocument(document);
        await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
      }
      await vscode.commands.executeCommand('notifications.clearAll');
    }
  },
  { timeoutMs: 180_000 },
);
