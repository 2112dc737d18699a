/** A saved agent session as markdown: pure (no vscode), so it is unit-tested. */
import { codeFence, counted, inlineCode, openFenceOf } from '../../../base/common';
import type { SubagentRun } from '../../../tools/common';
import { compactionNotice, contextUsage } from '../engine/compaction';
import type { AgentSessionState, Compaction, SubagentRecord } from '../../../sessionModel/common';

/** Characters shown of one tool output or call's arguments. */
export const MAX_OUTPUT_SHOWN = 2000;
/** Characters shown of one message. */
export const MAX_MESSAGE_SHOWN = 20_000;
/** Characters of the whole document; later items are left out past it. */
export const MAX_TRANSCRIPT_CHARS = 1_000_000;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n… (${text.length - max} more characters)` : text;
}

/** Model text as markdown that cannot swallow what follows it: an open code fence is closed. */
function message(text: string): string {
  const clipped = clip(text, MAX_MESSAGE_SHOWN);
  const open = openFenceOf(clipped);
  return open === undefined ? clipped : `${clipped}\n${open}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function projectInstructionsLine(state: AgentSessionState): string {
  const files = state.projectInstructions?.files ?? [];
  return files.length > 0 ? `  \nProject instructions: ${files.map((path) => inlineCode(path)).join(', ')}` : '';
}

/**
 * What follows "Files changed: " — the files the agent's file tools changed. A command's changes are not among them
 * (nothing watches what a command writes outside the sandbox's review), and "none" after commands ran would say
 * nothing changed when a command may have: the note says so.
 */
export function filesChangedText(files: string, commandsRun: number): string {
  return files === 'none' && commandsRun > 0 ? 'none by the file tools (what the commands changed is not listed)' : files;
}

export function renderTranscript(state: AgentSessionState): string {
  const lines = [
    `# ${oneLine(state.title) || 'Agent session'}`,
    '',
    `Status: **${state.status}**${state.statusReason ? ` — ${oneLine(state.statusReason)}` : ''}  `,
    `Model: ${inlineCode(state.model)} · ${counted(state.turns, 'turn')} · ${counted(state.usage.totalTokens, 'token')} ` +
      `(${state.usage.inputTokens} in, ${state.usage.outputTokens} out, ${state.usage.reasoningTokens} reasoning)  `,
    `Files changed: ${filesChangedText(state.originals.map((o) => inlineCode(o.path)).join(', ') || 'none', state.commandsRun.length)}  `,
    // Whole here: the chat's summary names a few of each and links to this (project instructions only when there are some).
    `Commands run: ${state.commandsRun.map((c) => inlineCode(c)).join(', ') || 'none'}${projectInstructionsLine(state)}${contextUsage(state) ? `  \n${contextUsage(state)}` : ''}`,
    '',
  ];
  const compactions = state.compactions ?? [];
  let size = lines.reduce((sum, line) => sum + line.length + 1, 0);
  for (const [index, item] of state.transcript.entries()) {
    let block: string[];
    if (item.type === 'function_call') block = [`**→ ${oneLine(item.name)}**`, codeFence(clip(item.arguments, MAX_OUTPUT_SHOWN), 'json'), ''];
    else if (item.type === 'function_call_output')
      block = [
        ...(state.subagents ?? []).filter((run) => run.atItem === index).flatMap(subagentBlock),
        codeFence(clip(item.output, MAX_OUTPUT_SHOWN), 'text'),
        '',
      ];
    else block = [`### ${item.role === 'user' ? 'You' : 'Agent'}`, '', message(item.content), ''];
    block = [...compactions.filter((c) => c.atItem === index).flatMap(compactionBlock), ...block];
    const blockSize = block.reduce((sum, line) => sum + line.length + 1, 0);
    if (size + blockSize > MAX_TRANSCRIPT_CHARS) {
      lines.push(`_… ${state.transcript.length - index} more items not shown: the transcript is too large to display._`);
      break;
    }
    size += blockSize;
    lines.push(...block);
  }
  for (const compaction of compactions.filter((c) => c.atItem >= state.transcript.length)) lines.push(...compactionBlock(compaction));
  return lines.join('\n');
}

/** A sub-session, nested under its run_subagent call: its task, what it used, and its steps folded (its answer is the output below). */
function subagentBlock(run: SubagentRecord): string[] {
  const end = run.status === 'done' ? '' : ` — ${run.status}${run.reason ? `: ${oneLine(run.reason)}` : ''}`;
  const steps = run.steps.map((step) => `> - ${inlineCode(step)}`);
  return [
    `> **Subagent:** ${inlineCode(oneLine(run.task).slice(0, 300))}  `,
    `> ${run.steps.length} steps · ${run.turns} requests · ${run.tokens.toLocaleString('en-US')} tokens${end}`,
    ...(steps.length > 0 ? ['>', '> <details><summary>Steps</summary>', '>', ...steps, '>', '> </details>'] : []),
    '',
  ];
}

/** Characters of a sub-session's answer the chat shows under its line (the transcript has all of it). */
export const SUBAGENT_ANSWER_SHOWN = 1500;

/** A sub-session in the chat: one quoted line (task, steps, tokens) and the start of its answer, nested under it. */
export function subagentMarkdown(run: SubagentRun, answer: string): string {
  const head = `> **Subagent:** ${inlineCode(oneLine(run.task).slice(0, 120))} — ${run.steps} steps · ${run.tokens.toLocaleString('en-US')} tokens`;
  const shown = message(clip(answer.trim(), SUBAGENT_ANSWER_SHOWN));
  return `\n\n${head}\n>\n${shown
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n')}\n\n`;
}

/** Where the session compacted: the notice, and the summary the new chain started from. */
function compactionBlock(compaction: Compaction): string[] {
  const how = compaction.how === 'trim' ? ' (old tool outputs shortened to notes)' : '';
  const summary = compaction.summary
    ? ['', '<details><summary>Summary</summary>', '', codeFence(clip(compaction.summary, MAX_OUTPUT_SHOWN * 4), 'markdown'), '', '</details>']
    : [];
  return [`> **${compactionNotice(compaction.before, compaction.after)}**${how}`, ...summary, ''];
}
