/**
 * The gateway client: the spec's three operations, streamed and not. Requests
 * are validated before they leave; answers come back as plain typed results or
 * as an async iterable of StreamEvent.
 */
import * as z from 'zod/mini';
import { ChatStreamDecoder } from './chatStreamDecoder';
import { readBoundedText } from './bodyLimits';
import type { Reservation } from '../../rateLimits/common';
import { BalanceError, ProtocolError } from './errors';
import { ResponsesStreamDecoder } from './responsesStreamDecoder';
import { readSse, type StreamDecoder } from './sseReader';
import type { Exchange, RequestSpec } from './exchange';
import { Transport, type TransportOptions } from './transport';
import type { CallOptions, ChatParams, CompletionResult, ModelInfo, RespondParams, StreamEvent, Usage } from './types';
import { normaliseUsage } from './usageCounts';
import type { UsageRecord } from '../../usage/common';
import type { RequestTiming } from '../../telemetry/common';
import { validateChatParams, validateRespondParams } from './validation';
import { chatBody, estimateTokens, respondBody, resultFromChatCompletion, resultFromResponse } from './wireFormat';

export interface GatewayClientOptions extends TransportOptions {
  /**
   * Told of every answered request that reported its usage, once (the usage log records it):
   * counts, model, endpoint and where it came from, never the prompt or the answer; with what the client
   * measured of it (durations, the answering model, cached tokens) for the team's collector.
   */
  onUsage?: (record: UsageRecord, timing: RequestTiming) => void;
}

/** How many responses' sizes are kept for estimating the requests that continue them. */
const REMEMBERED_RESPONSES = 100;

const modelListSchema = z.object({
  data: z.array(z.looseObject({ id: z.string(), owned_by: z.optional(z.string()) })),
});

export class GatewayClient {
  readonly transport: Transport;
  /**
   * Total tokens of recent responses by id: the gateway bills a request with
   * `previous_response_id` for the whole stored conversation, which is about
   * the previous response's total, so pacing must count it too.
   */
  private readonly responseTokens = new Map<string, number>();

  private readonly onUsage: ((record: UsageRecord, timing: RequestTiming) => void) | undefined;

  constructor(options: GatewayClientOptions) {
    this.transport = new Transport(options);
    this.onUsage = options.onUsage;
  }

  /** What the key's limits and balance look like now (for the status bar). */
  get limits() {
    return this.transport.limits;
  }

  async listModels(call: CallOptions): Promise<ModelInfo[]> {
    const { body } = await this.json({ method: 'GET', path: '/models', stream: false, estimatedTokens: 0 }, call);
    const parsed = modelListSchema.safeParse(body);
    if (!parsed.success) throw new ProtocolError('The Gateway answered /models with something that is not a model list.');
    return parsed.data.data.map((model) => ({ id: model.id, ownedBy: model.owned_by ?? '' }));
  }

  async chat(params: ChatParams, call: CallOptions): Promise<CompletionResult> {
    validateChatParams(params);
    const spec = this.spec('/chat/completions', chatBody(params, false), false, params.model);
    const start = this.transport.now();
    const { body, answer } = await this.json(spec, call);
    const result = resultFromChatCompletion(body);
    this.recordUsage(spec, result.usage, answer);
    this.report(spec, call, result.usage, result.finishReason, this.timing(start, undefined, result.model, result.usage));
    return result;
  }

  chatStream(params: ChatParams, call: CallOptions): AsyncIterable<StreamEvent> {
    validateChatParams(params);
    const spec = this.spec('/chat/completions', chatBody(params, true), true, params.model);
    return this.stream(spec, call, (exchange) => new ChatStreamDecoder({ ...exchange.errorContext }));
  }

  async respond(params: RespondParams, call: CallOptions): Promise<CompletionResult> {
    validateRespondParams(params);
    const spec = this.respondSpec(params, false);
    const start = this.transport.now();
    const { body, answer } = await this.json(spec, call);
    const result = resultFromResponse(body);
    this.recordUsage(spec, result.usage, answer);
    this.report(spec, call, result.usage, result.finishReason, this.timing(start, undefined, result.model, result.usage));
    this.rememberResponse(result.id, result.usage);
    return result;
  }

  respondStream(params: RespondParams, call: CallOptions): AsyncIterable<StreamEvent> {
    validateRespondParams(params);
    const spec = this.respondSpec(params, true);
    return this.stream(spec, call, (exchange) => new ResponsesStreamDecoder({ ...exchange.errorContext }));
  }

  private spec(path: string, body: Record<string, unknown>, stream: boolean, model: string): RequestSpec {
    return { method: 'POST', path, body, stream, model, estimatedTokens: estimateTokens(body) };
  }

  /** A responses request, its estimate grown by the stored conversation it continues (when the client saw it). */
  private respondSpec(params: RespondParams, stream: boolean): RequestSpec {
    const spec = this.spec('/responses', respondBody(params, stream), stream, params.model);
    const history = params.previousResponseId === undefined ? undefined : this.responseTokens.get(params.previousResponseId);
    return history === undefined ? spec : { ...spec, estimatedTokens: spec.estimatedTokens + history };
  }

  private rememberResponse(id: string | undefined, usage: Usage | undefined): void {
    if (!id || !usage) return;
    this.responseTokens.delete(id);
    this.responseTokens.set(id, usage.totalTokens);
    // A Map iterates in insertion order: the first key is the oldest.
    if (this.responseTokens.size > REMEMBERED_RESPONSES) this.responseTokens.delete(this.responseTokens.keys().next().value as string);
  }

  private async json(spec: RequestSpec, call: CallOptions): Promise<{ body: unknown; answer: AnswerInfo }> {
    const exchange = await this.transport.send(spec, call);
    try {
      const limit = spec.path === '/models' ? this.transport.bodyLimits.modelListBytes : this.transport.bodyLimits.jsonBytes;
      const what = spec.path === '/models' ? 'model list' : 'answer';
      const text = await readBoundedText(exchange.response.body, limit, what, exchange.touch, exchange.mapReadError);
      try {
        // Redacted once parsed and written back out: a key JSON-escaped in a string (`\u0067w_…`) holds no form of it until decoded.
        return { body: JSON.parse(exchange.redact(JSON.stringify(JSON.parse(text)))), answer: answerInfo(exchange) };
      } catch {
        throw new ProtocolError(`The Gateway answered ${spec.path} with something that is not JSON. Try again.`);
      }
    } finally {
      exchange.release();
    }
  }

  /**
   * Validation fails at the call; gateway errors before the first event come
   * from the first `next()`; nothing is retried after it.
   */
  private stream(spec: RequestSpec, call: CallOptions, makeDecoder: (exchange: Exchange) => StreamDecoder): AsyncIterable<StreamEvent> {
    return readSse(async () => {
      const start = this.transport.now();
      const exchange = await this.transport.send(spec, call);
      const body = exchange.response.body;
      if (!body) {
        exchange.release();
        throw new ProtocolError('The Gateway answered a stream request with an empty body. Try again.');
      }
      let responseId: string | undefined;
      let responseModel: string | undefined;
      let firstChunkAt: number | undefined;
      // Reported once, when both the usage and the finish reason are known (either may come first), or at the close.
      let usage: Usage | undefined;
      let finishReason: string | undefined;
      let reported = false;
      const report = (status: string | undefined) => {
        if (reported || !usage || status === undefined) return;
        reported = true;
        this.report(spec, call, usage, status, this.timing(start, firstChunkAt, responseModel, usage));
      };
      return {
        body,
        decoder: makeDecoder(exchange),
        onActivity: exchange.touch,
        redactor: exchange.redactor,
        maxBytes: this.transport.bodyLimits.streamBytes,
        maxEventChars: this.transport.bodyLimits.eventChars,
        maxEventLines: this.transport.bodyLimits.eventLines,
        maxAnswerChars: this.transport.bodyLimits.answerChars,
        mapReadError: exchange.mapReadError,
        onEvent: (event) => {
          firstChunkAt ??= this.transport.now();
          if (event.type === 'response') {
            responseId = event.id;
            responseModel = event.model ?? responseModel;
          }
          if (event.type === 'done') report((finishReason = event.finishReason));
          if (event.type !== 'usage') return;
          usage = event.usage;
          report(finishReason);
          this.recordUsage(spec, event.usage, answerInfo(exchange));
          // Only stored responses can be continued; chat completion ids would just crowd them out.
          if (spec.path === '/responses') this.rememberResponse(responseId, event.usage);
        },
        // The stream's 200 already recorded the balance as ok; an empty balance can still end it.
        onError: (error) => {
          if (error instanceof BalanceError) this.transport.limits.recordBalance('depleted');
        },
        onClose: () => {
          report('incomplete');
          exchange.release();
        },
      };
    });
  }

  /** The last completed request's size: its model and input tokens (the status bar's tooltip shows it). */
  lastRequest: { model: string | undefined; inputTokens: number } | undefined;

  /** Counts the tokens against the window and logs them with the request (never the prompt). */
  private recordUsage(spec: RequestSpec, usage: Usage | undefined, { requestId, limitHeaders, reservation }: AnswerInfo): void {
    if (!usage) return;
    this.lastRequest = { model: spec.model, inputTokens: usage.inputTokens };
    // Headers on the answer already count the prompt; without them the client's own count is all there is.
    reservation.settle(usage.totalTokens, limitHeaders ? usage.inputTokens : 0);
    this.transport.logger.info(
      `${spec.path} model=${spec.model ?? '-'}${requestId ? ` request-id=${requestId}` : ''} tokens: ` +
        `${usage.inputTokens} in, ${usage.outputTokens} out (${usage.reasoningTokens} reasoning), ${usage.totalTokens} total`,
    );
  }

  /** What the client measured of a request that started at `start` (clock time) and ends now. */
  private timing(start: number, firstChunkAt: number | undefined, responseModel: string | undefined, usage: Usage | undefined): RequestTiming {
    return {
      durationMs: Math.max(0, this.transport.now() - start),
      ...(firstChunkAt === undefined ? {} : { firstChunkMs: Math.max(0, firstChunkAt - start) }),
      ...(responseModel ? { responseModel } : {}),
      ...(usage?.cachedTokens === undefined ? {} : { cachedInputTokens: tokenCount(usage.cachedTokens) }),
    };
  }

  /** Tells the usage listener of an answered request; a listener's failure never fails the request. */
  private report(spec: RequestSpec, call: CallOptions, usage: Usage | undefined, status: string, timing: RequestTiming): void {
    if (!usage || !this.onUsage) return;
    const origin = call.origin ?? { surface: 'lm' as const };
    try {
      this.onUsage(
        {
          kind: 'request',
          time: this.transport.now(),
          model: spec.model ?? '',
          endpoint: spec.path,
          surface: origin.surface,
          ...(origin.sessionId === undefined ? {} : { sessionId: origin.sessionId }),
          input: tokenCount(usage.inputTokens),
          output: tokenCount(usage.outputTokens),
          reasoning: tokenCount(usage.reasoningTokens),
          status: status || 'ok',
        },
        timing,
      );
    } catch (error) {
      this.transport.logger.warn(`usage: the listener failed (${error instanceof Error ? error.message : String(error)})`);
    }
  }
}

/** A count from the gateway as the usage log keeps it: a whole number from 0 (a negative or fractional count would make the line unreadable). */
function tokenCount(value: number): number {
  return Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.round(value)));
}

/** What the usage accounting needs to know of the answer a usage came with. */
interface AnswerInfo {
  requestId: string | undefined;
  limitHeaders: boolean;
  reservation: Reservation;
}

function answerInfo(exchange: Exchange): AnswerInfo {
  return { requestId: exchange.errorContext.requestId, limitHeaders: exchange.limitHeaders, reservation: exchange.reservation };
}

export { normaliseUsage };
