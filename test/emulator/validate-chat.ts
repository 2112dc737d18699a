// Validation of POST /v1/chat/completions bodies.
import type { ConvItem, ToolChoice, ToolDecl } from './conversation';
import { contentText } from './conversation';
import { badValue, missing } from './errors';
import {
  type Obj,
  isObj,
  optBool,
  optDescription,
  optEnum,
  optNumber,
  optParameters,
  optPositiveInt,
  requireString,
  toolName,
  REASONING_EFFORTS,
  SERVICE_TIERS,
} from './validate-common';

export interface ChatRequest {
  model: string;
  items: ConvItem[];
  stream: boolean;
  includeUsage: boolean;
  maxTokens?: number;
  tools: ToolDecl[];
  toolChoice: ToolChoice;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool'];
const PART_TYPES: Record<string, string[]> = {
  assistant: ['text', 'refusal'],
  user: ['text', 'image_url', 'input_audio', 'file'],
};

function checkContent(msg: Obj, role: string, p: string): void {
  const content = msg.content;
  if (content === undefined || content === null) {
    if (role === 'assistant' && Array.isArray(msg.tool_calls)) return;
    throw missing(`${p}.content`);
  }
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) throw badValue(`${p}.content`, `Invalid type for '${p}.content': expected a string or an array of content parts.`);
  const allowed = PART_TYPES[role] ?? ['text'];
  content.forEach((part: unknown, j) => {
    const pp = `${p}.content[${j}]`;
    if (!isObj(part)) throw badValue(pp, `Invalid '${pp}': expected an object.`);
    if (typeof part.type !== 'string' || !allowed.includes(part.type)) {
      throw badValue(`${pp}.type`, `Invalid value for '${pp}.type': expected one of ${allowed.join(', ')}.`);
    }
    if (part.type === 'text') requireString(part, 'text', `${pp}.text`);
  });
}

function checkToolCalls(msg: Obj, p: string, items: ConvItem[], pending: Set<string>): void {
  if (msg.tool_calls === undefined || msg.tool_calls === null) return;
  if (!Array.isArray(msg.tool_calls)) throw badValue(`${p}.tool_calls`, `Invalid type for '${p}.tool_calls': expected an array.`);
  msg.tool_calls.forEach((call: unknown, j) => {
    const cp = `${p}.tool_calls[${j}]`;
    if (!isObj(call)) throw badValue(cp, `Invalid '${cp}': expected an object.`);
    const id = requireString(call, 'id', `${cp}.id`);
    if (call.type !== 'function') throw badValue(`${cp}.type`, `Invalid value for '${cp}.type': expected 'function'.`);
    if (!isObj(call.function)) throw missing(`${cp}.function`);
    const name = requireString(call.function, 'name', `${cp}.function.name`);
    const args = requireString(call.function, 'arguments', `${cp}.function.arguments`);
    pending.add(id);
    items.push({ kind: 'call', callId: id, name, arguments: args });
  });
}

function unanswered(index: number, pending: Set<string>): Error {
  return badValue(
    `messages[${index}]`,
    `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Missing: ${[...pending].join(', ')}.`,
  );
}

export function parseMessages(body: Obj): ConvItem[] {
  const messages = body.messages;
  if (messages === undefined || messages === null) throw missing('messages');
  if (!Array.isArray(messages) || messages.length === 0) throw badValue('messages', "Invalid 'messages': expected a non-empty array.");
  const items: ConvItem[] = [];
  const pending = new Set<string>();
  let callsAt = -1;
  messages.forEach((msg: unknown, i) => {
    const p = `messages[${i}]`;
    if (!isObj(msg)) throw badValue(p, `Invalid '${p}': expected an object.`);
    if (msg.role === undefined || msg.role === null) throw missing(`${p}.role`);
    if (typeof msg.role !== 'string' || !ROLES.includes(msg.role)) {
      throw badValue(`${p}.role`, `Invalid value for '${p}.role': expected one of ${ROLES.join(', ')}, got ${JSON.stringify(msg.role)}.`);
    }
    const role = msg.role;
    if (role !== 'tool' && pending.size > 0) throw unanswered(callsAt, pending);
    checkContent(msg, role, p);
    if (role === 'tool') {
      const id = requireString(msg, 'tool_call_id', `${p}.tool_call_id`);
      if (!pending.delete(id)) {
        throw badValue(`${p}.tool_call_id`, `Invalid '${p}.tool_call_id': no preceding assistant tool call has id '${id}'.`);
      }
      items.push({ kind: 'output', callId: id, output: contentText(msg.content) });
      return;
    }
    if (role === 'assistant' && msg.tool_calls !== undefined && msg.tool_calls !== null) {
      if (contentText(msg.content)) items.push({ kind: 'message', role, text: contentText(msg.content) });
      checkToolCalls(msg, p, items, pending);
      callsAt = i;
      return;
    }
    if (msg.tool_calls !== undefined) throw badValue(`${p}.tool_calls`, `'tool_calls' is only allowed on assistant messages.`);
    items.push({ kind: 'message', role, text: contentText(msg.content) });
  });
  if (pending.size > 0) throw unanswered(callsAt, pending);
  return items;
}

function parseTools(body: Obj): ToolDecl[] {
  const tools = body.tools;
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw badValue('tools', "Invalid type for 'tools': expected an array.");
  return tools.map((tool: unknown, i) => {
    const p = `tools[${i}]`;
    if (!isObj(tool)) throw badValue(p, `Invalid '${p}': expected an object.`);
    if (tool.type !== 'function') throw badValue(`${p}.type`, `Invalid value for '${p}.type': expected 'function'.`);
    if (!isObj(tool.function)) throw missing(`${p}.function`);
    const name = toolName(tool.function, `${p}.function.name`);
    optDescription(tool.function, `${p}.function.description`);
    return { name, parameters: optParameters(tool.function, `${p}.function.parameters`) };
  });
}

function parseToolChoice(body: Obj, tools: ToolDecl[]): ToolChoice {
  const tc = body.tool_choice;
  if (tc === undefined || tc === null || tc === 'auto') return { mode: 'auto' };
  if (tc === 'none') return { mode: 'none' };
  const needTools = (): void => {
    if (tools.length === 0) throw badValue('tool_choice', "'tool_choice' requires 'tools' to be specified.");
  };
  if (tc === 'required') {
    needTools();
    return { mode: 'required' };
  }
  if (isObj(tc) && tc.type === 'function' && isObj(tc.function) && typeof tc.function.name === 'string') {
    needTools();
    const name = tc.function.name;
    if (!tools.some((t) => t.name === name)) throw badValue('tool_choice', `Invalid 'tool_choice': no tool named '${name}' in 'tools'.`);
    return { mode: 'named', name };
  }
  throw badValue('tool_choice', `Invalid 'tool_choice': expected 'auto', 'none', 'required' or {type: 'function', function: {name}}.`);
}

export function validateChat(body: Obj): ChatRequest {
  const model = requireString(body, 'model', 'model');
  const items = parseMessages(body);
  optNumber(body, 'temperature', 0, 2);
  optNumber(body, 'top_p', 0, 1);
  const maxTokens = optPositiveInt(body, 'max_tokens') ?? optPositiveInt(body, 'max_completion_tokens');
  optEnum(body, 'reasoning_effort', REASONING_EFFORTS);
  optEnum(body, 'service_tier', SERVICE_TIERS);
  const stream = optBool(body, 'stream') ?? false;
  let includeUsage = false;
  if (body.stream_options !== undefined && body.stream_options !== null) {
    if (!stream) throw badValue('stream_options', "'stream_options' is only allowed when 'stream' is true.");
    if (!isObj(body.stream_options)) throw badValue('stream_options', "Invalid type for 'stream_options': expected an object.");
    includeUsage = optBool(body.stream_options, 'include_usage') ?? false;
  }
  const tools = parseTools(body);
  const toolChoice = parseToolChoice(body, tools);
  return { model, items, stream, includeUsage, maxTokens, tools, toolChoice };
}
