// The deterministic model: scripted turns per key, else a default echo; honours tool_choice and output limits.
import type { ConvItem, ToolChoice, ToolDecl } from './conversation';
import { lastInputText, promptText } from './conversation';
import { callId, estimateTokens, tokensOrZero } from './ids';
import { generateFromSchema } from './schema-args';
import type { ScriptedTurn } from './types';

export interface PlannedCall {
  name: string;
  arguments: string;
  callId: string;
}

export interface Plan {
  reasoning: string;
  text: string;
  calls: PlannedCall[];
  /** Custom tool calls nobody offered (see ScriptedTurn.customToolCalls). */
  customCalls: { name: string; input: string; callId: string }[];
  finish: 'stop' | 'length' | 'content_filter' | 'tool_calls';
  /** Output was cut by max_tokens / max_output_tokens. */
  truncated: boolean;
  delayMs: number;
  chunkChars?: number;
  usage: { input: number; output: number; reasoning: number; total: number };
}

export class ScriptQueues {
  private readonly queues = new Map<string, ScriptedTurn[]>();

  add(key: string, turns: ScriptedTurn[]): void {
    const queue = this.queues.get(key) ?? [];
    queue.push(...turns);
    this.queues.set(key, queue);
  }

  /**
   * Removes and returns the first turn that matches this model and endpoint. With `hasTools` false (a
   * responses request without tools: a session's summary) a turn with tool calls is left for a later request.
   */
  take(key: string, model: string, endpoint: 'chat' | 'responses', hasTools = true): ScriptedTurn | undefined {
    const queue = this.queues.get(key);
    if (!queue) return undefined;
    const i = queue.findIndex(
      (t) => (t.model === undefined || t.model === model) && (t.endpoint === undefined || t.endpoint === endpoint) && (hasTools || !t.toolCalls?.length),
    );
    return i < 0 ? undefined : queue.splice(i, 1)[0];
  }

  /** Puts back a turn whose answer a fault broke, so that the retry gets it. */
  putBack(key: string, turn: ScriptedTurn): void {
    const queue = this.queues.get(key) ?? [];
    queue.unshift(turn);
    this.queues.set(key, queue);
  }

  clear(): void {
    this.queues.clear();
  }
}

export interface PlanInput {
  turn?: ScriptedTurn;
  items: ConvItem[];
  instructions?: string | null;
  tools: ToolDecl[];
  toolChoice: ToolChoice;
  maxTokens?: number;
  defaultDelayMs: number;
  /** Ids for calls the script gives none (a provider dialect's shape); default `call_…`. */
  newCallId?: () => string;
}

const argsText = (args: unknown): string => (typeof args === 'string' ? args : JSON.stringify(args ?? {}));

function generatedCall(tool: ToolDecl, newCallId: () => string): PlannedCall {
  const args = generateFromSchema(tool.parameters ?? { type: 'object', properties: {} });
  return { name: tool.name, arguments: JSON.stringify(args), callId: newCallId() };
}

export function echoText(items: ConvItem[]): string {
  return `Echo: ${lastInputText(items).trim().slice(0, 200)}`;
}

export function makePlan(input: PlanInput): Plan {
  const { toolChoice, tools } = input;
  const newCallId = input.newCallId ?? callId;
  const turn = checkedTurn(input.turn, input);
  let text = turn ? (turn.text ?? '').repeat(Math.max(1, turn.repeat ?? 1)) : echoText(input.items);
  let reasoning = turn?.reasoning ?? '';
  let calls: PlannedCall[] = (turn?.toolCalls ?? []).map((c) => ({ name: c.name, arguments: argsText(c.arguments), callId: c.callId ?? newCallId() }));
  if (toolChoice.mode === 'none') {
    calls = [];
    if (!text) text = echoText(input.items);
  } else if (toolChoice.mode === 'named') {
    const name = toolChoice.name;
    calls = calls.filter((c) => c.name === name);
    if (calls.length === 0) {
      calls = [
        generatedCall(
          tools.find((t) => t.name === name)!,
          newCallId,
        ),
      ];
      if (!turn) text = '';
    }
  } else if (toolChoice.mode === 'required' && calls.length === 0) {
    calls = [generatedCall(tools[0], newCallId)];
    if (!turn) text = '';
  }
  let finish: Plan['finish'] = turn?.finishReason ?? (calls.length > 0 ? 'tool_calls' : 'stop');
  let truncated = false;
  const callTokens = tokensOrZero(calls.map((c) => c.name + c.arguments).join(''));
  if (input.maxTokens !== undefined && tokensOrZero(reasoning) + tokensOrZero(text) + callTokens > input.maxTokens) {
    truncated = true;
    reasoning = reasoning.slice(0, input.maxTokens * 4);
    text = text.slice(0, Math.max(0, input.maxTokens - tokensOrZero(reasoning)) * 4);
    calls = [];
    finish = 'length';
  }
  const reasoningTokens = tokensOrZero(reasoning);
  const inputTokens = estimateTokens(promptText(input.items, input.instructions ?? undefined));
  const output = Math.max(1, reasoningTokens + tokensOrZero(text) + tokensOrZero(calls.map((c) => c.name + c.arguments).join('')));
  return {
    reasoning,
    text,
    calls,
    customCalls: (turn?.customToolCalls ?? []).map((c) => ({ ...c, callId: newCallId() })),
    finish,
    truncated,
    delayMs: turn?.delayMs ?? input.defaultDelayMs,
    chunkChars: turn?.chunkChars,
    usage: { input: inputTokens, output, reasoning: reasoningTokens, total: inputTokens + output },
  };
}

/** The scripted turn, or its `otherwise` when the conversation lacks what it `requires`. */
function checkedTurn(turn: ScriptedTurn | undefined, input: PlanInput): ScriptedTurn | undefined {
  if (!turn?.requires) return turn;
  return promptText(input.items, input.instructions ?? undefined).includes(turn.requires.text) ? turn : checkedTurn(turn.requires.otherwise, input);
}

/** Splits a text into stream deltas: fixed-size pieces, or word-ish pieces (leading spaces + up to 4 other chars). */
export function splitDeltas(text: string, chunkChars?: number): string[] {
  if (text.length === 0) return [];
  if (chunkChars && chunkChars > 0) {
    const out: string[] = [];
    for (let i = 0; i < text.length; i += chunkChars) out.push(text.slice(i, i + chunkChars));
    return out;
  }
  return text.match(/\s*\S{1,4}|\s+/g) ?? [text];
}

/** Argument deltas: fixed pieces (chunkChars, default 8). */
export const splitArguments = (args: string, chunkChars?: number): string[] => splitDeltas(args, chunkChars ?? 8);
