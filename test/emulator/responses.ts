// POST /v1/responses, and the store behind previous_response_id.
import { promptText, type ConvItem } from './conversation';
import { badValue, previousNotFound, serverError } from './errors';
import type { GenContext } from './generation';
import { deliverJson } from './generation';
import { estimateTokens, hex, nowSec } from './ids';
import { makePlan } from './scripted-model';
import { type OutputItem, type ResponseMeta, Sequencer, errorFrames, finalResponse, outputItems, responseFrames } from './responses-stream';
import { StreamWriter, lastUnterminated, runStream } from './sse';
import { dialectCallId } from './dialects';
import { validateResponses } from './validate-responses';

interface Stored {
  key: string;
  conversation: ConvItem[];
}

export class ResponseStore {
  private readonly map = new Map<string, Stored>();

  get(id: string, key: string): Stored | undefined {
    const s = this.map.get(id);
    return s && s.key === key ? s : undefined;
  }

  set(id: string, stored: Stored): void {
    this.map.set(id, stored);
  }

  clear(): void {
    this.map.clear();
  }
}

/** Every function call needs an output, and every output a call, across the whole conversation. */
function checkToolPairs(previous: ConvItem[], input: ConvItem[]): void {
  const open = new Set<string>();
  const known = new Set<string>();
  const visit = (item: ConvItem, fromInput: boolean): void => {
    if (item.kind === 'call') {
      open.add(item.callId);
      known.add(item.callId);
    } else if (item.kind === 'output') {
      if (fromInput && !known.has(item.callId)) throw badValue('input', `No tool call found for function call output with call_id ${item.callId}.`);
      open.delete(item.callId);
    }
  };
  previous.forEach((item) => visit(item, false));
  input.forEach((item) => visit(item, true));
  if (open.size > 0) throw badValue('input', `No tool output found for function call ${[...open].join(', ')}.`);
}

function conversationOf(output: OutputItem[]): ConvItem[] {
  const items: ConvItem[] = [];
  for (const item of output) {
    if (item.type === 'message') {
      const content = item.content as { text: string }[];
      items.push({ kind: 'message', role: 'assistant', text: content.map((c) => c.text).join('') });
    } else if (item.type === 'function_call') {
      items.push({ kind: 'call', callId: item.call_id as string, name: item.name as string, arguments: item.arguments as string });
    }
  }
  return items;
}

export async function handleResponses(ctx: GenContext, store: ResponseStore): Promise<void> {
  const req = validateResponses(ctx.body);
  ctx.checkModel(req.model, 'responses');
  // Neither provider serves this endpoint: a dialect model keeps its events, with the dialect's call ids and stream end.
  const dialect = ctx.dialectOf(req.model);
  let previous: ConvItem[] = [];
  if (req.previousResponseId !== null) {
    const stored = store.get(req.previousResponseId, ctx.key.key);
    if (!stored) throw previousNotFound(req.previousResponseId);
    previous = stored.conversation;
  }
  checkToolPairs(previous, req.items);
  const conversation = [...previous, ...req.items];
  ctx.checkWindow(req.model, estimateTokens(promptText(conversation, req.instructions ?? undefined)), 'input');
  const fault = ctx.takeFault('responses');
  const turn = ctx.scripts.take(ctx.key.key, req.model, 'responses', req.tools.length > 0);
  const plan = makePlan({
    turn,
    items: conversation,
    instructions: req.instructions,
    tools: req.tools,
    toolChoice: req.toolChoice,
    maxTokens: req.maxOutputTokens,
    defaultDelayMs: ctx.tokenDelayMs,
    newCallId: dialect ? () => dialectCallId(dialect) : undefined,
  });
  const meta: ResponseMeta = { id: `resp_${hex()}`, createdAt: nowSec(), model: req.model, body: ctx.body, previousResponseId: req.previousResponseId };
  const output = outputItems(plan);
  const done = (): void => {
    if (ctx.body.store !== false) store.set(meta.id, { key: ctx.key.key, conversation: [...conversation, ...conversationOf(output)] });
    ctx.succeed(plan.usage.total, plan.usage.input);
  };
  if (!req.stream) {
    if (await deliverJson(ctx, finalResponse(meta, plan, output), fault)) done();
    else if (turn) ctx.scripts.putBack(ctx.key.key, turn);
    return;
  }
  const writer = new StreamWriter(ctx.res, ctx.clock);
  ctx.record.status = 200;
  writer.start(ctx.headers());
  const seq = new Sequencer();
  const frames = responseFrames(seq, meta, plan, output);
  const outcome = await runStream(writer, dialect === 'mistral' ? lastUnterminated(frames) : frames, {
    delayMs: plan.delayMs,
    fault,
    errorFrames: (next) => {
      seq.n = next.seq ?? seq.n;
      return errorFrames(seq, meta, serverError().body);
    },
    malformed: `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","sequence_number":\n\n`,
  });
  if (outcome === 'done') done();
  else if (turn && outcome !== 'aborted') ctx.scripts.putBack(ctx.key.key, turn);
}
