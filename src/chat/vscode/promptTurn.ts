/**
 * `@gateway /prompt <name> [key=value …] [text]`: runs one of the workspace's
 * prompt files (`.github/prompts/<name>.prompt.md`). VS Code's chat hands a
 * third-party participant no prompt-file reference of its own (a prompt file
 * run from VS Code's `/name` goes to its own chat modes), so the file is named
 * here, or picked from a list when no name is given, or attached (#file) to a
 * bare `/prompt`. An agent-mode prompt runs as an agent session in this turn;
 * any other is answered as a chat request with the prompt as its text.
 */
import * as vscode from 'vscode';
import { agentStartNotes, inlineCode, modelNamed, promptSessionAgent } from '../../agent/common';
import { expandPrompt, parsePromptCall, promptInputs, promptKind, type PromptFile } from '../../customization/common';
import { toAbortSignal } from '../../base/vscode';
import { type AgentChatResult, type AgentTurnDeps, sessionTurn } from './agentTurn';
import { noteMarkdown } from '../common/notes';

export interface PromptTurnDeps extends AgentTurnDeps {
  /** The ids of the models the key may use. */
  availableModels: (signal: AbortSignal) => Promise<readonly string[]>;
}

/** A chat-mode prompt to answer: its text, and the model it asks for when the key may use it. */
export type PromptResolution = { kind: 'chat'; text: string; model?: string; path: string } | { kind: 'done'; result: vscode.ChatResult };

export const PROMPT_FOLDER_HINT =
  'Prompt files are `.github/prompts/<name>.prompt.md` files of the workspace, read while `gateway.agent.projectInstructions` is on.';

export async function resolvePromptTurn(
  deps: PromptTurnDeps,
  request: vscode.ChatRequest,
  stream: vscode.ChatResponseStream,
  token: vscode.CancellationToken,
): Promise<PromptResolution> {
  const signal = toAbortSignal(token);
  const call = parsePromptCall(request.prompt);
  const { prompts, agents } = await deps.sessions.customAgents.find(signal);
  const name = call.name || attachedPromptName(request, prompts) || (await pickPrompt(prompts));
  const done = (text: string): PromptResolution => {
    stream.markdown(text);
    return { kind: 'done', result: { metadata: { command: 'prompt' } } };
  };
  if (!name) return done(prompts.length === 0 ? `This workspace has no prompt files. ${PROMPT_FOLDER_HINT}` : 'No prompt file was chosen.');
  const prompt = prompts.find((candidate) => candidate.name === name);
  if (!prompt) {
    const known = prompts.map((p) => `${inlineCode(p.name)}${p.user ? ' (user)' : ''}`).join(', ');
    return done(`This workspace has no prompt file named ${inlineCode(name)}. ${known ? `Its prompt files: ${known}.` : PROMPT_FOLDER_HINT}`);
  }
  const inputs = await askMissing(prompt, call, signal);
  if (inputs === undefined) return done(`${inlineCode(prompt.name)} was not run: an input it asks for was not given.`);
  const expanded = expandPrompt(prompt, { inputs, rest: call.rest }, editorContext());
  if (prompt.mode === 'agent') {
    const agent = promptSessionAgent(prompt, agents, deps.sessions.customAgents.toolCatalog());
    if (typeof agent === 'string') return done(agent);
    const result: AgentChatResult = await sessionTurn(deps, { stream, signal, toolInvocationToken: request.toolInvocationToken }, (sink) =>
      deps.sessions.startAs({ task: expanded.text, agent, sink, signal }),
    );
    return { kind: 'done', result };
  }
  const available = prompt.model !== undefined ? await deps.availableModels(signal).catch(() => []) : [];
  const model = prompt.model !== undefined ? modelNamed(prompt.model, available) : undefined;
  const [, modelNote] = agentStartNotes(
    { kind: 'prompt', name: prompt.name, path: prompt.path, model: prompt.model },
    { used: 'the chat model', found: model !== undefined },
  );
  if (prompt.model !== undefined && model === undefined && modelNote) stream.markdown(noteMarkdown(modelNote));
  return { kind: 'chat', text: expanded.text, ...(model !== undefined ? { model } : {}), path: prompt.path };
}

/**
 * The name of the prompt file attached to a bare `/prompt` (#file on a `.prompt.md`): the name it is known by (its
 * front matter's `name` may differ from its file's), else the file's stem (not found then: the answer says so).
 */
function attachedPromptName(request: vscode.ChatRequest, prompts: readonly PromptFile[]): string | undefined {
  for (const reference of request.references) {
    const uri = reference.value instanceof vscode.Uri ? reference.value : undefined;
    const base = uri?.path.slice(uri.path.lastIndexOf('/') + 1);
    if (!uri || !base?.endsWith('.prompt.md')) continue;
    const known = prompts.find((prompt) => uri.path.endsWith(`/${prompt.path}`));
    return known?.name ?? base.slice(0, -'.prompt.md'.length);
  }
  return undefined;
}

async function pickPrompt(prompts: readonly PromptFile[]): Promise<string | undefined> {
  if (prompts.length === 0) return undefined;
  const picked = await vscode.window.showQuickPick(
    prompts.map((prompt) => ({ label: prompt.name, description: promptKind(prompt), detail: prompt.description, name: prompt.name })),
    { title: 'Gateway: Run Prompt File', placeHolder: 'Which prompt file?' },
  );
  return picked?.name;
}

/** The inputs given, plus those asked for now; undefined when the user dismissed a question. */
async function askMissing(prompt: PromptFile, call: ReturnType<typeof parsePromptCall>, signal: AbortSignal): Promise<Map<string, string> | undefined> {
  const inputs = new Map(call.inputs);
  const unset = promptInputs(prompt.body).filter((input) => !inputs.has(input.name));
  // The free text fills the only input left (expandPrompt does the same); more than one are asked for.
  if (unset.length === 1 && call.rest !== '') return inputs;
  for (const input of unset) {
    if (signal.aborted) return undefined;
    const value = await vscode.window.showInputBox({ title: `${prompt.name}: ${input.name}`, placeHolder: input.placeholder, ignoreFocusOut: true });
    if (value === undefined) return undefined;
    inputs.set(input.name, value);
  }
  return inputs;
}

/** `${selection}`, `${file}` and `${workspaceFolder}` as the active editor and the first folder give them. */
export function editorContext(): { selection?: string; file?: string; workspaceFolder?: string } {
  const editor = vscode.window.activeTextEditor;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  return {
    ...(editor && !editor.selection.isEmpty ? { selection: editor.document.getText(editor.selection) } : {}),
    ...(editor ? { file: vscode.workspace.asRelativePath(editor.document.uri, false) } : {}),
    ...(folder !== undefined ? { workspaceFolder: folder } : {}),
  };
}
