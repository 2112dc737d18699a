// The emulator's error table (PROTOCOL.md, "Errors").
import type { ApiErrorBody } from './types';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

export function invalid(code: 'missing_required_parameter' | 'invalid_value' | 'invalid_json', param: string | null, message: string): HttpError {
  return new HttpError(400, { type: 'invalid_request_error', code, message, param });
}

export const missing = (param: string): HttpError => invalid('missing_required_parameter', param, `Missing required parameter: '${param}'.`);

export const badValue = (param: string, message: string): HttpError => invalid('invalid_value', param, message);

export function modelNotFound(model: string, why?: string): HttpError {
  const message = why ?? `The model '${model}' does not exist or is not available to this key.`;
  return new HttpError(400, { type: 'invalid_request_error', code: 'model_not_found', message, param: 'model' });
}

export function previousNotFound(id: string): HttpError {
  return new HttpError(400, {
    type: 'invalid_request_error',
    code: 'previous_response_not_found',
    message: `Previous response with id '${id}' not found.`,
    param: 'previous_response_id',
  });
}

export function unauthorized(message = 'Invalid API key. Pass it as "Authorization: Bearer <API_KEY>".'): HttpError {
  return new HttpError(401, { type: 'authentication_error', code: 'invalid_api_key', message, param: null });
}

export function balanceZero(siteUrl: string): HttpError {
  return new HttpError(402, {
    type: 'insufficient_quota',
    code: 'balance_zero',
    message: `Your account balance is zero. Top up at ${siteUrl}/cabinet/billing to continue.`,
    param: null,
  });
}

export function rateLimited(retryAfterSec: number, what: string): HttpError {
  return new HttpError(
    429,
    { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: `Rate limit reached for ${what}. Retry after ${retryAfterSec}s.`, param: null },
    { 'retry-after': String(retryAfterSec) },
  );
}

export function serverError(): HttpError {
  return new HttpError(500, { type: 'server_error', code: 'internal_error', message: 'The server had an error while processing your request.', param: null });
}

export function overloaded(retryAfterSec?: number): HttpError {
  return new HttpError(
    503,
    { type: 'service_unavailable', code: 'upstream_overloaded', message: 'The upstream model is overloaded. Retry in 5 to 30 seconds.', param: null },
    retryAfterSec !== undefined ? { 'retry-after': String(retryAfterSec) } : {},
  );
}

export function notFound(path: string): HttpError {
  return new HttpError(404, { type: 'invalid_request_error', code: 'unknown_url', message: `Unknown request URL: ${path}.`, param: null });
}

/** The input (for previous_response_id: the stored conversation plus the new items) passes the model's window. */
export function contextLengthExceeded(window: number, tokens: number, param: 'input' | 'messages'): HttpError {
  return new HttpError(400, {
    type: 'invalid_request_error',
    code: 'context_length_exceeded',
    message: `This model's maximum context length is ${window} tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
    param,
  });
}
