/**
 * The turns background sessions take at the key's window (pacingQueue.ts): round robin over the
 * sessions' keys, one request of each a round, the session served last at the back. Counted in
 * requests, as the share the gateway's request limit gives; a session that sends bigger prompts
 * spends more of the tokens, which the window's own pacing bounds.
 */

/** What the turns need of a waiting request. */
export interface KeyedWaiter {
  key: string;
}

export class SessionTurns {
  /** The keys in the order they are served next; a key is here only while it has a request waiting or was just served. */
  private rotation: string[] = [];

  /**
   * The background requests in the order they go: the first of each key in rotation order, then the
   * second of each, and so on; within a key, the order given (retries first, then arrival). A key not
   * yet in the rotation joins at its back, behind the sessions that waited before it.
   */
  order<T extends KeyedWaiter>(waiters: readonly T[]): T[] {
    const byKey = new Map<string, T[]>();
    for (const waiter of waiters) {
      const list = byKey.get(waiter.key);
      if (list) list.push(waiter);
      else byKey.set(waiter.key, [waiter]);
    }
    // Keys with nobody waiting leave the rotation: it stays as small as the sessions waiting now.
    this.rotation = this.rotation.filter((key) => byKey.has(key));
    for (const key of byKey.keys()) if (!this.rotation.includes(key)) this.rotation.push(key);
    const ordered: T[] = [];
    for (let round = 0; ordered.length < waiters.length; round++) {
      for (const key of this.rotation) {
        const waiter = byKey.get(key)?.[round];
        if (waiter) ordered.push(waiter);
      }
    }
    return ordered;
  }

  /** A request of `key` went: the key waits behind the others for its next turn. */
  served(key: string): void {
    this.rotation = this.rotation.filter((other) => other !== key);
    this.rotation.push(key);
  }
}
