/**
 * update_plan: the model's plan for the task, shown to the user as a checklist
 * (in the chat and the Sessions view) and saved with the session. It changes
 * nothing in the workspace, so it needs no approval. Its definition is sent
 * with every request: the description stays short.
 */
import * as z from 'zod/mini';
import { type AgentTool, guardedPrepare, refused } from './tool';

export const PLAN_STATUSES = ['pending', 'in_progress', 'done'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export interface PlanStep {
  step: string;
  status: PlanStatus;
}

/** Bounds on what a model can make the UI show and the session file keep. */
export const MAX_PLAN_STEPS = 20;
export const MAX_STEP_CHARS = 200;

const schema = z.object({
  // Bounded when read rather than in the schema: every byte of the schema is sent with every request.
  steps: z.array(z.object({ step: z.string(), status: z.enum(PLAN_STATUSES) })),
});

export const updatePlanTool: AgentTool = {
  name: 'update_plan',
  description: 'Show your plan to the user; update it as steps finish.',
  kind: 'read',
  // Written out rather than made from the zod schema: without the nested object's
  // additionalProperties and the enum's type it is 50 bytes shorter on every request.
  parameters: {
    type: 'object',
    properties: {
      steps: {
        type: 'array',
        items: { type: 'object', properties: { step: { type: 'string' }, status: { enum: PLAN_STATUSES } }, required: ['step', 'status'] },
      },
    },
    required: ['steps'],
  },
  prepare: guardedPrepare(
    'update_plan',
    schema,
    (args) => `Update the plan (${args.steps.filter((s) => s.status === 'done').length}/${args.steps.length} done)`,
    async (args) => {
      if (args.steps.length === 0) return refused('The plan has no steps: send every step, each with its status.');
      if (args.steps.length > MAX_PLAN_STEPS) return refused(`The plan has ${args.steps.length} steps; keep it to ${MAX_PLAN_STEPS} or fewer.`);
      const plan = args.steps.map((s) => ({ step: oneLine(s.step), status: s.status }));
      return { execute: () => Promise.resolve({ ok: true, output: 'Plan updated.', plan }) };
    },
  ),
};

/** A step as one bounded line: the UI shows it in a checklist item. */
function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim() || '(unnamed step)';
  return line.length > MAX_STEP_CHARS ? `${line.slice(0, MAX_STEP_CHARS - 1)}…` : line;
}

/** The plan in a saved session's JSON, with what does not fit the shape left out. */
export function parsePlan(value: unknown): PlanStep[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const steps = value
    .slice(0, MAX_PLAN_STEPS)
    .filter((s): s is PlanStep => typeof s === 'object' && s !== null && typeof s.step === 'string' && PLAN_STATUSES.includes(s.status))
    .map((s) => ({ step: oneLine(s.step), status: s.status }));
  return steps.length > 0 ? steps : undefined;
}

/** The plan as a Markdown checklist (the step in progress in bold). */
export function planChecklist(plan: readonly PlanStep[]): string {
  return plan
    .map((s) => `- [${s.status === 'done' ? 'x' : ' '}] ${s.status === 'in_progress' ? `**${escapeMarkdown(s.step)}**` : escapeMarkdown(s.step)}`)
    .join('\n');
}

/** Model text shown as Markdown: its own markup (links, images, HTML) is shown as written. */
function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()<>#+!|~]/g, '\\$&');
}
