/**
 * One error class per failure a user must tell apart. Every message says what to
 * do next, and none ever contains the API key.
 */

export abstract class GatewayError extends Error {
  abstract readonly kind: string;
  /** HTTP status when the gateway answered with one. */
  readonly status: number | undefined;
  /** The gateway's `x-request-id`, for support requests. */
  readonly requestId: string | undefined;
  /** Whatever text had streamed before the failure: never thrown away. */
  partialText = '';

  constructor(message: string, options: { status?: number; requestId?: string; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.name = new.target.name;
    this.status = options.status;
    this.requestId = options.requestId;
  }
}

/** No key has been stored yet. */
export class MissingApiKeyError extends GatewayError {
  readonly kind = 'missing_api_key';
  constructor() {
    super('No Gateway API key is set. Run "Gateway: Set API Key" to add one.');
  }
}

/** 401: the key is wrong, revoked or malformed. */
export class AuthError extends GatewayError {
  readonly kind = 'auth';
}

/** 402: the account's balance is zero. */
export class BalanceError extends GatewayError {
  readonly kind = 'balance';
  constructor(
    message: string,
    readonly billingUrl: string,
    options: { status?: number; requestId?: string } = {},
  ) {
    super(message, options);
  }
}

/** 429 once retries are exhausted or the wait is longer than the caller allows. */
export class RateLimitError extends GatewayError {
  readonly kind = 'rate_limit';
  constructor(
    message: string,
    /** How long the gateway asked us to wait. */
    readonly retryAfterMs: number,
    options: { status?: number; requestId?: string } = {},
  ) {
    super(message, options);
  }
}

/**
 * A wait for the rate limit longer than the client waits (a Retry-After of years, a date far
 * ahead): this request fails at once, and nothing is held back for the requests after it.
 */
export class RateLimitWaitTooLongError extends RateLimitError {
  constructor(
    message: string,
    retryAfterMs: number,
    /** The longest wait the client accepts. */
    readonly maxWaitMs: number,
    options: { status?: number; requestId?: string } = {},
  ) {
    super(message, retryAfterMs, options);
  }
}

/** 400: the gateway refused the request body; `param` names the field. */
export class BadRequestError extends GatewayError {
  readonly kind: string = 'bad_request';
  constructor(
    message: string,
    readonly param: string | null,
    readonly code: string | null,
    options: { status?: number; requestId?: string } = {},
  ) {
    super(message, options);
  }
}

/** 400 model_not_found: the key may not use this model, or this endpoint does not serve it. */
export class ModelNotFoundError extends BadRequestError {
  override readonly kind = 'model_not_found';
  /** The model the request asked for, when known: it decides which picker fixes this. */
  model?: string;
}

/** 400 previous_response_not_found: the gateway lost the stored session; the caller replays its transcript. */
export class PreviousResponseNotFoundError extends BadRequestError {
  override readonly kind = 'previous_response_not_found';
}

/**
 * 400 context_length_exceeded: the request (for a chain, the stored conversation plus the new items)
 * is longer than the model's context window. `contextWindow` is the window the gateway named, when it did.
 */
export class ContextLengthExceededError extends BadRequestError {
  override readonly kind = 'context_length_exceeded';
  /** The model the request asked for, when known: the window learned belongs to it. */
  model?: string;
  contextWindow?: number;
}

/** A request that failed our own checks before it was sent (no round trip). */
export class InvalidRequestError extends GatewayError {
  readonly kind = 'invalid_request';
  constructor(
    message: string,
    readonly param: string,
  ) {
    super(message);
  }
}

/** 5xx after the retries the spec allows. */
export class ServerError extends GatewayError {
  readonly kind = 'server';
}

/** 404 or another answer that means the base URL does not point at the gateway. */
export class EndpointError extends GatewayError {
  readonly kind: string = 'endpoint';
}

/**
 * The gateway's address answered with a redirect (301, 302, 303, 307, 308). It
 * is never followed: a 307/308 would send the conversation on to wherever it
 * points, plain http included, and the spec names no redirect to follow.
 */
export class RedirectRefusedError extends EndpointError {
  override readonly kind = 'redirect';
  constructor(
    message: string,
    /** Where the redirect pointed (scheme, host, port), when it said and could be read. */
    readonly targetOrigin: string | undefined,
    options: { status?: number; requestId?: string } = {},
  ) {
    super(message, options);
  }
}

/** The gateway could not be reached at all (DNS, refused connection, TLS). */
export class ConnectionError extends GatewayError {
  readonly kind = 'connection';
}

/** The stream ended, or broke, before its terminal event. */
export class StreamInterruptedError extends GatewayError {
  readonly kind: string = 'stream_interrupted';
}

/** The stream sent nothing for longer than the idle timeout. */
export class StreamTimeoutError extends StreamInterruptedError {
  override readonly kind = 'stream_timeout';
}

/** The stream carried something that is not the protocol (a payload that is not JSON, a delta of the wrong type). */
export class ProtocolError extends StreamInterruptedError {
  override readonly kind = 'protocol';
}

/**
 * The answer grew past what any real answer reaches (a body of hundreds of
 * megabytes, a gzip bomb, a stream that never ends): reading stopped there, so
 * memory stays bounded. Whatever text streamed before is kept in partialText.
 */
export class ResponseTooLargeError extends GatewayError {
  readonly kind = 'too_large';
  constructor(
    message: string,
    /** The bound that was passed, in bytes (or characters of answer text). */
    readonly limit: number,
  ) {
    super(message);
  }
}

/** The caller cancelled. */
/**
 * A background request (key check, model-list refresh) was not sent: a request the user
 * made waits for the key's limits, or the window is full. Nothing was spent; callers go on without it.
 */
export class BackgroundSkippedError extends GatewayError {
  readonly kind = 'background_skipped';
  constructor(
    message: string,
    /** The epoch ms it might fit, when known. */
    readonly until: number | undefined,
  ) {
    super(message);
  }
}

/**
 * So many requests already wait for the key's rate limit that this one was not queued: something sends
 * in a loop (many sessions, another extension). Nothing was sent; trying again once the queue drains works.
 */
export class PacingQueueFullError extends GatewayError {
  readonly kind = 'pacing_queue_full';
  constructor(readonly waiting: number) {
    super(
      `${waiting} requests already wait for this key's rate limit, so this one was not sent. ` +
        'Stop a session or wait until the requests before it have gone, then try again.',
    );
  }
}

export class AbortError extends GatewayError {
  readonly kind = 'aborted';
  constructor(message = 'The request was cancelled.') {
    super(message);
  }
}
