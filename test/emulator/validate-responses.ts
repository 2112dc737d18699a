// Validation of POST /v1/responses bodies.
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

export interface ResponsesRequest {
  model: string;
  items: ConvItem[];
  instructions: string | null;
  tools: ToolDecl[];
  toolChoice: ToolChoice;
  previousResponseId: string | null;
  stream: boolean;
  maxOutputTokens?: number;
  effort?: string;
  serviceTier?: string;
  temperature?: number;
  topP?: number;
}

const ROLES = ['user', 'system', 'developer', 'assistant'];
const PART_TYPES = ['input_text', 'output_text', 'input_image', 'input_file', 'refusal'];

function parseMessage(item: Obj, p: string): ConvItem {
  const role = item.role;
  if (role === undefined || role === null) throw missing(`${p}.role`);
  if (typeof role !== 'string' || !ROLES.includes(role)) {
    throw badValue(`${p}.role`, `Invalid value for '${p}.role': expected one of ${ROLES.join(', ')}, got ${JSON.stringify(role)}.`);
  }
  const content = item.content;
  if (content === undefined || content === null) throw missing(`${p}.content`);
  if (Array.isArray(content)) {
    content.forEach((part: unknown, j) => {
      const pp = `${p}.content[${j}]`;
      if (!isObj(part)) throw badValue(pp, `Invalid '${pp}': expected an object.`);
      if (typeof part.type !== 'string' || !PART_TYPES.includes(part.type)) {
        throw badValue(`${pp}.type`, `Invalid value for '${pp}.type': expected one of ${PART_TYPES.join(', ')}.`);
      }
      if (part.type === 'input_text' || part.type === 'output_text') requireString(part, 'text', `${pp}.text`);
    });
  } else if (typeof content !== 'string') {
    throw badValue(`${p}.content`, `Invalid type for '${p}.content': expected a string or an array of content parts.`);
  }
  return { kind: 'message', role, text: contentText(content) };
}

function parseItem(item: unknown, i: number): ConvItem | null {
  const p = `input[${i}]`;
  if (!isObj(item)) throw badValue(p, `Invalid '${p}': expected an object.`);
  const type = item.type ?? 'message';
  switch (type) {
    case 'message':
      return parseMessage(item, p);
    case 'function_call':
      return {
        kind: 'call',
        callId: requireString(item, 'call_id', `${p}.call_id`),
        name: requireString(item, 'name', `${p}.name`),
        arguments: requireString(item, 'arguments', `${p}.arguments`),
      };
    case 'function_call_output': {
      const callId = requireString(item, 'call_id', `${p}.call_id`);
      const output = item.output;
      if (output === undefined || output === null) throw missing(`${p}.output`);
      if (typeof output !== 'string' && !Array.isArray(output)) {
        throw badValue(`${p}.output`, `Invalid type for '${p}.output': expected a string or an array.`);
      }
      return { kind: 'output', callId, output: contentText(output) };
    }
    case 'reasoning':
      return null; // replayed reasoning items are accepted and ignored
    default:
      throw badValue(`${p}.type`, `Invalid value for '${p}.type': ${JSON.stringify(type)} is not a supported input item type.`);
  }
}

function parseInput(body: Obj): ConvItem[] {
  const input = body.input;
  if (input === undefined || input === null) throw missing('input');
  if (typeof input === 'string') return [{ kind: 'message', role: 'user', text: input }];
  if (!Array.isArray(input) || input.length === 0) throw badValue('input', "Invalid 'input': expected a string or a non-empty array of items.");
  return input.map(parseItem).filter((x): x is ConvItem => x !== null);
}

function parseTools(body: Obj): ToolDecl[] {
  const tools = body.tools;
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw badValue('tools', "Invalid type for 'tools': expected an array.");
  const decls: ToolDecl[] = [];
  tools.forEach((tool: unknown, i) => {
    const p = `tools[${i}]`;
    if (!isObj(tool)) throw badValue(p, `Invalid '${p}': expected an object.`);
    if (typeof tool.type !== 'string') throw missing(`${p}.type`);
    if (tool.type !== 'function') return; // built-in tools are accepted; the emulated model never calls them
    const name = toolName(tool, `${p}.name`);
    optDescription(tool, `${p}.description`);
    if (tool.strict !== undefined && tool.strict !== null && typeof tool.strict !== 'boolean') {
      throw badValue(`${p}.strict`, `Invalid type for '${p}.strict': expected a boolean.`);
    }
    decls.push({ name, parameters: optParameters(tool, `${p}.parameters`) });
  });
  return decls;
}

function parseToolChoice(body: Obj, tools: ToolDecl[]): ToolChoice {
  const tc = body.tool_choice;
  if (tc === undefined || tc === null || tc === 'auto') return { mode: 'auto' };
  if (tc === 'none') return { mode: 'none' };
  const needTools = (): void => {
    if (tools.length === 0) throw badValue('tool_choice', "'tool_choice' requires function tools in 'tools'.");
  };
  if (tc === 'required') {
    needTools();
    return { mode: 'required' };
  }
  if (isObj(tc) && tc.type === 'function' && typeof tc.name === 'string') {
    needTools();
    const name = tc.name;
    if (!tools.some((t) => t.name === name)) throw badValue('tool_choice', `Invalid 'tool_choice': no function tool named '${name}' in 'tools'.`);
    return { mode: 'named', name };
  }
  throw badValue('tool_choice', "Invalid 'tool_choice': expected 'auto', 'none', 'required' or {type: 'function', name}.");
}

export function validateResponses(body: Obj): ResponsesRequest {
  const model = requireString(body, 'model', 'model');
  const items = parseInput(body);
  const instructions = body.instructions ?? null;
  if (instructions !== null && typeof instructions !== 'string') throw badValue('instructions', "Invalid type for 'instructions': expected a string.");
  const prev = body.previous_response_id ?? null;
  if (prev !== null && typeof prev !== 'string') throw badValue('previous_response_id', "Invalid type for 'previous_response_id': expected a string.");
  let effort: string | undefined;
  if (body.reasoning !== undefined && body.reasoning !== null) {
    if (!isObj(body.reasoning)) throw badValue('reasoning', "Invalid type for 'reasoning': expected an object.");
    effort = optEnum(body.reasoning, 'effort', REASONING_EFFORTS, 'reasoning.effort');
  }
  const tools = parseTools(body);
  return {
    model,
    items,
    instructions,
    tools,
    toolChoice: parseToolChoice(body, tools),
    previousResponseId: prev,
    stream: optBool(body, 'stream') ?? false,
    maxOutputTokens: optPositiveInt(body, 'max_output_tokens'),
    effort,
    serviceTier: optEnum(body, 'service_tier', SERVICE_TIERS),
    temperature: optNumber(body, 'temperature', 0, 2),
    topP: optNumber(body, 'top_p', 0, 1),
  };
}
