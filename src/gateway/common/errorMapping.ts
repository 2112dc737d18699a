/**
 * Turns the gateway's error answers (HTTP bodies and in-stream error events) into
 * the typed errors of errors.ts, with messages that say what to do.
 */
import * as z from 'zod/mini';
import { windowFromErrorText } from './contextWindowError';
import {
  AuthError,
  BadRequestError,
  BalanceError,
  ContextLengthExceededError,
  EndpointError,
  GatewayError,
  ModelNotFoundError,
  PreviousResponseNotFoundError,
  RateLimitError,
  ServerError,
} from './errors';
import { redact } from './redaction';

export { redact };

const wireErrorSchema = z.looseObject({
  type: z.nullish(z.string()),
  code: z.nullish(z.union([z.string(), z.number()])),
  message: z.nullish(z.string()),
  param: z.nullish(z.string()),
});

export type WireError = z.output<typeof wireErrorSchema>;

/** Accepts `{error: {...}}` and the older flat shape with the four fields at the top. */
export function parseWireError(body: unknown): WireError {
  const nested = z.object({ error: wireErrorSchema }).safeParse(body);
  if (nested.success) return nested.data.error;
  const flat = wireErrorSchema.safeParse(body);
  return flat.success ? flat.data : {};
}

export interface ErrorContext {
  status?: number;
  requestId?: string;
  /** `{site_url}`: the account area with the billing and limits pages. */
  siteUrl: string;
  model?: string;
  retryAfterMs?: number;
  /** Secrets that must never appear in a message (the key). */
  redact: readonly string[];
}

export function errorFromWire(wire: WireError, ctx: ErrorContext): GatewayError {
  const status = ctx.status ?? statusFromWire(wire);
  const code = wire.code == null ? null : String(wire.code);
  const serverText = redact(wire.message ?? '', ctx.redact).trim();
  const meta = { status: ctx.status, requestId: ctx.requestId };
  const site = ctx.siteUrl.replace(/\/+$/, '');

  if (status === 401) {
    return new AuthError('The Gateway rejected the API key (401). Run "Gateway: Set API Key" and enter a valid key.', meta);
  }
  if (status === 402 || code === 'balance_zero' || wire.type === 'insufficient_quota') {
    const billingUrl = `${site}/cabinet/billing`;
    return new BalanceError(`Your Gateway balance is empty. Top up at ${billingUrl}, then try again.`, billingUrl, meta);
  }
  if (status === 429) {
    const seconds = Math.max(1, Math.ceil((ctx.retryAfterMs ?? 1000) / 1000));
    return new RateLimitError(
      `The Gateway's rate limit was reached (requests or tokens per minute). Wait ${seconds} s and try again; ` + `your limits are at ${site}/cabinet/limits.`,
      ctx.retryAfterMs ?? 1000,
      meta,
    );
  }
  if (status === 400 || status === 422 || (status === undefined && wire.type === 'invalid_request_error')) {
    return badRequest(wire, code, serverText, ctx, meta);
  }
  if (status === 404) {
    return new EndpointError(
      `The Gateway answered 404 Not Found. Check the "gateway.baseUrl" setting: it should be the gateway's address ending in /v1.`,
      meta,
    );
  }
  if (status === 503) {
    return new ServerError('The Gateway is overloaded (503) and did not recover after retrying. Try again in a minute.', meta);
  }
  const what = status === undefined ? 'reported an error' : `failed (${status})`;
  const detail = serverText ? `: ${serverText}` : '';
  return new ServerError(`The Gateway ${what}${detail}. Try again shortly.`, meta);
}

function badRequest(
  wire: WireError,
  code: string | null,
  serverText: string,
  ctx: ErrorContext,
  meta: { status?: number; requestId?: string },
): BadRequestError {
  const param = wire.param == null ? null : redact(wire.param, ctx.redact);
  if (code === 'model_not_found') {
    const model = ctx.model ? `"${ctx.model}"` : 'The model';
    const error = new ModelNotFoundError(
      `${model} is not available to this key here. Pick another with "Gateway: Select Chat Model" (or "Gateway: Select Agent Model" for agent sessions).` +
        (serverText ? ` (${serverText})` : ''),
      param,
      code,
      meta,
    );
    error.model = ctx.model;
    return error;
  }
  if (code === 'previous_response_not_found') {
    return new PreviousResponseNotFoundError('The Gateway no longer has this session; it must be sent again in full.', param, code, meta);
  }
  if (code === 'context_length_exceeded') {
    const window = windowFromErrorText(serverText);
    const error = new ContextLengthExceededError(
      `The conversation is longer than ${ctx.model ? `"${ctx.model}"` : 'the model'}'s context window${window ? ` (${window.toLocaleString('en-US')} tokens)` : ''}. Start a new conversation, or set its window in "gateway.models".`,
      param,
      code,
      meta,
    );
    error.model = ctx.model;
    error.contextWindow = window;
    return error;
  }
  const where = param ? ` (parameter "${param}")` : '';
  return new BadRequestError(
    `The Gateway rejected the request${where}: ${serverText || 'bad request'}. Check that setting or input and try again.`,
    param,
    code,
    meta,
  );
}

function statusFromWire(wire: WireError): number | undefined {
  switch (wire.type) {
    case 'authentication_error':
      return 401;
    case 'insufficient_quota':
      return 402;
    case 'rate_limit_error':
      return 429;
    case 'invalid_request_error':
      return 400;
    case 'service_unavailable':
      return 503;
    default:
      return undefined;
  }
}
