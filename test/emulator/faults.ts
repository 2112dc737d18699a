// Fault injection: per-key queues and the x-emulator-fault request header.
import type { Fault, FaultKind } from './types';

export const FAULT_KINDS: readonly FaultKind[] = ['500', '503', '429', 'cut', 'malformed', 'stall', 'stream-error'];
export type FaultEndpoint = 'chat' | 'responses' | 'models';

interface Queued {
  fault: Fault;
  remaining: number;
}

export function checkFault(fault: unknown): Fault {
  const f = fault as Fault;
  if (!f || typeof f !== 'object' || !FAULT_KINDS.includes(f.kind)) throw new Error(`fault.kind must be one of ${FAULT_KINDS.join(', ')}`);
  return f;
}

export class FaultQueues {
  private readonly queues = new Map<string, Queued[]>();

  add(key: string, fault: Fault): void {
    checkFault(fault);
    const queue = this.queues.get(key) ?? [];
    queue.push({ fault: { ...fault }, remaining: Math.max(1, fault.times ?? 1) });
    this.queues.set(key, queue);
  }

  /** Takes one use of the first fault for this endpoint (faults without endpoint hit chat and responses only). */
  take(key: string, endpoint: FaultEndpoint): Fault | undefined {
    const queue = this.queues.get(key);
    if (!queue) return undefined;
    const i = queue.findIndex((q) => (q.fault.endpoint ?? (endpoint === 'models' ? undefined : endpoint)) === endpoint);
    if (i < 0) return undefined;
    const q = queue[i];
    if (--q.remaining <= 0) queue.splice(i, 1);
    return q.fault;
  }

  clear(): void {
    this.queues.clear();
  }
}

/** `x-emulator-fault: <kind>`; takes precedence over the key's queue (which is then left untouched). */
export function faultFromHeader(value: string | string[] | undefined): Fault | undefined {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v) return undefined;
  const kind = v.trim() as FaultKind;
  return FAULT_KINDS.includes(kind) ? { kind } : undefined;
}

/** Faults answered before any generation (a plain error response). */
export const isStatusFault = (f: Fault | undefined): boolean => f !== undefined && (f.kind === '500' || f.kind === '503' || f.kind === '429');
