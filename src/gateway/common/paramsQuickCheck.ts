/**
 * Plain-code checks of the usual requests, run before the schemas (validation.ts): a request they
 * pass is one the schema passes too, so the schema is skipped; anything else (an odd value, a bad
 * field) goes to the schema, which gives the message. Parsing a conversation with zod cost a chat
 * request about as much as everything else the client does before sending it, and an agent's
 * request (its tool list) the largest part of its first request and a third of the garbage a
 * long session makes. Stricter than the schemas on purpose: when in doubt they say no and the
 * schema decides.
 */
import { REASONING_EFFORTS, SERVICE_TIERS } from '../../settings/common';

type Fields = Record<string, unknown>;

export function chatParamsPassQuickly(params: unknown): boolean {
  if (!isRecord(params)) return false;
  return sharedFieldsPass(params) && optional(params.maxTokens, isPositiveInt) && messagesPass(params.messages);
}

/** Every field of a responses request but its input (checked item by item, see validateRespondParams). */
export function respondFieldsPassQuickly(params: unknown): boolean {
  if (!isRecord(params)) return false;
  return (
    sharedFieldsPass(params) &&
    optional(params.maxOutputTokens, isPositiveInt) &&
    optional(params.instructions, (value) => typeof value === 'string') &&
    optional(params.previousResponseId, (value) => typeof value === 'string' && value.length > 0)
  );
}

/** One item of a responses request's input, as the agent sends them: a message, a function call or its output. */
export function inputItemPassesQuickly(item: unknown): boolean {
  if (!isRecord(item)) return false;
  switch (item.type) {
    case undefined:
    case 'message':
      return (item.role === 'user' || item.role === 'assistant' || item.role === 'system' || item.role === 'developer') && typeof item.content === 'string';
    case 'function_call':
      return isNonEmptyString(item.call_id) && isNonEmptyString(item.name) && typeof item.arguments === 'string';
    case 'function_call_output':
      return isNonEmptyString(item.call_id) && typeof item.output === 'string';
    default:
      return false;
  }
}

function isNonEmptyString(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

/** The fields chat and responses requests share. */
function sharedFieldsPass(params: Fields): boolean {
  return (
    isModelId(params.model) &&
    optional(params.temperature, (value) => isFiniteIn(value, 0, 2)) &&
    optional(params.topP, (value) => isFiniteIn(value, 0, 1)) &&
    optional(params.reasoningEffort, (value) => (REASONING_EFFORTS as readonly unknown[]).includes(value)) &&
    optional(params.serviceTier, (value) => (SERVICE_TIERS as readonly unknown[]).includes(value)) &&
    optional(params.tools, (tools) => Array.isArray(tools) && tools.every(toolPasses)) &&
    optional(params.toolChoice, toolChoicePasses)
  );
}

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function toolPasses(tool: unknown): boolean {
  return (
    isRecord(tool) &&
    typeof tool.name === 'string' &&
    TOOL_NAME.test(tool.name) &&
    optional(tool.description, (value) => typeof value === 'string') &&
    optional(tool.strict, (value) => typeof value === 'boolean') &&
    optional(tool.parameters, isStringKeyedRecord)
  );
}

function toolChoicePasses(choice: unknown): boolean {
  if (choice === 'auto' || choice === 'none' || choice === 'required') return true;
  return isRecord(choice) && typeof choice.name === 'string' && TOOL_NAME.test(choice.name);
}

/** What the schema's record of string keys takes: a plain object with no symbol keys (the values are anything). */
function isStringKeyedRecord(value: unknown): boolean {
  return isRecord(value) && Object.getOwnPropertySymbols(value).length === 0;
}

function isPositiveInt(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) > 0;
}

function messagesPass(messages: unknown): boolean {
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const message of messages) if (!messagePasses(message)) return false;
  return true;
}

function messagePasses(message: unknown): boolean {
  if (!isRecord(message)) return false;
  switch (message.role) {
    case 'system':
    case 'developer':
    case 'user':
      return typeof message.content === 'string';
    case 'assistant':
      return (typeof message.content === 'string' || message.content === null) && (message.tool_calls === undefined || Array.isArray(message.tool_calls));
    case 'tool':
      return typeof message.content === 'string' && typeof message.tool_call_id === 'string' && message.tool_call_id.length > 0;
    default:
      return false;
  }
}

/**
 * A plain object: made by a literal or JSON.parse (or with no prototype), with no own `constructor` function
 * (the schema's record refuses one); a class instance, an array or anything else is left to the schema.
 */
function isRecord(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return false;
  const constructor: unknown = (value as Fields).constructor;
  return constructor === undefined || constructor === Object || typeof constructor !== 'function';
}

function isModelId(value: unknown): boolean {
  return typeof value === 'string' && value.trim().length > 0;
}

function isFiniteIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;
}

function optional(value: unknown, passes: (value: unknown) => boolean): boolean {
  return value === undefined || passes(value);
}
