/**
 * Sessions at once on one key (issue 40), in real time against the emulator's windows (shortened): three
 * background agent sessions sending their next request a tool round (of different lengths) after the last is answered, and chat questions
 * asked meanwhile. What it measures: the 429s (target 0), the chat's extra wait for its first event over the
 * same questions asked alone (target ≤ one request's slot at the window's rate), each session's share of
 * the requests (target within ±20 % of equal). The integration test runs the same workload and checks the 429s.
 */
import { GatewayClient, WatchedSessions } from '../../src/gateway/common';
import { LimitTracker } from '../../src/rateLimits/common/limitTracker';
import { systemClock } from '../../src/base/common/ports';
import { startEmulator } from '../emulator/server';

export interface FairnessOptions {
  /** The emulator's window (a minute in production; shortened so the run takes seconds). */
  windowMs: number;
  /** The key's requests a window. */
  rpm: number;
  /** How long the sessions run. */
  durationMs: number;
  /** Chat questions asked while they run, evenly spread. */
  questions: number;
}

export interface FairnessFigures {
  options: FairnessOptions;
  /** One request's slot at the window's rate: the window over its request limit. */
  slotMs: number;
  tooMany: number;
  /** Answered requests of each session, in order. */
  sessionRequests: number[];
  /** The chat's extra wait for its first event per question: its wait among the sessions less the median alone. */
  chatExtraWaitsMs: number[];
  chatAloneMedianMs: number;
}

const KEY = 'fair-key';
/**
 * Three sessions whose tool rounds take different times between a request's answer and the next request, each short
 * enough that every session wants more than its third of the key (a session that asks for less gets what it asks).
 */
const SESSIONS = [
  { id: 'session-a', toolRoundMs: 0 },
  { id: 'session-b', toolRoundMs: 20 },
  { id: 'session-c', toolRoundMs: 60 },
];

export const BENCH_FAIRNESS: FairnessOptions = { windowMs: 2_000, rpm: 20, durationMs: 12_000, questions: 10 };

export async function measureFairness(options: FairnessOptions): Promise<FairnessFigures> {
  const emulator = await startEmulator({ port: 0, windowMs: options.windowMs, keys: [{ key: KEY, rpm: options.rpm, tpm: 100_000_000 }] });
  try {
    const client = new GatewayClient({
      baseUrl: () => emulator.baseUrl,
      apiKey: { getApiKey: async () => KEY },
      userAgent: 'gateway-vscode-bench/0.0.0',
      clock: systemClock,
      limits: new LimitTracker(systemClock, { requestsPerMinute: options.rpm, tokensPerMinute: 100_000_000 }, options.windowMs),
      // Nobody watches the sessions: they are background, the chat foreground.
      watchedSessions: new WatchedSessions(),
      retry: { maxRetries: 10 },
    });
    const alone: number[] = [];
    for (let i = 0; i < 5; i++) alone.push(await firstChatEvent(client, i));
    await sleep(options.windowMs + 100);
    emulator.reset();
    const aloneMedian = median(alone);
    const deadline = performance.now() + options.durationMs;
    const counts = SESSIONS.map(() => 0);
    const sessions = SESSIONS.map((session, i) => runSession(client, { ...session, deadline }, () => counts[i]!++));
    const waits = await askQuestions(client, options);
    await Promise.all(sessions);
    return {
      options,
      slotMs: options.windowMs / options.rpm,
      tooMany: emulator.requests.filter((request) => request.status === 429).length,
      sessionRequests: counts,
      chatExtraWaitsMs: waits.map((wait) => Math.max(0, wait - aloneMedian)),
      chatAloneMedianMs: aloneMedian,
    };
  } finally {
    await emulator.close();
  }
}

/** An agent-like session: its next request a tool round after the last is answered, until the deadline. */
async function runSession(client: GatewayClient, session: { id: string; toolRoundMs: number; deadline: number }, answered: () => void): Promise<void> {
  const { id: sessionId, toolRoundMs, deadline } = session;
  for (let step = 0; performance.now() < deadline; step++) {
    if (step > 0 && toolRoundMs > 0) await sleep(toolRoundMs);
    const events = client.respondStream(
      { model: 'gw-code', input: `[${sessionId}] step ${step}` },
      { signal: AbortSignal.timeout(60_000), origin: { surface: 'agent', sessionId } },
    );
    for await (const _event of events) {
      // The stream is read to its end, as a session's turn is.
    }
    answered();
  }
}

/** The questions, spread over the sessions' run (not at its very start, when every session's first request goes at once). */
async function askQuestions(client: GatewayClient, options: FairnessOptions): Promise<number[]> {
  const every = options.durationMs / (options.questions + 1);
  const waits: number[] = [];
  for (let i = 0; i < options.questions; i++) {
    await sleep(every);
    waits.push(await firstChatEvent(client, i));
  }
  return waits;
}

/** Milliseconds from asking a chat question to its first text. */
async function firstChatEvent(client: GatewayClient, i: number): Promise<number> {
  const start = performance.now();
  let first: number | undefined;
  const events = client.chatStream(
    { model: 'gw-chat', messages: [{ role: 'user', content: `question ${i}` }] },
    { signal: AbortSignal.timeout(60_000), origin: { surface: 'chat' } },
  );
  for await (const event of events) if (event.type === 'text') first ??= performance.now() - start;
  return first ?? performance.now() - start;
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The largest distance of a share from the equal share, as a fraction of it. */
export function largestShareGap(counts: readonly number[]): number {
  const mean = counts.reduce((sum, n) => sum + n, 0) / counts.length;
  return mean === 0 ? 0 : Math.max(...counts.map((n) => Math.abs(n - mean))) / mean;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
