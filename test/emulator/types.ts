// Public types of the gateway emulator (see README.md in this folder).

export const ALL_MODELS = ['gw-chat', 'gw-chat-pro', 'gw-chat-mini', 'gw-code'] as const;
/** Models served on /v1/chat/completions; every model is served on /v1/responses. */
export const CHAT_MODELS = ['gw-chat', 'gw-chat-pro', 'gw-chat-mini'];
/** Context windows of the built-in models, in tokens (input as the emulator counts it). */
export const DEFAULT_CONTEXT_WINDOWS: Record<string, number> = { 'gw-chat': 128_000, 'gw-chat-pro': 200_000, 'gw-chat-mini': 32_000, 'gw-code': 128_000 };

/** Time as the emulator reads it: the shape of the client's Clock port, so a test can share one. */
export interface EmulatorClock {
  now(): number;
  /** Resolves after `ms`, or when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/**
 * A provider's way of streaming chat completions, switched on per model: `deepseek` streams
 * `reasoning_content` deltas before the content, usage in the last chunk, and refuses
 * `reasoning_content` in input messages; `mistral` streams `content` as arrays of typed parts
 * (thinking, text), each tool call whole with a 9-character id, and ends without the last blank line.
 */
export type Dialect = 'deepseek' | 'mistral';
export const DIALECTS: readonly Dialect[] = ['deepseek', 'mistral'];

export interface EmulatorOptions {
  /** 0 (default) = a random free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Address of the account web area; default `http://<host>:<port>` (the emulator serves /cabinet/* pages). */
  siteUrl?: string;
  /** Merged over the built-in keys (same key name replaces the built-in). */
  keys?: KeyConfig[];
  /** Defaults for keys that do not set their own: 60 and 200000. */
  rpm?: number;
  tpm?: number;
  /** Sliding rate window in ms, default 60000. */
  windowMs?: number;
  /** The time rate windows and stream delays are counted in (over `now`), default real time; tests pass their virtual clock. */
  clock?: EmulatorClock;
  /** Send x-ratelimit-* headers, default true. */
  rateLimitHeaders?: boolean;
  /** Delay between stream deltas, default 0. */
  tokenDelayMs?: number;
  /**
   * The rate window's clock (epoch ms), default Date.now: a test drives it with the
   * client's virtual clock, so windows pass without real waiting.
   */
  now?: () => number;
  /** Context window per model id, in tokens, over DEFAULT_CONTEXT_WINDOWS; a longer input answers 400 context_length_exceeded. */
  contextWindows?: Record<string, number>;
  /** Models that speak a provider's dialect (model id → dialect); the others speak the plain interface. */
  dialects?: Record<string, Dialect>;
}

export interface KeyConfig {
  key: string;
  /** Balance in tokens; default 1e12. */
  balance?: number;
  /** Default: all four models. */
  models?: string[];
  rpm?: number;
  tpm?: number;
  rateLimitHeaders?: boolean;
}

export interface ScriptedToolCall {
  name: string;
  /** An object is JSON.stringify'd, a string is sent as is. */
  arguments: unknown;
  callId?: string;
}

export interface ScriptedTurn {
  text?: string;
  reasoning?: string;
  /** On /v1/responses a turn with calls is only consumed by a request that declares tools (one without tools, a summary, cannot get calls). */
  toolCalls?: ScriptedToolCall[];
  finishReason?: 'stop' | 'length' | 'content_filter';
  /** Delay between deltas (overrides tokenDelayMs). */
  delayMs?: number;
  /** Delta size in chars; default: word-ish pieces (leading spaces + up to 4 non-space chars). */
  chunkChars?: number;
  /** The text repeated N times (long outputs). */
  repeat?: number;
  /**
   * Calls to tools the request never offered (a provider's own custom tool): on chat completions after the
   * text as `type: 'custom'` tool calls, on responses as `custom_tool_call` items before the message. A client
   * must show them as a note, never run them.
   */
  customToolCalls?: { name: string; input: string }[];
  /** Only consumed by requests for this model. */
  model?: string;
  /** Only consumed by requests on this endpoint. */
  endpoint?: 'chat' | 'responses';
  /**
   * A model that checks a rule: this turn is played only when the conversation
   * so far (instructions and every item, the chain's earlier ones included)
   * contains `text`; otherwise `otherwise` is played in its place.
   */
  requires?: { text: string; otherwise: ScriptedTurn };
}

export type FaultKind = '500' | '503' | '429' | 'cut' | 'malformed' | 'stall' | 'stream-error';

export interface Fault {
  kind: FaultKind;
  /** How many requests it hits; default 1. */
  times?: number;
  /** Seconds, sent as Retry-After for 503 and 429. */
  retryAfter?: number;
  /** For cut/malformed/stall/stream-error: content deltas sent before the fault; default 3. */
  afterDeltas?: number;
  /** Which endpoint consumes it; default: the next chat or responses request (GET /v1/models only takes faults with endpoint 'models'). */
  endpoint?: 'chat' | 'responses' | 'models';
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** The bearer token presented (known or not); null when the header is missing or malformed. */
  key: string | null;
  /** Lower-case names; authorization replaced by 'Bearer ***'. */
  headers: Record<string, string>;
  /** Parsed JSON body; the raw text when it is not JSON; null when empty. */
  body: unknown;
  /** HTTP status sent; 0 when the socket was destroyed before any status. */
  status: number;
  /** The emulator's clock (`now`, default Date.now()) at receipt. */
  time: number;
  /** The connection it came on, numbered 1, 2, … as they open: a kept-alive connection carries several requests. */
  connection: number;
  /** Fault applied to this request, if any. */
  fault?: FaultKind;
  /** Input tokens billed (as the usage reports them), set on a completed answer. */
  inputTokens?: number;
  /** All tokens billed (input and output, as the usage's total reports them), set on a completed answer. */
  totalTokens?: number;
  /** The error answer's `code`, when the emulator answered with an error. */
  errorCode?: string;
}

export interface Emulator {
  /** 'http://127.0.0.1:PORT/v1' */
  baseUrl: string;
  siteUrl: string;
  /** Also destroys open sockets (streams in progress). */
  close(): Promise<void>;
  addKey(cfg: KeyConfig): void;
  /** Appended to that key's FIFO queue. */
  script(key: string, turns: ScriptedTurn[]): void;
  /** Appended to that key's fault queue (consumed one per request). */
  fault(key: string, fault: Fault): void;
  /** Every request received, in order (control requests excluded). */
  requests: RecordedRequest[];
  /** Drops all stored responses. */
  forgetResponses(): void;
  balance(key: string): number;
  /** Switches a model to a provider's dialect, or back to the plain interface with null. */
  setDialect(model: string, dialect: Dialect | null): void;
  /** Clears scripts, faults, request log, rate windows; restores balances and the dialects the emulator started with. */
  reset(): void;
}

export interface ApiErrorBody {
  type: string;
  code: string;
  message: string;
  param: string | null;
}
