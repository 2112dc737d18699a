/**
 * The emulator in a child process (its CLI, test/emulator/main.ts), driven over its control API:
 * the host-cost figures (issue 25) count the CPU time and event-loop blocks of the bench's own
 * process, and an emulator in that process would add its parsing, generation and streaming to
 * what is charged to the extension.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import type { KeyConfig, RecordedRequest, ScriptedTurn } from '../emulator/types';

export interface ChildEmulator {
  readonly baseUrl: string;
  reset(signal: AbortSignal): Promise<void>;
  addKey(key: KeyConfig, signal: AbortSignal): Promise<void>;
  script(key: string, turns: ScriptedTurn[], signal: AbortSignal): Promise<void>;
  requests(signal: AbortSignal): Promise<RecordedRequest[]>;
  close(): Promise<void>;
}

export interface ChildEmulatorOptions {
  rpm: number;
  tpm: number;
  contextWindows?: Record<string, number>;
  signal: AbortSignal;
}

const MAIN = join(__dirname, '..', 'emulator', 'main.ts');

export async function startChildEmulator(options: ChildEmulatorOptions): Promise<ChildEmulator> {
  const windows = Object.entries(options.contextWindows ?? {}).flatMap(([model, tokens]) => ['--context-window', `${model}=${tokens}`]);
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN, '--port', '0', '--rpm', String(options.rpm), '--tpm', String(options.tpm), ...windows], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const baseUrl = await listeningAddress(child, options.signal);
    return childEmulator(child, baseUrl);
  } catch (err) {
    child.kill();
    throw err;
  }
}

/** The address the CLI prints once it listens ("Gateway emulator listening on http://…/v1"). */
async function listeningAddress(child: ChildProcess, signal: AbortSignal): Promise<string> {
  const stdout = child.stdout!;
  const stop = () => stdout.destroy(new Error('the emulator did not start in time', { cause: signal.reason }));
  signal.addEventListener('abort', stop, { once: true });
  let out = '';
  try {
    for await (const chunk of stdout.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      out += chunk.toString('utf8');
      const m = /listening on (\S+)/.exec(out);
      if (m) {
        // Drained from now on, so a full pipe never stalls the emulator.
        stdout.resume();
        return m[1];
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
  }
  throw new Error(`the emulator exited before listening: ${out}`);
}

function childEmulator(child: ChildProcess, baseUrl: string): ChildEmulator {
  const control = new URL('/_emulator/', baseUrl);
  const call = async (route: string, body: unknown, signal: AbortSignal): Promise<unknown> => {
    const res = await fetch(new URL(route, control), {
      method: body === undefined ? 'GET' : 'POST',
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
    const payload: unknown = await res.json();
    if (!res.ok) throw new Error(`emulator ${route}: ${JSON.stringify(payload)}`);
    return payload;
  };
  return {
    baseUrl,
    reset: async (signal) => void (await call('reset', {}, signal)),
    addKey: async (key, signal) => void (await call('keys', key, signal)),
    script: async (key, turns, signal) => void (await call('script', { key, turns }, signal)),
    requests: async (signal) => (await call('requests', undefined, signal)) as RecordedRequest[],
    close: async () => {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
