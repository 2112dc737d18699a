/**
 * A plain-code check of the usual chat request, run before the schema (validation.ts): a request
 * it passes is one the schema passes too, so the schema is skipped; anything else (tools, an odd
 * value, a bad field) goes to the schema, which gives the message. Parsing a conversation with zod
 * cost a request about as much as everything else the client does before sending it.
 * Stricter than the schema on purpose: when in doubt it says no and the schema decides.
 */
import { REASONING_EFFORTS, SERVICE_TIERS } from './types';

type Fields = Record<string, unknown>;

export function chatParamsPassQuickly(params: unknown): boolean {
  if (!isRecord(params)) return false;
  // Tools and tool choice have rules of their own (names, JSON Schema objects): the schema checks those.
  if (params.tools !== undefined || params.toolChoice !== undefined) return false;
  return (
    isModelId(params.model) &&
    optional(params.temperature, (value) => isFiniteIn(value, 0, 2)) &&
    optional(params.topP, (value) => isFiniteIn(value, 0, 1)) &&
    optional(params.maxTokens, (value) => Number.isSafeInteger(value) && (value as number) > 0) &&
    optional(params.reasoningEffort, (value) => (REASONING_EFFORTS as readonly unknown[]).includes(value)) &&
    optional(params.serviceTier, (value) => (SERVICE_TIERS as readonly unknown[]).includes(value)) &&
    messagesPass(params.messages)
  );
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

/** An object the schema reads field by field: not null, not an array (a class instance's getters are left to the schema). */
function isRecord(value: unknown): value is Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
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
