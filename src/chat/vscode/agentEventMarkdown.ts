/**
 * An agent session's events as a chat turn shows them: text and notes as markdown, each tool call a progress line,
 * a command's end with its exit code and the sandbox's note, checkpoints with their buttons, and an approval as
 * Approve / Deny buttons the turn waits on.
 */
import * as vscode from 'vscode';
import { compactionNotice, approvalMarkdown, plainMarkdown, inlineCode, waitingLine, subagentMarkdown } from '../../agent/common';
import type { AgentEvent, ApprovalRequest } from '../../sessionModel/common';
import { droppedNotice, RESTORE_FROM_CHAT } from '../../checkpoints/common';
import { planChecklist } from '../../tools/common';
import { sandboxFailureNote, type SandboxFailure } from '../../terminal/common';
import { noteMarkdown } from '../common/notes';
import { retryText } from '../common/retryText';

/** One event of the run in the chat's response stream (`root`: the session's folder, which the event's paths are relative to). */
export function renderAgentEvent(event: AgentEvent, root: vscode.Uri, stream: vscode.ChatResponseStream): void {
  switch (event.type) {
    case 'text':
      stream.markdown(event.text);
      return;
    case 'note':
      stream.markdown(noteMarkdown(event.text));
      return;
    case 'tool_started':
      stream.progress(`${event.summary}…`);
      return;
    case 'subagent_step':
      stream.progress(`Subagent: ${event.summary}…`);
      return;
    case 'tool_finished':
      if (event.outcome.subagent) {
        // Nested under the call: its line, the start of its answer; its steps are in the session's transcript.
        stream.markdown(subagentMarkdown(event.outcome.subagent, event.outcome.output));
        stream.button({ title: 'Open Subagent Transcript', command: 'gateway.agent.openTranscript', arguments: [event.outcome.subagent.sessionId] });
      } else if (!event.approved) stream.markdown(`\n\n> Denied: ${inlineCode(event.summary)}\n\n`);
      else if (event.outcome.changedPath) {
        stream.reference(vscode.Uri.joinPath(root, event.outcome.changedPath));
        // What the model was told about the problems its write left: the user sees the same.
        if (event.outcome.problemsNote) stream.markdown(`\n\n${quotedLines(event.outcome.problemsNote)}\n\n`);
      } else if (event.outcome.exitCode !== undefined) stream.markdown(commandEndMarkdown(event.summary, event.outcome));
      return;
    case 'plan':
      stream.markdown(`\n\n**Plan**\n\n${planChecklist(event.plan)}\n\n`);
      return;
    case 'retry':
      stream.progress(retryText(event.notice));
      return;
    case 'compacting':
      stream.progress('Compacting the conversation to fit the context window…');
      return;
    case 'checkpoint':
      // After each step that changed files: its diff, and the way back to it.
      stream.markdown(`\n\n_Checkpoint: ${event.checkpoint.label}_\n\n`);
      stream.button({ title: 'Review Step', command: 'gateway.agent.reviewStep', arguments: [event.sessionId, event.checkpoint.id] });
      stream.button({
        title: 'Restore to Here',
        command: 'gateway.agent.restoreCheckpoint',
        arguments: [event.sessionId, event.checkpoint.id, RESTORE_FROM_CHAT],
      });
      if (event.dropped.length > 0) stream.markdown(`\n\n> ${droppedNotice(event.dropped.map((label) => ({ label })))}\n\n`);
      return;
    case 'compacted':
      stream.markdown(
        `\n\n> ${compactionNotice(event.compaction.before, event.compaction.after)}${event.compaction.how === 'trim' ? ' (old tool outputs shortened to notes)' : ''}\n\n`,
      );
      return;
    case 'status':
      if (event.status === 'stopped' || (event.status === 'paused' && event.reason))
        stream.markdown(`\n\n**${event.status === 'stopped' ? 'Stopped' : 'Paused'}:** ${event.reason}\n\n`);
      return;
    default:
      return;
  }
}

/** How a command ended: its exit code, whether it ran in the sandbox and, when the sandbox most likely made it fail, why and what to do. */
function commandEndMarkdown(summary: string, outcome: { exitCode?: number; sandbox?: { network: boolean; failure?: SandboxFailure } }): string {
  const where = outcome.sandbox ? ` in the sandbox${outcome.sandbox.network ? '' : ' (no network)'}` : '';
  const failure = outcome.sandbox?.failure ? `\n\n> ${plainMarkdown(sandboxFailureNote(outcome.sandbox.failure))}` : '';
  return `\n\n${inlineCode(summary)} exited with ${outcome.exitCode}${where}.${failure}\n\n`;
}

/** Tool text as a quote, a paragraph a line, each line inline code: it wraps in a narrow chat, and Markdown reads nothing in it. */
function quotedLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `> ${inlineCode(line)}`)
    .join('\n>\n');
}

/** A tool call waiting for the user: what it would do, its Show Diff / Show Full Input, Approve and Deny. */
export function presentApproval(approval: ApprovalRequest, stream: vscode.ChatResponseStream, folderName: string | undefined): void {
  stream.markdown(`\n\n${approvalMarkdown(approval, folderName)}\n\n`);
  const args = [approval.sessionId, approval.callId];
  if (approval.preview) stream.button({ title: 'Show Diff', command: 'gateway.agent.showDiff', arguments: args });
  if (approval.input) stream.button({ title: 'Show Full Input', command: 'gateway.agent.showInput', arguments: args });
  stream.button({ title: 'Approve', command: 'gateway.agent.approve', arguments: args });
  stream.button({ title: 'Deny', command: 'gateway.agent.deny', arguments: args });
  // The turn's progress line says what it waits for (not the last tool's "Reading…"), until the answer comes.
  stream.progress(`${capitalized(waitingLine(approval))} — Approve or Deny above`);
}

function capitalized(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
