/**
 * Bursts of concurrent requests against the emulator on virtual time, for the
 * pacing tests and `npm run bench`: how many 429s they met and how close the
 * finish came to the ideal schedule.
 */
import { GatewayClient } from '../../../src/gateway/common';
import { LimitTracker } from '../../../src/rateLimits/common/limitTracker';
import { type ConfiguredLimits } from '../../../src/settings/common/valueSets';
import { type SharedWindow } from '../../../src/rateLimits/common/sharedWindowSync';
import { startEmulator, type Emulator, type KeyConfig } from '../../emulator/server';
import { VirtualClock } from './clock';

export interface BurstRig {
  clock: VirtualClock;
  emulator: Emulator;
  windowMs: number;
  close(): Promise<void>;
}

/** An emulator whose rate window runs on the returned virtual clock. */
export async function startBurstRig(keys: KeyConfig[], windowMs: number): Promise<BurstRig> {
  const clock = new VirtualClock({ wakeTogether: true });
  const emulator = await startEmulator({ port: 0, windowMs, keys, now: () => clock.now() });
  return { clock, emulator, windowMs, close: () => emulator.close() };
}

/** A client as one extension host has it: its own tracker (sharing `shared` when given), on the rig's clock, through the real HTTP stack. */
export function burstClient(rig: BurstRig, key: string, limits: ConfiguredLimits, shared?: SharedWindow): GatewayClient {
  return new GatewayClient({
    baseUrl: () => rig.emulator.baseUrl,
    siteUrl: () => 'https://gateway.example',
    apiKey: { getApiKey: async () => key },
    userAgent: 'gateway-vscode-tests/0.0.0',
    clock: rig.clock,
    fetch: rig.clock.fetchWhole,
    limits: new LimitTracker(rig.clock, limits, rig.windowMs, shared),
    random: () => 0.5,
    // A 429 retried at once would hide nothing: the retry waits Retry-After like the real client.
    retry: { maxRetries: 10 },
  });
}

/**
 * The control: the same requests sent at once with no pacing at all (plain fetch, one try
 * each), as the client did when it counted a request only once its answer arrived.
 */
export async function unpacedBurst(rig: BurstRig, key: string, requests: { path: string; body: unknown }[]): Promise<number[]> {
  const send = ({ path, body }: { path: string; body: unknown }) =>
    rig.clock.fetchWhole(`${rig.emulator.baseUrl}${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
  const answers = await Promise.all(requests.map(send));
  await Promise.all(answers.map((answer) => answer.arrayBuffer()));
  return answers.map((answer) => answer.status);
}

export interface BurstOutcome {
  /** Status of every request the emulator saw, in order. */
  statuses: number[];
  tooMany: number;
  /** Virtual ms from the burst's start to its last answer. */
  elapsedMs: number;
  /** Answered requests in the order the emulator admitted them (by tag). */
  admitted: string[];
}

/** Runs `calls` at once (each tagged) and reports what the emulator saw. */
export async function runBurst(rig: BurstRig, calls: (() => Promise<unknown>)[]): Promise<BurstOutcome> {
  const from = rig.emulator.requests.length;
  const start = rig.clock.now();
  await Promise.all(calls.map((call) => call()));
  const elapsedMs = rig.clock.now() - start;
  const seen = rig.emulator.requests.slice(from);
  const statuses = seen.map((r) => r.status);
  const admitted = seen.filter((r) => r.status === 200).map((r) => tagOf(r.body));
  return { statuses, tooMany: statuses.filter((s) => s === 429).length, elapsedMs, admitted };
}

/** The tag a burst's request carries at the start of its text, so the order of admission can be read back. */
function tagOf(body: unknown): string {
  const text = JSON.stringify(body);
  return /\[(\w+)\]/.exec(text)?.[1] ?? '?';
}

/**
 * The ideal schedule's length: requests go as soon as the window has room, in
 * batches of `perWindow`, each batch one window after the one before.
 */
export function idealMs(requests: number, perWindow: number, windowMs: number): number {
  return (Math.ceil(requests / perWindow) - 1) * windowMs;
}

/** The ideal against the time taken: 1 when equal (a burst that fits at once, done at once, is 1 too). */
export function utilisation(ideal: number, elapsed: number): number {
  return elapsed <= 0 ? (ideal <= 0 ? 1 : Infinity) : ideal / elapsed;
}
