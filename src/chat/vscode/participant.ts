/**
 * The `@gateway` chat participant: streams the chat model's answer as markdown,
 * with the conversation's history and the user's attachments as context.
 */
import * as vscode from 'vscode';
import { ShownNotes, type RetryNotice } from '../../gateway/common';
import { type ModelWindows } from '../../models/common';
import { noteMarkdown } from '../common/notes';
import { failureMarkdown } from '../common/failureText';
import { droppedNote, streamFitted } from '../../models/common';
import { incompleteAnswerNote } from '../common/finishNote';
import { WaitLines } from '../common/retryText';
import { withoutRepeatedMention } from '../common/repeatedMention';
import { modelFooter } from '../common/modelFooter';
import { CONTINUE_FOLLOWUP, RETRY_STOPPED_LABEL, STOPPED_ANSWER } from '../common/stoppedTurn';
import type { ModelEndpoints } from '../../models/common';
import { buildChatMessages, type SlashCommand } from '../common/prompt';
import { openFenceOf, type Logger } from '../../base/common';
import { toAbortSignal } from '../../base/vscode';
import { actionsFor, messageOf } from '../../gateway/vscode';
import { projectKindEnabled, requestParameters, type SettingsService } from '../../settings/common';
import { sessionOfConversation } from './agentTurn';
import { requestContext } from '../common/commandContext';
import { activeSelection, historyOf, pathed, referenceContents } from './context';
import { forwardedReferences, instructionReferencePaths, withoutSentInstructions } from '../common/hostReferences';
import type { ThinkingParts } from '../common/thinking';
import { ThinkingStream } from './thinking';
import type { PromptResolution } from './promptTurn';

export const LM_VENDOR = 'gateway';
/** The name typed after `@` in the Chat view (package.json's chatParticipants). */
const PARTICIPANT_NAME = 'gateway';

export interface ParticipantDeps {
  endpoints: ModelEndpoints;
  /** The model to answer with, given the gateway model selected in the Chat view's picker (if any). */
  chooseModel: (pickerModel: string | undefined, signal: AbortSignal) => Promise<string>;
  logger: Logger;
  settings: SettingsService;
  /** Each model's window: a history too long for it loses its oldest turns instead of failing. */
  windows?: ModelWindows;
  runAgent: (
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ) => Promise<vscode.ChatResult>;
  /** The workspace's project instructions for a request with these attachments (labels), when the setting allows them: the text and the files it holds. */
  projectInstructions?: (attachmentLabels: string[], signal: AbortSignal) => Promise<{ text?: string; used: readonly string[] } | undefined>;
  /** `/prompt`: runs an agent-mode prompt file in the turn, or gives a chat-mode one's text (and model) to answer. */
  resolvePrompt?: (request: vscode.ChatRequest, stream: vscode.ChatResponseStream, token: vscode.CancellationToken) => Promise<PromptResolution>;
  /** The note put before the answer past the daily budget; undefined under it. */
  budgetNote?: (signal: AbortSignal) => Promise<string | undefined>;
  /** Told the full text of every finished answer and the notes it showed (kept for the extension's API). */
  onAnswer?: (text: string, notes: readonly string[]) => void;
  /** Where the answers' thinking is kept for its collapsed parts; without it thinking is not shown. */
  thinking?: ThinkingParts;
}

export interface GatewayChatResult extends vscode.ChatResult {
  /** `unsent`: answered locally, without a request (nothing to follow up on). */
  /** `notes`: the notes' markdown as shown, taken out of the answer when it becomes history (historyTurns.ts). */
  /** `retry`: a failed or stopped question as it was asked, offered again as the Retry followup. */
  /** `stopped`: the user stopped the answer (or, with `command: 'agent'` and `sessionId`, the session's turn: Continue is offered). */
  metadata?: {
    stopped?: boolean;
    model?: string;
    command?: string;
    failed?: boolean;
    unsent?: boolean;
    sessionId?: string;
    notes?: string[];
    retry?: { prompt: string; command: string | undefined };
  };
}

/** The commands an agent turn answers: start or continue a session, plan one first, compact it, or show where it stands. */
function isAgentCommand(command: string | undefined): boolean {
  return command === 'agent' || command === 'compact' || command === 'session' || command === 'plan';
}

export function createChatHandler(deps: ParticipantDeps) {
  return async (
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> => {
    request = withoutRepeatedParticipant(request);
    // /agent, or any follow-up in a conversation that runs an agent session, goes to that session.
    if (isAgentCommand(request.command) || (!request.command && sessionOfConversation(context))) {
      return deps.runAgent(request, context, stream, token);
    }
    const signal = toAbortSignal(token);
    let model: string | undefined;
    const notes = new AnswerNotes(stream);
    try {
      const promptFile = request.command === 'prompt' && deps.resolvePrompt ? await deps.resolvePrompt(request, stream, token) : undefined;
      if (promptFile?.kind === 'done') return promptFile.result;
      const prompt = promptFile?.text ?? request.prompt;
      const settings = deps.settings.current();
      const command = request.command === 'explain' || request.command === 'fix' ? (request.command as SlashCommand) : undefined;
      // Decided before choosing a model: a request with nothing to work on is not sent (or paid for).
      // The prompt file a bare `/prompt` was given as an attachment is the prompt, not its context.
      // VS Code's Copilot-oriented customizations index is not forwarded (hostReferences.ts).
      const references = forwardedReferences(promptFile ? request.references.filter((reference) => !isPromptFileUri(reference.value)) : request.references);
      const found = requestContext(await referenceContents(references), command, activeSelection, settings.agent.protectedFiles);
      for (const note of found.notes) stream.markdown(`${note}\n\n`);
      if (found.kind === 'nothing') {
        stream.markdown(found.hint);
        return { metadata: { command, unsent: true } };
      }
      model = promptFile?.model ?? (await deps.chooseModel(request.model?.vendor === LM_VENDOR ? request.model.id : undefined, signal));
      const instructions = projectKindEnabled(settings.agent, 'agentsMd')
        ? await deps.projectInstructions?.(
            found.attachments.map((a) => a.label),
            signal,
          )
        : undefined;
      // An instructions file VS Code attached by itself goes once: in the project instructions when they hold it.
      const attachments = withoutSentInstructions(found.attachments, instructionReferencePaths(references.map(pathed)), instructions?.used ?? []);
      const messages = buildChatMessages({ history: historyOf(context), attachments, prompt, command, projectInstructions: instructions?.text });
      deps.logger.trace(`@gateway prompt (${model}): ${promptFile ? promptFile.path : prompt}`);
      const budgetNote = await deps.budgetNote?.(signal).catch(() => undefined);
      const budgetText = budgetNote ? `> ${budgetNote}\n\n` : '';
      if (budgetText) stream.markdown(budgetText);
      const waits = new WaitLines(() => Date.now());
      const onRetry = (notice: RetryNotice) => {
        const line = waits.lineFor(notice);
        if (line) stream.progress(line);
      };
      const events = streamFitted(
        deps.endpoints,
        {
          model,
          messages,
          ...requestParameters(settings),
        },
        deps.windows,
        { signal, onRetry, origin: { surface: 'chat' } },
        (dropped) => stream.markdown(`${droppedNote(dropped)}\n\n`),
      );
      let answer = budgetText;
      // The thinking is shown beside the answer, never in it: the answer is what the history sends back.
      const thinking = new ThinkingStream(stream, deps.thinking);
      for await (const event of events) {
        if (event.type === 'reasoning') {
          thinking.reasoning(event.text);
        } else if (event.type === 'note') {
          thinking.close();
          notes.show(event.text);
        } else if (event.type === 'text') {
          thinking.close();
          answer += event.text;
          stream.markdown(event.text);
        } else if (event.type === 'done') {
          thinking.close();
          const note = incompleteAnswerNote(event.finishReason);
          if (note) stream.markdown(note);
        }
      }
      // A Stop may end the stream quietly rather than with an error: the answer is as incomplete.
      // An answer that ends inside a code fence would show the footer as code (issue 39, item 8): the fence is closed first.
      const openFence = openFenceOf(answer);
      if (openFence !== undefined) stream.markdown(`\n${openFence}\n`);
      if (signal.aborted) return stoppedAnswer(request, model, notes);
      thinking.close();
      notes.close();
      notes.footer(modelFooter(model));
      deps.onAnswer?.(answer, notes.texts);
      return { metadata: { model, command, ...notes.metadata() } };
    } catch (error) {
      if (token.isCancellationRequested) return stoppedAnswer(request, model, notes);
      // Every failure is answered in the chat, its reason then its fix (Open Settings, Set API Key, Top up…), and offers a Retry
      // (the followup below): VS Code's own error box would say it after the buttons, or with none.
      stream.markdown(failureAnswer(messageOf(error)));
      for (const action of actionsFor(error, deps.settings.current())) stream.button(action);
      return { metadata: { model, failed: true, retry: { prompt: request.prompt, command: request.command }, ...notes.metadata() } };
    }
  };
}

/**
 * A stopped answer's result: VS Code shows nothing the answer writes after the Stop, nor (1.139) the result's message; its
 * followup is shown, and says the answer stopped (stoppedTurn.ts). Retry asks the question again.
 */
function stoppedAnswer(request: vscode.ChatRequest, model: string | undefined, notes: AnswerNotes): GatewayChatResult {
  return {
    errorDetails: { message: STOPPED_ANSWER },
    metadata: { model, failed: true, stopped: true, retry: { prompt: request.prompt, command: request.command }, ...notes.metadata() },
  };
}

function isPromptFileUri(value: unknown): boolean {
  return value instanceof vscode.Uri && value.path.endsWith('.prompt.md');
}

/** A failure as the answer's text, above the buttons that fix it (failureText.ts: its addresses as code, never linkified). */
function failureAnswer(message: string): vscode.MarkdownString {
  return new vscode.MarkdownString(`\n\n${failureMarkdown(message)}\n\n`, true);
}

const SLASH_COMMANDS = ['explain', 'fix', 'agent', 'plan', 'compact', 'session'];

/** The request as if `@gateway` had been typed once (see repeatedMention.ts); the same object when it was. */
function withoutRepeatedParticipant(request: vscode.ChatRequest): vscode.ChatRequest {
  const cleaned = withoutRepeatedMention({ prompt: request.prompt, command: request.command, participantName: PARTICIPANT_NAME, commands: SLASH_COMMANDS });
  if (cleaned.prompt === request.prompt && cleaned.command === request.command) return request;
  // The host's request may hold its fields as read-only: a child object shadows the two that change.
  return Object.create(request, {
    prompt: { value: cleaned.prompt, enumerable: true },
    command: { value: cleaned.command, enumerable: true },
  }) as vscode.ChatRequest;
}

/** The notes one answer shows (a few, then how many more), kept so that its history can leave them out. */
class AnswerNotes {
  private readonly bound = new ShownNotes();
  private readonly shown: string[] = [];
  readonly texts: string[] = [];

  constructor(private readonly stream: vscode.ChatResponseStream) {}

  show(text: string): void {
    const taken = this.bound.take(text);
    if (taken !== undefined) this.write(taken);
  }

  /** The count of the notes held back, after the answer. */
  close(): void {
    const rest = this.bound.rest();
    if (rest !== undefined) this.write(rest);
  }

  /** A line after the answer (which model answered): shown, and like a note left out of the history. */
  footer(markdown: string): void {
    this.shown.push(markdown);
    this.stream.markdown(markdown);
  }

  metadata(): { notes?: string[] } {
    return this.shown.length > 0 ? { notes: [...this.shown] } : {};
  }

  private write(text: string): void {
    const markdown = noteMarkdown(text);
    this.texts.push(text);
    this.shown.push(markdown);
    this.stream.markdown(markdown);
  }
}

export const followupProvider: vscode.ChatFollowupProvider = {
  provideFollowups(result: GatewayChatResult) {
    const retry = result.metadata?.retry;
    if (retry)
      return [{ prompt: retry.prompt, label: result.metadata?.stopped ? RETRY_STOPPED_LABEL : 'Retry', ...(retry.command ? { command: retry.command } : {}) }];
    // A stopped agent turn: a follow-up message in the conversation continues its session.
    if (result.metadata?.stopped && result.metadata.command === 'agent' && result.metadata.sessionId) return [{ ...CONTINUE_FOLLOWUP }];
    if (result.metadata?.failed || result.metadata?.unsent) return [];
    if (result.metadata?.command === 'explain') return [{ prompt: 'How could this code be improved?', label: 'Suggest improvements' }];
    if (result.metadata?.command === 'fix') return [{ prompt: 'Write tests that cover this fix.', label: 'Write tests for the fix' }];
    return [];
  },
};
