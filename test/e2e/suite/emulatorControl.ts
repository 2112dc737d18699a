// The emulator's control API, from inside the extension host (the driver starts the emulator
// and passes its base URL in GATEWAY_E2E_EMULATOR).
export const EMULATOR_BASE_URL = process.env.GATEWAY_E2E_EMULATOR ?? 'http://127.0.0.1:4010/v1';
const ROOT = EMULATOR_BASE_URL.replace(/\/v1\/?$/, '');

export interface RecordedRequest {
  method: string;
  path: string;
  key: string | null;
  body: any;
  status: number;
  /** The connection it came on, numbered as they open (kept-alive connections carry several requests). */
  connection: number;
  /** Set on a completed answer: the tokens its usage reported. */
  inputTokens?: number;
  totalTokens?: number;
}

export async function emulatorRequests(): Promise<RecordedRequest[]> {
  const res = await fetch(`${ROOT}/_emulator/requests`);
  return (await res.json()) as RecordedRequest[];
}

export async function resetEmulator(): Promise<void> {
  await fetch(`${ROOT}/_emulator/reset`, { method: 'POST' });
}

export async function scriptTurns(key: string, turns: unknown[]): Promise<void> {
  await fetch(`${ROOT}/_emulator/script`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, turns }) });
}

export async function injectFault(key: string, fault: unknown): Promise<void> {
  await fetch(`${ROOT}/_emulator/fault`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ key, fault }) });
}

/** Polls until `check` returns a value (not undefined/false), or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Switches a model to a provider's dialect (`deepseek`, `mistral`), or back with null; resetEmulator() restores the start's. */
export async function setDialect(model: string, dialect: string | null): Promise<void> {
  const res = await fetch(`${ROOT}/_emulator/dialect`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ model, dialect }),
  });
  if (!res.ok) throw new Error(`setDialect(${model}, ${dialect}): ${res.status} ${await res.text()}`);
}
