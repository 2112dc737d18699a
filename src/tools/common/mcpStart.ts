/**
 * The bounded wait for MCP servers to list their tools: VS Code starts them only for its own
 * chat, so the agent starts them (through the host's `start`) and waits for the tools it needs,
 * never longer than the bound. A server that never starts costs the session that bound, once.
 */
import type { Clock } from '../../base/common';

/** How long the agent waits for MCP servers to list their tools. */
export const MCP_START_TIMEOUT_MS = 20_000;
/** A server just written into mcp.json may be unknown at the first start: asked again this often, this far apart. */
export const MCP_START_ATTEMPTS = 3;
export const MCP_ATTEMPT_GAP_MS = 1_000;

export interface McpWait {
  /** Starts every configured server; resolves when they list their tools (it may never resolve). */
  start(): Promise<void>;
  /** The wanted tools the host does not list now. */
  missing(): readonly string[];
  clock: Clock;
  signal: AbortSignal;
  timeoutMs?: number;
  /**
   * What to wait for before starting again (the host's sign that it knows more servers now); by default
   * a short gap. Given the deadline's signal: it rejects when that aborts.
   */
  beforeNextStart?(signal: AbortSignal): Promise<void>;
}

export interface McpWaitResult {
  missing: readonly string[];
  timedOutAfterMs?: number;
  /** Why the start failed (the command is missing, a refusal), when it did. */
  error?: string;
}

/** Starts, and starts again while wanted tools are missing, within the bound. Never rejects. */
export async function waitForMcpTools(wait: McpWait): Promise<McpWaitResult> {
  const timeoutMs = wait.timeoutMs ?? MCP_START_TIMEOUT_MS;
  const deadline = new AbortController();
  let timedOut = false;
  const onTimeout = () => {
    timedOut = true;
    deadline.abort();
  };
  const onAbort = () => deadline.abort();
  wait.signal.addEventListener('abort', onAbort, { once: true });
  wait.clock.after(timeoutMs, onTimeout, deadline.signal);
  let error: string | undefined;
  try {
    for (let attempt = 0; attempt < MCP_START_ATTEMPTS; attempt++) {
      if (attempt > 0) await (wait.beforeNextStart ? wait.beforeNextStart(deadline.signal) : wait.clock.sleep(MCP_ATTEMPT_GAP_MS, deadline.signal));
      await untilAborted(wait.start(), deadline.signal);
      if (wait.missing().length === 0) break;
    }
  } catch (caught) {
    if (!deadline.signal.aborted) error = caught instanceof Error ? caught.message : String(caught);
  } finally {
    wait.signal.removeEventListener('abort', onAbort);
    deadline.abort();
  }
  return { missing: wait.missing(), ...(timedOut ? { timedOutAfterMs: timeoutMs } : {}), ...(error !== undefined ? { error } : {}) };
}

/** The promise, or a rejection when the signal aborts first (the host's start goes on; we stop waiting). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(new Error('aborted'));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new Error('aborted'));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}
