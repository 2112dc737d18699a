/** What the gateway client needs from its host: the API key and an HTTP exchange. */

/** Where the API key comes from (SecretStorage in VS Code); asked on every request so a new key applies at once. */
export interface ApiKeyProvider {
  getApiKey(signal: AbortSignal): Promise<string | undefined>;
  /**
   * The origin the key was checked against; a request to another origin is
   * refused before it leaves. Absent or undefined: the key is not bound (a key
   * being checked, a test's key).
   */
  keyOrigin?(signal: AbortSignal): Promise<string | undefined>;
}

/** One request as the client sends it: a string body, and redirects never followed (see exchange.ts). */
export interface FetchInit {
  method: string;
  headers: Record<string, string>;
  body?: string;
  signal: AbortSignal;
  redirect: 'manual';
}

/** A body read a chunk at a time; `cancel` stops the download. A web ReadableStream's reader is one. */
export interface FetchBodyReader {
  read(): Promise<{ done: true; value?: Uint8Array | undefined } | { done: false; value: Uint8Array }>;
  cancel(): Promise<void>;
}

/**
 * The part of an answer the client reads. A web `Response` is one, so the global `fetch`
 * fits the port; the extension passes a leaner one over node:http (gateway/node).
 */
export interface FetchAnswer {
  readonly ok: boolean;
  readonly status: number;
  /** The address that answered (for messages). */
  readonly url: string;
  /** 'opaqueredirect' where a fetch hides a redirect answer; anything else otherwise. */
  readonly type?: string;
  readonly headers: { get(name: string): string | null };
  readonly body: { getReader(): FetchBodyReader } | null;
}

/**
 * Sends one request. Rejects with the signal's reason once it aborts; a failure to reach the
 * server rejects with an Error whose `cause` is the system error (its `code`, ECONNREFUSED…), as fetch does.
 */
export type FetchLike = (url: string, init: FetchInit) => Promise<FetchAnswer>;
