/**
 * Plan first (issue #40): `@gateway /plan <task>` and "Gateway: Plan Before Acting…" run a read-only
 * planning session whose answer is a numbered plan; Start runs a normal session with that plan as its
 * todo list. The planning session is a session agent of kind `plan`: its tool list is saved with it and
 * narrows every run as a custom agent's does (agentTools.ts `limitTools`), whatever the approval mode,
 * so a write or a command it tries is refused as "no tool named …". Loaded at first use, in agentExtras
 * (dist/agent-extras.js): what the chat and the commands need of it they reach through `agentExtras()`.
 */
import type { AgentSessionState, SessionAgent } from '../../../sessionModel/common';
import { MAX_PLAN_STEPS, MAX_STEP_CHARS, type PlanStep } from '../../../tools/common';
import { visibleText } from '../../../base/common';

/** What a planning session may use: reading, listing, searching, navigation and problems; no writes, no commands, no host tools. */
export const PLAN_TOOLS: readonly string[] = ['read_file', 'list_files', 'search_text', 'code_navigation', 'get_problems'];

/** Bounds on a parsed plan: those of update_plan's todo list, which the started session keeps (and reads back when it is saved). */
export const MAX_PARSED_STEPS = MAX_PLAN_STEPS;
export const MAX_PARSED_STEP_CHARS = MAX_STEP_CHARS;

export const PLAN_INSTRUCTIONS = [
  'You are planning, not acting: this session is read-only. Read, list, search and navigate the workspace as you need to understand the task;',
  'you cannot change files or run commands, so do not try. When you know enough, answer with the plan and nothing else after it:',
  'a numbered list, one concrete step a line (`1. …`), at most 12 steps, in the order they should be done, each naming the files it touches.',
].join(' ');

/** The session agent of a planning session (saved with it: Continue and compaction keep it read-only). */
export function planningAgent(): SessionAgent {
  return { kind: 'plan', name: 'Plan', path: '', instructions: PLAN_INSTRUCTIONS, tools: [...PLAN_TOOLS] };
}

/** `1. step`, `1) step`, `- [ ] step`, `* step`, `Step 1: step`, with bold or a heading's `#` around. */
const STEP_LINE = /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:(?:step\s+)?\d{1,3}\s*[.):]|[-*+]\s+\[[ xX]\]|[-*+](?=\s))\s*(.*)$/is;

/**
 * The numbered steps of a plan's text: a list item a step (numbered, a checkbox or a bullet; a numbered
 * list, when there is one, wins over bullets, which are then its sub-points), Markdown emphasis taken
 * off, each one line of at most MAX_PARSED_STEP_CHARS, at most MAX_PARSED_STEPS. Empty: no plan found.
 */
export function parsePlanText(text: string): string[] {
  const numbered: string[] = [];
  const other: string[] = [];
  // Bounded before any work: a model's (or an edited document's) text can be anything.
  for (const raw of text.slice(0, 200_000).split(/\r?\n/, 2_000)) {
    const match = STEP_LINE.exec(raw.slice(0, 4_000));
    if (!match) continue;
    const step = cleanStep(match[1]);
    if (step === '') continue;
    const isNumbered = /^\s*(?:#{1,6}\s*)?(?:\*\*|__)?\s*(?:step\s+)?\d/i.test(raw);
    (isNumbered ? numbered : other).push(step);
  }
  const steps = numbered.length > 0 ? numbered : other;
  return steps.slice(0, MAX_PARSED_STEPS);
}

function cleanStep(text: string): string {
  // Spaces for what breaks a line; what displays as nothing or reorders it is spelled out.
  const line = visibleText(text.replace(/[\t\u2028\u2029]/g, ' '))
    .replace(/\*\*|__/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return line.length > MAX_PARSED_STEP_CHARS ? `${line.slice(0, MAX_PARSED_STEP_CHARS - 1)}…` : line;
}

/** The plan as the todo list a started session begins with (the checklist update_plan keeps). */
export function seededPlan(steps: readonly string[]): PlanStep[] {
  return steps.map((step) => ({ step, status: 'pending' }));
}

/** The plan as an editable Markdown document (parsePlanText reads it back; the comment line is not a step). */
export function planDocument(task: string, steps: readonly string[]): string {
  return `<!-- Plan for: ${oneLine(task).replace(/--/g, '- -')}. Edit the steps (one numbered line each), then click Start. -->\n\n${numberedList(steps)}\n`;
}

/** `1. step` lines. */
export function numberedList(steps: readonly string[]): string {
  return steps.map((step, index) => `${index + 1}. ${step}`).join('\n');
}

/** The first message of the session Start runs: the task, then the plan it follows as its todo list. */
export function taskWithPlan(task: string, steps: readonly string[]): string {
  return [
    task.trim(),
    '',
    'Follow this plan, agreed with the user. It is your todo list: it is already shown as a checklist; keep it current with update_plan (mark a step in_progress when you start it and done when it is done; add or change steps only when the work requires it).',
    '',
    numberedList(steps),
  ].join('\n');
}

/** The planning session's answer: its last assistant message. */
export function planAnswerOf(state: Pick<AgentSessionState, 'transcript'>): string {
  for (let i = state.transcript.length - 1; i >= 0; i--) {
    const item = state.transcript[i];
    if (item.type !== 'function_call' && item.type !== 'function_call_output' && item.role === 'assistant') return item.content;
  }
  return '';
}

/** The task a planning session was given: its first user message. */
export function planTaskOf(state: Pick<AgentSessionState, 'transcript' | 'title'>): string {
  const first = state.transcript.find((item) => item.type !== 'function_call' && item.type !== 'function_call_output' && item.role === 'user');
  return first && first.type !== 'function_call' && first.type !== 'function_call_output' ? first.content : state.title;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}
