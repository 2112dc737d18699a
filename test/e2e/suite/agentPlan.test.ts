// Plan first (issue 40) in a real VS Code: `@gateway /plan <task>` runs a read-only planning session (a write the
// scripted model tries is refused as no tool), Edit Plan… opens the plan as a document, the user edits it, and
// Start runs a session whose first request carries the edited plan and whose todo list is the edited steps, which
// the model then follows with update_plan. A second Start of the same plan is refused and starts nothing.
import * as vscode from 'vscode';
import { assert, assertEqual, test } from './harness';
import { EMULATOR_BASE_URL, emulatorRequests, resetEmulator, scriptTurns, waitFor } from './emulatorControl';
import { EXTENSION_ID } from './extension.test';

interface PlanApi {
  agentSessions(): Promise<
    { id: string; title: string; status: string; plan?: { step: string; status: string }[]; agent?: { name: string; path: string; tools?: string[] } }[]
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
