/**
 * What closes an agent turn in the chat: the session's summary with one primary
 * action (Continue, else Review, in bold) and the rest as links (split out of agentTurn.ts).
 */
import * as vscode from 'vscode';
import { contextUsage, filesChangedText, inlineCode } from '../../agent/common';
import { type AgentSessionState, type StepCheckpoint } from '../../sessionModel/common';
import { counted } from '../../base/common';
import { RESTORE_FROM_CHAT } from '../../checkpoints/common';
import { compact } from '../../status/common';
import { shortList } from '../common/shortList';

/** The agent or prompt file a session runs as, with its tools (the start's notes fold away with the steps once the turn ends). */
function agentLine({ agent }: AgentSessionState): string {
  if (!agent) return '';
  const tools = agent.tools === undefined ? 'all' : agent.tools.join(', ') || 'none';
  if (agent.kind === 'plan') return `\nPlanning (read-only), tools ${tools}\n`;
  const left = agent.unknownTools?.length ? `; left out: ${agent.unknownTools.join(', ')}` : '';
  return `\n${agent.kind === 'agent' ? 'Agent' : 'Prompt file'}: ${inlineCode(agent.name)} (${inlineCode(agent.path)}), tools ${tools}${left}\n`;
}

/** The summary's restore links: the latest checkpoints of this run before the present (the chat folds the steps away once the turn ends). */
const SUMMARY_CHECKPOINTS = 3;

export function summarize(state: AgentSessionState, stream: vscode.ChatResponseStream, checkpoints: readonly StepCheckpoint[] = []): void {
  // Long lists are cut to a few names and a count; the count links to the transcript, which lists them all.
  const wholeList = `command:gateway.agent.openTranscript?${encodeURIComponent(JSON.stringify([state.id]))}`;
  const files = shortList({ items: state.originals.map((original) => inlineCode(original.path)), wholeList });
  const commands = shortList({ items: state.commandsRun.map((line) => inlineCode(line)), wholeList });
  const instructions = shortList({ items: (state.projectInstructions?.files ?? []).map((path) => inlineCode(path)), wholeList });
  const context = contextUsage(state);
  const summary = new vscode.MarkdownString(
    `\n\n---\n**Session ${state.status}** · ${inlineCode(state.model)} · ${counted(state.turns, 'turn')} · ${counted(state.usage.totalTokens, 'token', compact(state.usage.totalTokens))} ` +
      `(${compact(state.usage.inputTokens)} in, ${compact(state.usage.outputTokens)} out, ${compact(state.usage.reasoningTokens)} reasoning)` +
      `${context ? ` · ${context}` : ''}\n\n` +
      `Files changed: ${filesChangedText(files, state.commandsRun.length)}\n\nCommands run: ${commands}\n` +
      `\nProject instructions: ${instructions}\n` +
      agentLine(state),
  );
  // Trusted for the transcript link alone: the paths and commands in it are the model's and the workspace's.
  summary.isTrusted = { enabledCommands: ['gateway.agent.openTranscript'] };
  stream.markdown(summary);
  if (checkpoints.length > 0) stream.markdown(`\nCheckpoints: ${checkpoints.map((c) => c.label).join(' · ')}\n`);
  // One primary action (emphasised) and the rest as links, the destructive revert last; the newest checkpoint is the
  // present state, so it is not offered. All markdown on purpose: once a turn ends VS Code folds every part before
  // its trailing run of markdown into "Completed N steps" (chat.agent.collapseCompletedResponses), and a button here
  // would fold this summary away with the steps.
  const actions = summaryActions(state, checkpoints.slice(0, -1).slice(-SUMMARY_CHECKPOINTS));
  if (actions.primary || actions.secondary.length > 0) stream.markdown(commandLinks(actions.secondary, actions.primary));
}

/** The summary's actions: Continue for a session that can go on, else Review; the others after it. */
function summaryActions(state: AgentSessionState, earlier: readonly StepCheckpoint[]): { primary?: vscode.Command; secondary: vscode.Command[] } {
  const id = state.id;
  const canContinue = state.status === 'paused' || state.status === 'stopped';
  const changed = state.originals.length > 0;
  const review: vscode.Command = { title: 'Review Session Changes', command: 'gateway.agent.reviewChanges', arguments: [id] };
  const continued: vscode.Command = { title: 'Continue', command: 'gateway.agent.continue', arguments: [id] };
  const restores = [...earlier].reverse().map((checkpoint): vscode.Command => ({
    title: `Restore to ${checkpoint.label.split(':')[0]}`,
    command: 'gateway.agent.restoreCheckpoint',
    arguments: [id, checkpoint.id, RESTORE_FROM_CHAT],
  }));
  const revert: vscode.Command[] = changed ? [{ title: 'Revert Session Changes…', command: 'gateway.agent.revert', arguments: [id] }] : [];
  if (canContinue) return { primary: continued, secondary: [...(changed ? [review] : []), ...restores, ...revert] };
  return { primary: changed ? review : undefined, secondary: [...restores, ...revert] };
}

/** Commands as one line of links (trusted for exactly these commands); a `primary` one first, in bold. */
export function commandLinks(commands: readonly vscode.Command[], primary?: vscode.Command): vscode.MarkdownString {
  const link = (c: vscode.Command) => `[${c.title}](command:${c.command}?${encodeURIComponent(JSON.stringify(c.arguments ?? []))})`;
  const links = [...(primary ? [`**${link(primary)}**`] : []), ...commands.map(link)];
  const markdown = new vscode.MarkdownString(`\n\n${links.join(' · ')}\n`);
  const all = primary ? [primary, ...commands] : commands;
  markdown.isTrusted = { enabledCommands: [...new Set(all.map((c) => c.command))] };
  return markdown;
}
