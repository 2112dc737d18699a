/**
 * Checks a request against the spec's rules before it is sent, so a temperature
 * of 3 is a clear local error naming the setting instead of a 400 round trip.
 */
import * as z from 'zod/mini';
import { en } from 'zod/locales';
import { chatParamsPassQuickly, inputItemPassesQuickly, respondFieldsPassQuickly } from './paramsQuickCheck';
import { InvalidRequestError } from './errors';
import { REASONING_EFFORTS, SERVICE_TIERS } from '../../settings/common';
import { type ChatParams, type RespondParams } from './types';

/**
 * zod/mini ships no locale, so the default messages (for the checks without
 * one of our own) come from the English locale, passed per parse rather than
 * set globally: the same words classic zod uses.
 */
const english = en().localeError;

const modelId = z.string().check(z.trim(), z.minLength(1, { error: 'choose a model (it is empty)' }));
const temperature = z
  .number({ error: 'must be a number' })
  .check(z.minimum(0, { error: 'must be between 0 and 2' }), z.maximum(2, { error: 'must be between 0 and 2' }));
const topP = z
  .number({ error: 'must be a number' })
  .check(z.minimum(0, { error: 'must be between 0 and 1' }), z.maximum(1, { error: 'must be between 0 and 1' }));
const positiveInt = z.number().check(z.int({ error: 'must be a whole number' }), z.positive({ error: 'must be at least 1' }));
const reasoningEffort = z.enum(REASONING_EFFORTS, { error: `must be one of ${REASONING_EFFORTS.join(', ')}` });
const serviceTier = z.enum(SERVICE_TIERS, { error: `must be one of ${SERVICE_TIERS.join(', ')}` });

const toolName = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be 1–64 letters, digits, _ or -' }));
const tool = z.object({
  name: toolName,
  description: z.optional(z.string()),
  parameters: z.optional(z.record(z.string(), z.unknown())),
  strict: z.optional(z.boolean()),
});
const toolChoice = z.union([z.enum(['auto', 'none', 'required']), z.object({ name: toolName })], {
  error: 'must be auto, none, required or {name}',
});

const chatMessage = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer', 'user']), content: z.string({ error: 'must be text' }) }),
    z.object({ role: z.literal('assistant'), content: z.nullable(z.string()), tool_calls: z.optional(z.array(z.unknown())) }),
    z.object({ role: z.literal('tool'), content: z.string(), tool_call_id: z.string().check(z.minLength(1)) }),
  ],
  { error: 'role must be system, developer, user, assistant or tool' },
);

const chatParams = z.object({
  model: modelId,
  messages: z.array(chatMessage).check(z.minLength(1, { error: 'needs at least one message' })),
  temperature: z.optional(temperature),
  topP: z.optional(topP),
  maxTokens: z.optional(positiveInt),
  reasoningEffort: z.optional(reasoningEffort),
  serviceTier: z.optional(serviceTier),
  tools: z.optional(z.array(tool)),
  toolChoice: z.optional(toolChoice),
});

const inputItem = z.union([
  z.object({
    type: z.optional(z.literal('message')),
    role: z.enum(['user', 'assistant', 'system', 'developer']),
    content: z.string(),
  }),
  z.object({
    type: z.literal('function_call'),
    call_id: z.string().check(z.minLength(1)),
    name: z.string().check(z.minLength(1)),
    arguments: z.string(),
  }),
  z.object({ type: z.literal('function_call_output'), call_id: z.string().check(z.minLength(1)), output: z.string() }),
]);

/** Every parameter of a responses request but its input (checked item by item, see validateRespondParams). */
const respondShape = {
  model: modelId,
  instructions: z.optional(z.string()),
  tools: z.optional(z.array(tool)),
  toolChoice: z.optional(toolChoice),
  previousResponseId: z.optional(z.string().check(z.minLength(1))),
  reasoningEffort: z.optional(reasoningEffort),
  serviceTier: z.optional(serviceTier),
  maxOutputTokens: z.optional(positiveInt),
  temperature: z.optional(temperature),
  topP: z.optional(topP),
};
const respondParamsExceptInput = z.object(respondShape);
const { model: _model, ...afterModel } = respondShape;
// Keys in the order the first problem is looked for in: the model, the input, the rest.
const respondParams = z.object({
  model: modelId,
  input: z.union([z.string().check(z.minLength(1, { error: 'is empty' })), z.array(inputItem).check(z.minLength(1, { error: 'is empty' }))]),
  ...afterModel,
});

/** The wire's name for each parameter, so the message names what the user set. */
const wireNames: Record<string, string> = {
  topP: 'top_p',
  maxTokens: 'max_tokens',
  maxOutputTokens: 'max_output_tokens',
  reasoningEffort: 'reasoning_effort',
  serviceTier: 'service_tier',
  toolChoice: 'tool_choice',
  previousResponseId: 'previous_response_id',
};

export function validateChatParams(params: ChatParams): void {
  if (!chatParamsPassQuickly(params)) check(chatParams, params);
  checkToolChoiceNamesATool(params);
}

/** Whether the schema alone passes `params` (the quick checks' tests compare the two). */
export function chatSchemaPasses(params: unknown): boolean {
  return chatParams.safeParse(params, { error: english }).success;
}

/** Whether the schema of one input item passes `item` (for the quick checks' tests). */
export function inputItemSchemaPasses(item: unknown): boolean {
  return inputItem.safeParse(item, { error: english }).success;
}

/** Whether the schema of every responses field but the input passes `params` (for the quick checks' tests). */
export function respondFieldsSchemaPass(params: unknown): boolean {
  return respondParamsExceptInput.safeParse(params, { error: english }).success;
}

/**
 * The whole request is checked, but an input item this module checked before, still holding the
 * values it had then in every field the check reads, is not parsed again: an agent sends its
 * growing conversation item by item, the same objects each time, and parsing all of them again
 * took longer with every turn. An item changed since, or any new one, is parsed; anything that
 * fails is checked again whole, so the message names the first problem as it always did.
 */
export function validateRespondParams(params: RespondParams): void {
  if (!passesQuickly(params)) check(respondParams, params);
  checkToolChoiceNamesATool(params);
}

/** The fields of an input item the schema reads (zod ignores the rest), as they were when it passed. */
const ITEM_FIELDS = ['type', 'role', 'content', 'call_id', 'name', 'arguments', 'output'] as const;
type ItemFields = unknown[];
/** Weak: an item of a closed session is not kept alive by having been checked. */
const passedItems = new WeakMap<object, ItemFields>();
let itemsParsed = 0;

/** How many input items were checked so far, by the quick check or the schema (the tests and the bench measure what a request costs). */
export function inputItemsParsed(): number {
  return itemsParsed;
}

function passesQuickly(params: RespondParams): boolean {
  const input: unknown = params.input;
  if (!Array.isArray(input) || input.length === 0) return false;
  if (!respondFieldsPassQuickly(params)) return false;
  for (const item of input) if (!itemPasses(item)) return false;
  return true;
}

function itemPasses(item: unknown): boolean {
  if (typeof item !== 'object' || item === null) return false;
  const fields = ITEM_FIELDS.map((field) => (item as Record<string, unknown>)[field]);
  const passed = passedItems.get(item);
  if (passed !== undefined && passed.every((value, i) => value === fields[i])) return true;
  itemsParsed++;
  if (!inputItemPassesQuickly(item) && !inputItem.safeParse(item).success) return false;
  passedItems.set(item, fields);
  return true;
}

function check(schema: z.ZodMiniType, value: unknown): void {
  const result = schema.safeParse(value, { error: english });
  if (result.success) return;
  const issue = result.error.issues[0];
  const param = issue.path
    .map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${wireNames[String(part)] ?? String(part)}`))
    .join('');
  const got = describeValue(issue.path.reduce<unknown>((obj, key) => (obj as Record<PropertyKey, unknown> | undefined)?.[key as PropertyKey], value));
  throw new InvalidRequestError(`Invalid request: ${param || 'request'} ${issue.message}${got}.`, param);
}

function checkToolChoiceNamesATool(params: ChatParams | RespondParams): void {
  const choice = params.toolChoice;
  if (typeof choice !== 'object') return;
  if (!params.tools?.some((t) => t.name === choice.name)) {
    throw new InvalidRequestError(`Invalid request: tool_choice names "${choice.name}", which is not among the tools.`, 'tool_choice');
  }
}

function describeValue(value: unknown): string {
  if (typeof value === 'number' || typeof value === 'boolean') return ` (got ${String(value)})`;
  if (typeof value === 'string' && value.length <= 40) return ` (got "${value}")`;
  return '';
}
