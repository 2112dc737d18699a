// POST /v1/chat/completions
import type { GenContext } from './generation';
import { deliverJson, errorPayload } from './generation';
import { serverError } from './errors';
import { estimateTokens, hex, nowSec } from './ids';
import { promptText } from './conversation';
import { type Plan, makePlan, splitArguments, splitDeltas } from './scripted-model';
import { type Frame, StreamWriter, runStream } from './sse';
import { validateChat } from './validate-chat';
import { checkDialectInput, dialectCallId, dialectCompletion, dialectCompletionId, dialectFrames } from './dialects';

function chatUsage(plan: Plan): Record<string, unknown> {
  const u = plan.usage;
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.total,
    reasoning_tokens: u.reasoning,
    completion_tokens_details: { reasoning_tokens: u.reasoning },
    prompt_tokens_details: { cached_tokens: 0 },
  };
}

function completion(id: string, created: number, model: string, plan: Plan): unknown {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: plan.text || (plan.calls.length > 0 ? null : ''),
    refusal: null,
  };
  if (plan.calls.length > 0) {
    message.tool_calls = plan.calls.map((c) => ({ id: c.callId, type: 'function', function: { name: c.name, arguments: c.arguments } }));
  }
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finish }],
    usage: chatUsage(plan),
  };
}

function* chatFrames(id: string, created: number, model: string, plan: Plan, includeUsage: boolean): Generator<Frame> {
  const chunk = (delta: unknown, finish: string | null = null): string =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  const textFirst = plan.text.length > 0 || plan.calls.length === 0;
  if (textFirst) yield { data: chunk({ role: 'assistant', content: '', refusal: null }) };
  for (const piece of splitDeltas(plan.text, plan.chunkChars)) yield { data: chunk({ content: piece }), content: true };
  for (const [index, call] of plan.calls.entries()) {
    const head = { index, id: call.callId, type: 'function', function: { name: call.name, arguments: '' } };
    yield { data: chunk(index === 0 && !textFirst ? { role: 'assistant', content: null, tool_calls: [head] } : { tool_calls: [head] }) };
    for (const piece of splitArguments(call.arguments, plan.chunkChars)) {
      yield { data: chunk({ tool_calls: [{ index, function: { arguments: piece } }] }), content: true };
    }
  }
  for (const [offset, call] of plan.customCalls.entries()) {
    const custom = { index: plan.calls.length + offset, id: call.callId, type: 'custom', custom: { name: call.name, input: call.input } };
    yield { data: chunk({ tool_calls: [custom] }), content: true };
  }
  yield { data: chunk({}, plan.finish), terminal: true };
  if (includeUsage) {
    yield { data: JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [], usage: chatUsage(plan) }), terminal: true };
  }
  yield { data: '[DONE]', terminal: true };
}

export async function handleChat(ctx: GenContext): Promise<void> {
  const req = validateChat(ctx.body);
  ctx.checkModel(req.model, 'chat');
  const dialect = ctx.dialectOf(req.model);
  if (dialect) checkDialectInput(dialect, ctx.body);
  ctx.checkWindow(req.model, estimateTokens(promptText(req.items)), 'messages');
  const fault = ctx.takeFault('chat');
  const turn = ctx.scripts.take(ctx.key.key, req.model, 'chat');
  const plan = makePlan({
    turn,
    items: req.items,
    tools: req.tools,
    toolChoice: req.toolChoice,
    maxTokens: req.maxTokens,
    defaultDelayMs: ctx.tokenDelayMs,
    newCallId: dialect ? () => dialectCallId(dialect) : undefined,
  });
  const id = dialect ? dialectCompletionId(dialect) : `chatcmpl-${hex()}`;
  const created = nowSec();
  const head = { id, created, model: req.model };
  if (!req.stream) {
    const payload = dialect ? dialectCompletion(dialect, plan, head) : completion(id, created, req.model, plan);
    if (await deliverJson(ctx, payload, fault)) ctx.succeed(plan.usage.total, plan.usage.input);
    else if (turn) ctx.scripts.putBack(ctx.key.key, turn);
    return;
  }
  const writer = new StreamWriter(ctx.res, ctx.clock);
  ctx.record.status = 200;
  writer.start(ctx.headers());
  const frames = dialect ? dialectFrames(dialect, plan, head) : chatFrames(id, created, req.model, plan, req.includeUsage);
  const outcome = await runStream(writer, frames, {
    delayMs: plan.delayMs,
    fault,
    errorFrames: () => [{ data: JSON.stringify(errorPayload(serverError().body)) }],
    malformed: `data: {"id":"${id}","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":\n\n`,
  });
  if (outcome === 'done') ctx.succeed(plan.usage.total, plan.usage.input);
  else if (turn && outcome !== 'aborted') ctx.scripts.putBack(ctx.key.key, turn);
}
