/**
 * The API key is bound to the origin (scheme, host, port) it was checked
 * against: a request to any other origin never carries it. A changed base URL
 * therefore needs the user's word (or a new key) before the key goes there.
 */
import { GatewayError } from './errors';

/** A key together with the origin it was checked against. */
export interface BoundKey {
  key: string;
  origin: string;
}

/** `https://host:port` of a URL, or undefined when it is not one. */
export function originOf(url: string): string | undefined {
  // Every request asks for the same base URL's origin: the last answer is kept rather than parsing it again.
  if (lastOrigin?.url !== url) lastOrigin = { url, origin: parseOrigin(url) };
  return lastOrigin.origin;
}

let lastOrigin: { url: string; origin: string | undefined } | undefined;

function parseOrigin(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The base URL now points at another origin than the one the key was checked against: nothing was sent. */
export class KeyOriginError extends GatewayError {
  readonly kind = 'key_origin';
  constructor(
    /** Where the key was checked and may go. */
    readonly keyOrigin: string,
    /** Where "gateway.baseUrl" points now. */
    readonly requestOrigin: string,
  ) {
    super(
      `"gateway.baseUrl" now points at ${requestOrigin}, but the API key was set for ${keyOrigin}, so it was not sent. ` +
        `Run "Gateway: Set API Key" to enter a key for ${requestOrigin}, or confirm that the key may go there.`,
    );
  }
}

/** Throws unless a key bound to `keyOrigin` may be sent to `url`; an unbound key (undefined origin) goes anywhere. */
export function checkKeyOrigin(keyOrigin: string | undefined, url: string): void {
  if (keyOrigin === undefined) return;
  const requestOrigin = originOf(url) ?? url;
  if (requestOrigin !== keyOrigin) throw new KeyOriginError(keyOrigin, requestOrigin);
}

/**
 * "Allow the Key There" from an older error notification, when there is nothing to allow any more: no key stored,
 * no valid `gateway.baseUrl`, or the key already bound to where requests go. Undefined: the question still applies.
 */
export function keyOriginNoLongerApplies(state: { hasKey: boolean; keyOrigin?: string; requestOrigin?: string }): string | undefined {
  if (!state.hasKey) return 'There is no API key stored any more, so there is nothing to allow: set one with "Gateway: Set API Key".';
  if (state.requestOrigin === undefined) return '`gateway.baseUrl` is unset or not a valid address now, so the key goes nowhere: fix the setting first.';
  if (state.keyOrigin === state.requestOrigin)
    return `Your API key already goes to ${state.requestOrigin}: nothing to allow (this button is from an earlier notice).`;
  return undefined;
}
