// A tiny mocha-free test runner for the extension host. Host-agnostic: it only uses
// console and promises, so the same bundle runs under code-server (test/e2e/run.ts) and
// under desktop VS Code via @vscode/test-electron.

export type TestFn = () => void | Promise<void>;
interface TestCase {
  name: string;
  fn: TestFn;
  timeoutMs: number;
}

const tests: TestCase[] = [];

/** Registers a test; tests run one after another in registration order. */
export function test(name: string, fn: TestFn, options: { timeoutMs?: number } = {}): void {
  tests.push({ name, fn, timeoutMs: options.timeoutMs ?? 30_000 });
}

function withTimeout(p: Promise<void>, ms: number, name: string): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`test "${name}" timed out after ${ms} ms`)), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

/** Runs all registered tests (or those whose name contains E2E_GREP); rejects if any failed. */
export async function runAll(): Promise<void> {
  const grep = process.env.E2E_GREP;
  const selected = grep ? tests.filter((t) => t.name.includes(grep)) : tests;
  let passed = 0;
  let failed = 0;
  const started = Date.now();
  for (const t of selected) {
    const t0 = Date.now();
    try {
      await withTimeout(Promise.resolve().then(t.fn), t.timeoutMs, t.name);
      passed++;
      console.log(`  ok    ${t.name} (${Date.now() - t0} ms)`);
    } catch (err) {
      failed++;
      const detail = err instanceof Error ? (err.stack ?? err.message) : String(err);
      console.log(`  FAIL  ${t.name} (${Date.now() - t0} ms)\n${detail.replace(/^/gm, '        ')}`);
    }
  }
  console.log(`e2e: ${selected.length} tests in ${Date.now() - started} ms`);
  // The closing line CI reads.
  console.log(`${passed} passed, ${failed} failed`);
  if (failed > 0 || selected.length === 0) {
    throw new Error(selected.length === 0 ? 'no e2e tests ran' : `${failed} e2e test(s) failed`);
  }
}

/** Throws with `message` unless `cond`. */
export function assert(cond: unknown, message: string): asserts cond {
  if (!cond) throw new Error(message);
}

export function assertEqual<T>(actual: T, expected: T, message = 'values differ'): void {
  if (actual !== expected) {
    throw new Error(`${message}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
  }
}
