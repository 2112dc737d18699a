// What VS Code attaches to a @gateway question by itself (issue 38): its automatic instructions references (the
// AGENTS.md and copilot-instructions.md this extension already sends as a system message) and its Copilot-oriented
// "Chat customizations index" (which tells the model to use Copilot's tools, #tool:execute/runInTerminal among
// them). A question carries each instruction file once and no such index. The references have the shapes VS Code
// gives (ids and model descriptions of its chatVariableEntries); the files are real files in a temp workspace; the
// question goes to the emulator over HTTP as the participant sends it.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, afterEach, before, beforeEach, describe, test } from 'node:test';
import { requestContext, type ReferenceContent } from '../../../src/chat/common/commandContext';
import { forwardedReferences, instructionReferencePaths, withoutSentInstructions } from '../../../src/chat/common/hostReferences';
import { buildChatMessages } from '../../../src/chat/common/prompt';
import { instructionsForChat } from '../../../src/customization/common/projectInstructions';
import { ModelEndpoints } from '../../../src/models/common/modelEndpoints';
import { defaultProtectedFiles } from '../../../src/settings/common/valueSets';
import { NodeWorkspaceFiles } from '../../../src/tools/node/nodeWorkspaceFiles';
import { startEmulator, type Emulator } from '../../emulator/server';
import { TempWorkspace } from '../helpers/agent';
import { collect, makeClient, signal } from '../helpers/clients';

const AGENTS = 'Answer in British English. Run npm test after every change.';
/** The index as VS Code 1.139 writes it (its skills, instructions and agents lists, trimmed). */
const INDEX = [
  'Chat customizations index:',
  '<instructions>',
  'Here is a list of instruction files that contain rules for working with this codebase.',
  '</instructions>',
  '<agents>',
  'Use the #tool:runSubagent tool with the agent name to run the subagent.',
  '</agents>',
  'To run a command, use #tool:execute/runInTerminal.',
].join('\n');

/** A reference as the participant sees it: VS Code's id and model description, and what reading it gives. */
interface HostReference {
  id: string;
  modelDescription?: string;
  path?: string;
  content: string;
}

let workspace: TempWorkspace;
let emulator: Emulator;
before(async () => {
  emulator = await startEmulator({ port: 0 });
});
after(() => emulator.close());
beforeEach(() => {
  emulator.reset();
  workspace = new TempWorkspace();
});
afterEach(() => workspace.dispose());

/** The participant's steps for a question with these references: read them, find the project's instructions, send. */
async function ask(references: HostReference[], prompt: string): Promise<string> {
  const kept = forwardedReferences(references);
  const contents: ReferenceContent[] = kept.map((r) => ({ kind: 'text', attachment: { label: r.path ?? r.modelDescription ?? r.id, content: r.content } }));
  const found = requestContext(contents, undefined, () => undefined, defaultProtectedFiles);
  assert.equal(found.kind, 'send');
  const attachments = found.kind === 'send' ? found.attachments : [];
  const instructions = await instructionsForChat(
    new NodeWorkspaceFiles(workspace.root),
    attachments.map((a) => a.label),
    defaultProtectedFiles,
    signal(),
  );
  const sent = withoutSentInstructions(attachments, instructionReferencePaths(kept), instructions.used);
  const messages = buildChatMessages({ history: [], attachments: sent, prompt, command: undefined, projectInstructions: instructions.text });
  const endpoints = new ModelEndpoints(makeClient(emulator.baseUrl, 'demo-key'));
  await collect(endpoints.stream({ model: 'gw-chat', messages }, { signal: signal() }));
  return JSON.stringify(emulator.requests.at(-1)?.body);
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('what VS Code attaches by itself', () => {
  test('AGENTS.md goes once (the system message), the customizations index not at all; a file the user attached goes', async () => {
    workspace.write('AGENTS.md', AGENTS);
    workspace.write('.github/copilot-instructions.md', 'Prefer small functions.');
    workspace.write('src/app.ts', 'export const app = 1;\n');
    const file = (path: string) => readFileSync(join(workspace.root, path), 'utf8');
    const body = await ask(
      [
        {
          id: `vscode.prompt.instructions.root__file://${workspace.root}/AGENTS.md`,
          modelDescription: 'Prompt instructions file',
          path: 'AGENTS.md',
          content: file('AGENTS.md'),
        },
        {
          id: `vscode.instructions.file.root__file://${workspace.root}/.github/copilot-instructions.md`,
          modelDescription: 'Prompt instructions file',
          path: '.github/copilot-instructions.md',
          content: file('.github/copilot-instructions.md'),
        },
        { id: 'vscode.customizations.index', modelDescription: 'Chat customizations index', content: INDEX },
        { id: `file://${workspace.root}/src/app.ts`, path: 'src/app.ts', content: file('src/app.ts') },
      ],
      'what does app export?',
    );
    assert.equal(occurrences(body, 'Run npm test after every change.'), 1, body);
    assert.equal(occurrences(body, 'Prefer small functions.'), 1, body);
    assert.doesNotMatch(body, /runInTerminal|Chat customizations index|runSubagent/);
    assert.match(body, /src\/app\.ts:\\n```\\nexport const app = 1;/);
    assert.match(body, /what does app export\?/);
  });

  test('an instructions reference of a file this extension does not send (a folder it does not read) still goes', async () => {
    workspace.write('docs/notes.instructions.md', 'Docs are in British English.');
    const body = await ask(
      [
        {
          id: 'vscode.prompt.instructions__file:///x',
          modelDescription: 'Prompt instructions file',
          path: 'docs/notes.instructions.md',
          content: 'Docs are in British English.',
        },
      ],
      'hi',
    );
    assert.equal(occurrences(body, 'Docs are in British English.'), 1, body);
  });
});
