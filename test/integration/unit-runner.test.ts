// npm run test:unit (test/run-unit.ts) runs several test files in one process: each file's hooks stay its own,
// a failure points at its .ts line, and a file that fails to load or never reaches its end fails the run.
// An integration test: it runs the whole runner twice as a command (tsx, esbuild's service, `node --test` and a
// worker each time), and that start-up is all it costs (2.3 CPU-s); the fixtures stay in test/unit/runner-fixtures.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, test } from 'node:test';

const root = join(__dirname, '..', '..');
const fixture = (name: string) => `test/unit/runner-fixtures/${name}.test.ts`;

/** This process's environment without the mark node:test leaves for its own children (with it, `node --test` runs nothing). */
function testerEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.NODE_TEST_CONTEXT;
  return env;
}

/** Runs the unit runner on `files` in `processes` processes: its exit code and everything it printed. */
function runUnit(files: string[], processes: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/run-unit.ts', ...files], {
      cwd: root,
      env: { ...testerEnv(), GATEWAY_UNIT_TEST_PROCESSES: String(processes) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

describe('the unit runner', { concurrency: true }, () => {
  test('files sharing a process: own hooks, failures at their .ts lines, a file that cannot load counted as failed', async () => {
    const { code, output } = await runUnit([fixture('hooks-a'), fixture('hooks-b'), fixture('fails'), fixture('throws-at-load')], 1);
    assert.equal(code, 1, output);
    assert.match(output, /^ℹ tests 4$/m, output);
    assert.match(output, /^ℹ pass 2$/m, output);
    assert.match(output, /^ℹ fail 2$/m, output);
    assert.match(output, /^test at test\/unit\/runner-fixtures\/fails\.test\.ts:5:1$/m, output);
    assert.match(output, /\(\S*test\/unit\/runner-fixtures\/fails\.test\.ts:6:10\)/, output);
    assert.match(output, /Error: this file cannot load\n\s+at load \(\S*test\/unit\/runner-fixtures\/throws-at-load\.test\.ts:5:9\)/, output);
  });

  test('a file whose process ends before the file does fails the run, by name', async () => {
    const { code, output } = await runUnit([fixture('exits')], 1);
    assert.equal(code, 1, output);
    assert.match(output, /ending the process now/, 'the file ran');
    assert.match(output, /^✖ test\/unit\/runner-fixtures\/exits\.test\.ts did not run to its end/m, output);
  });
});
