/** What the gateway client needs from its host: the API key and a fetch. */

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

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;
