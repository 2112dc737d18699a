// Server-Sent Events output: batched writes with backpressure, client-disconnect detection, delays and stream faults.
import type { ServerResponse } from 'node:http';
import type { EmulatorClock, Fault } from './types';

export interface Frame {
  /** `event:` line (responses streams); chat streams are data-only. */
  event?: string;
  data: string;
  /** A content delta (text, reasoning or arguments): counted for faults, followed by the delay. */
  content?: boolean;
  /** The terminal part of the stream: stream faults strike before it at the latest. */
  terminal?: boolean;
  /** sequence_number carried by the payload (responses streams). */
  seq?: number;
  /** Written without the blank line that ends an event (a provider's last event, as some send it). */
  unterminated?: boolean;
}

/** The same frames, the last one written without its closing blank line. */
export function* lastUnterminated(frames: Iterable<Frame>): Generator<Frame> {
  let held: Frame | undefined;
  for (const frame of frames) {
    if (held) yield held;
    held = frame;
  }
  if (held) yield { ...held, unterminated: true };
}

const FLUSH_AT = 64 * 1024;

export class StreamWriter {
  closed = false;
  private buffer = '';
  private readonly closeWaiters = new Set<() => void>();

  constructor(
    private readonly res: ServerResponse,
    private readonly clock: EmulatorClock,
  ) {
    res.on('close', () => {
      this.closed = true;
      for (const wake of this.closeWaiters) wake();
      this.closeWaiters.clear();
    });
  }

  start(headers: Record<string, string>): void {
    this.res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive', ...headers });
    this.res.flushHeaders();
  }

  push(frame: Frame): void {
    const end = frame.unterminated ? '\n' : '\n\n';
    this.buffer += frame.event ? `event: ${frame.event}\ndata: ${frame.data}${end}` : `data: ${frame.data}${end}`;
  }

  raw(text: string): void {
    this.buffer += text;
  }

  get buffered(): number {
    return this.buffer.length;
  }

  async flush(): Promise<void> {
    const chunk = this.buffer;
    this.buffer = '';
    if (!chunk || this.closed) return;
    if (!this.res.write(chunk)) await this.until('drain');
  }

  /** Resolves on the response event, or when the connection closes. */
  private until(event: 'drain' | 'never'): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.res.off('drain', done);
        this.closeWaiters.delete(done);
        resolve();
      };
      if (event === 'drain') this.res.on('drain', done);
      this.closeWaiters.add(done);
    });
  }

  untilClosed(): Promise<void> {
    return this.until('never');
  }

  /** Resolves after `ms`, or at once when the connection closes. */
  async sleep(ms: number): Promise<void> {
    if (this.closed) return;
    const closed = new AbortController();
    const onClose = (): void => closed.abort();
    this.closeWaiters.add(onClose);
    await this.clock.sleep(ms, closed.signal).catch(() => undefined);
    this.closeWaiters.delete(onClose);
  }

  end(): void {
    const chunk = this.buffer;
    this.buffer = '';
    if (!this.closed) this.res.end(chunk);
  }

  /** Closes the connection after what was written so far, with no proper end of the HTTP body. */
  cut(): void {
    const socket = this.res.socket;
    if (!socket) return;
    socket.end();
    setTimeout(() => socket.destroy(), 1000).unref();
  }
}

export type StreamOutcome = 'done' | 'aborted' | 'cut' | 'stall' | 'error';

export interface RunOptions {
  delayMs: number;
  fault?: Fault;
  /** Frames sent for a 'stream-error' fault, built when it strikes; they take the place of `next`, the frame not sent. */
  errorFrames: (next: Frame) => Frame[];
  /** A line that is not JSON, for a 'malformed' fault. */
  malformed: string;
}

export async function runStream(writer: StreamWriter, frames: Iterable<Frame>, opts: RunOptions): Promise<StreamOutcome> {
  const fault = opts.fault;
  let pending = fault !== undefined && ['cut', 'malformed', 'stall', 'stream-error'].includes(fault.kind);
  const after = fault?.afterDeltas ?? 3;
  let count = 0;
  for (const frame of frames) {
    if (writer.closed) return 'aborted';
    if (pending && ((frame.content && count >= after) || frame.terminal)) {
      pending = false;
      switch (fault!.kind) {
        case 'cut':
          await writer.flush();
          writer.cut();
          return 'cut';
        case 'stall':
          await writer.flush();
          await writer.untilClosed();
          return 'stall';
        case 'stream-error':
          for (const f of opts.errorFrames(frame)) writer.push(f);
          writer.end();
          return 'error';
        default:
          writer.raw(opts.malformed);
      }
    }
    writer.push(frame);
    if (frame.content) {
      count++;
      if (opts.delayMs > 0) {
        await writer.flush();
        await writer.sleep(opts.delayMs);
        continue;
      }
    }
    if (writer.buffered >= FLUSH_AT) await writer.flush();
  }
  if (writer.closed) return 'aborted';
  writer.end();
  return 'done';
}
