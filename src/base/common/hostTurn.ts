/**
 * A whole turn of the extension host's event loop, for long synchronous work to let the host answer
 * everything else (other extensions' timers and I/O) before it goes on (issue 25: no block over 50 ms).
 */

/**
 * Resolves after the event loop has gone once through its timers and its I/O. One `setImmediate`
 * is not enough: called from an I/O callback (a network read), its callback runs in the same turn
 * of the loop, right after that read, so the two stretches are one block to every timer. An
 * immediate set from inside an immediate runs in the next turn, after the timers and the I/O.
 * setImmediate, not the clock: no time passes, nothing waits (virtual-time tests are unaffected).
 */
export function yieldToHost(): Promise<void> {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
