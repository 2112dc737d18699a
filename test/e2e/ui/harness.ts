// A small runner for UI scenarios: named steps that each end with a screenshot, soft
// checks that let a scenario go on and still fail it, one retry of a failed scenario,
// and a report that names the failed step with its screenshot.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import type { Page } from '../lib/browser';
import type { CodeServer } from '../lib/codeServer';
import { REPO_ROOT, SCREENSHOTS_DIR } from '../lib/paths';
import type { Workbench } from '../lib/workbench';
import type { Emulator } from '../../emulator/server';

/** UI screenshots of the last run (the folder is emptied at the start of a run). */
export const UI_SHOTS_DIR = path.join(SCREENSHOTS_DIR, 'ui');

export interface UiContext {
  wb: Workbench;
  page: Page;
  server: CodeServer;
  emulator: Emulator;
  /** The folder the workbench has open. */
  workspace: string;
  /** The key last set through the palette (scenarios set the one they need). */
  key?: string;
}

export interface Scenario {
  /** Short id used in screenshot names, e.g. "1-set-key". */
  id: string;
  title: string;
  /**
   * The layout the scenario starts from, set up before each attempt (a failure there fails the attempt as its
   * set-up): a scenario does not depend on what the ones before it left open or hidden.
   */
  layout?: (ctx: UiContext) => Promise<void>;
  run(ctx: UiContext, s: Steps): Promise<void>;
}

export interface StepRecord {
  name: string;
  description: string;
  screenshot?: string;
  ms: number;
  failures: string[];
  error?: string;
}

export interface ScenarioResult {
  scenario: Scenario;
  passed: boolean;
  attempts: { steps: StepRecord[]; error?: string; ms: number }[];
}

const rel = (file: string) => path.relative(REPO_ROOT, file);
const ANSI_COLOUR = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');
export const log = (msg: string) => console.log(msg);

export class Steps {
  readonly records: StepRecord[] = [];
  private current: StepRecord | undefined;
  private currentShot = '';

  constructor(
    private readonly ctx: UiContext,
    private readonly scenario: Scenario,
    private readonly attempt: number,
  ) {}

  /**
   * Runs one step: `fn` acts and waits for the UI state the step claims; then the
   * screenshot is taken. A throw ends the scenario, with a screenshot of the moment.
   */
  async step(name: string, description: string, fn: () => Promise<void>): Promise<void> {
    const record: StepRecord = { name, description, ms: 0, failures: [] };
    this.records.push(record);
    this.current = record;
    const started = Date.now();
    const shotName = `${this.scenario.id}.${String(this.records.length).padStart(2, '0')}-${name}${this.attempt > 1 ? '.retry' : ''}`;
    this.currentShot = shotName;
    try {
      await fn();
    } catch (err) {
      record.ms = Date.now() - started;
      // Playwright's messages carry a call log with terminal colours: keep the first lines, plain.
      record.error = (err instanceof Error ? err.message : String(err)).replace(ANSI_COLOUR, '').split('\n').slice(0, 6).join('\n');
      record.screenshot = await this.shot(`${shotName}.FAILED`);
      log(
        `    ✗ ${name}: ${description} (${record.ms} ms)\n      ${record.error.replace(/\n/g, '\n      ')}\n      screenshot: ${record.screenshot ? rel(record.screenshot) : '(none)'}`,
      );
      throw new StepError(this.scenario, record);
    } finally {
      this.current = undefined;
    }
    record.ms = Date.now() - started;
    record.screenshot = await this.shot(record.failures.length ? `${shotName}.FAILED` : shotName);
    const mark = record.failures.length ? '✗' : '✓';
    log(`    ${mark} ${name}: ${description} (${record.ms} ms) — ${record.screenshot ? rel(record.screenshot) : 'no screenshot'}`);
    for (const failure of record.failures) log(`      expected: ${failure}`);
  }

  /** A soft check inside a step: recorded, the scenario goes on, and fails at its end. */
  check(ok: unknown, message: string): void {
    if (ok) return;
    if (!this.current) throw new Error(`check outside a step: ${message}`);
    this.current.failures.push(message);
  }

  /**
   * Inside a step: a screenshot of what `selector` matches only (the box around every visible match: a
   * menu and its submenu), `<step shot>.<label>.png`, small enough for the README. Best effort: nothing
   * visible gives no file, never a failed step.
   */
  async crop(label: string, selector: string): Promise<string | undefined> {
    if (!this.current) throw new Error(`crop outside a step: ${label}`);
    const file = path.join(UI_SHOTS_DIR, `${this.currentShot}.${label}.png`);
    try {
      const box = await this.ctx.page.locator(selector).evaluateAll((elements) => {
        const rects = elements.map((el) => el.getBoundingClientRect()).filter((r) => r.width > 0 && r.height > 0);
        if (rects.length === 0) return undefined;
        const x = Math.max(0, Math.min(...rects.map((r) => r.left)) - 4);
        const y = Math.max(0, Math.min(...rects.map((r) => r.top)) - 4);
        const right = Math.min(window.innerWidth, Math.max(...rects.map((r) => r.right)) + 4);
        const bottom = Math.min(window.innerHeight, Math.max(...rects.map((r) => r.bottom)) + 4);
        return { x, y, width: right - x, height: bottom - y };
      });
      if (!box) return undefined;
      await this.ctx.page.screenshot({ path: file, clip: box });
      return file;
    } catch {
      return undefined;
    }
  }

  /** Records a failure outside any step (the scenario's set-up) with a screenshot. */
  async setupFailure(error: string): Promise<string | undefined> {
    const record: StepRecord = { name: 'set-up', description: 'what the scenario needs before its steps', ms: 0, failures: [], error };
    record.screenshot = await this.shot(`${this.scenario.id}.00-set-up${this.attempt > 1 ? '.retry' : ''}.FAILED`);
    this.records.push(record);
    return record.screenshot;
  }

  /** Failures of soft checks so far, as "step: message". */
  softFailures(): string[] {
    return this.records.flatMap((r) => r.failures.map((f) => `${r.name}: ${f}`));
  }

  private async shot(name: string): Promise<string | undefined> {
    const file = path.join(UI_SHOTS_DIR, `${name}.png`);
    try {
      await this.ctx.page.screenshot({ path: file });
      return file;
    } catch {
      return undefined;
    }
  }
}

class StepError extends Error {
  constructor(
    readonly scenario: Scenario,
    readonly record: StepRecord,
  ) {
    super(`${record.name}: ${record.error}`);
  }
}

export function resetScreenshots(): void {
  rmSync(UI_SHOTS_DIR, { recursive: true, force: true });
  mkdirSync(UI_SHOTS_DIR, { recursive: true });
}

export function screenshotCount(): number {
  return readdirSync(UI_SHOTS_DIR).filter((f) => f.endsWith('.png')).length;
}

/**
 * Runs the scenarios in order; a failed one is retried once. `neutral` puts the workbench
 * back to a neutral state before every attempt; each scenario sets up what it needs.
 */
export async function runScenarios(
  ctx: UiContext,
  scenarios: Scenario[],
  neutral: (ctx: UiContext) => Promise<void>,
  // A bound for a scenario that hangs, not a pace: 12-agent-rewind takes 90 s on a quiet
  // machine and twice that beside a CPU hog; every step inside waits on states.
  timeoutMs = 300_000,
): Promise<ScenarioResult[]> {
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios) {
    const result: ScenarioResult = { scenario, passed: false, attempts: [] };
    results.push(result);
    for (let attempt = 1; attempt <= 2 && !result.passed; attempt++) {
      log(`  ${attempt === 1 ? '▶' : '↻'} ${scenario.id}: ${scenario.title}${attempt > 1 ? ' (retry)' : ''}`);
      await neutral(ctx).catch((err: unknown) => log(`    (could not reset the workbench: ${err instanceof Error ? err.message : String(err)})`));
      const steps = new Steps(ctx, scenario, attempt);
      const started = Date.now();
      let error: string | undefined;
      let timer: NodeJS.Timeout | undefined;
      try {
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`scenario timed out after ${timeoutMs / 1000}s`)), timeoutMs);
        });
        const attemptRun = async () => {
          await scenario.layout?.(ctx);
          await scenario.run(ctx, steps);
        };
        await Promise.race([attemptRun(), timeout]);
        const soft = steps.softFailures();
        if (soft.length) error = soft.join('; ');
      } catch (err) {
        error = err instanceof Error ? err.message : String(err);
        if (!(err instanceof StepError)) {
          // A failure in a scenario's set-up (before or between steps): show the moment too.
          const shot = await steps.setupFailure(error);
          log(`    ✗ set-up: ${error.split('\n')[0]}\n      screenshot: ${shot ? rel(shot) : '(none)'}`);
        }
      } finally {
        clearTimeout(timer);
      }
      const ms = Date.now() - started;
      result.attempts.push({ steps: steps.records, error, ms });
      result.passed = error === undefined;
      log(`  ${result.passed ? 'PASS' : 'FAIL'} ${scenario.id} (${(ms / 1000).toFixed(1)} s)${error ? `: ${error.split('\n')[0]}` : ''}`);
    }
  }
  return results;
}

/** The closing report: each scenario, and for a failure the step, what was expected and the screenshot. */
export function printReport(results: ScenarioResult[]): void {
  log('\nUI report');
  for (const { scenario, passed, attempts } of results) {
    const last = attempts[attempts.length - 1];
    const retried = attempts.length > 1 ? ` after a retry (first attempt: ${attempts[0].error?.split('\n')[0]})` : '';
    log(
      `  ${passed ? 'PASS' : 'FAIL'}  ${scenario.id}  ${scenario.title}  [${attempts.map((a) => `${(a.ms / 1000).toFixed(1)} s`).join(' + ')}]${passed ? retried : ''}`,
    );
    if (passed) continue;
    const failedSteps = last.steps.filter((s) => s.error || s.failures.length);
    if (failedSteps.length === 0) log(`        ${last.error ?? '?'}`);
    for (const step of failedSteps) {
      log(`        failed step "${step.name}" (${step.description})`);
      for (const f of step.error ? [step.error] : step.failures) log(`          ${f.replace(/\n/g, '\n          ')}`);
      log(`          screenshot: ${step.screenshot ? rel(step.screenshot) : '(none)'}`);
    }
  }
}
