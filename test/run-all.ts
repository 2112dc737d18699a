// `npm test`: every stage in order (build, lint, unit, end-to-end in VS Code, UI
// checks in the browser, the sandbox), streaming their output, then one closing line with the totals.
import { spawn } from 'node:child_process';

interface Stage {
  name: string;
  command: string;
  args: string[];
  /** Reads passed/failed counts from the stage's output; build and lint have none. */
  counts?: (output: string) => { passed: number; failed: number } | undefined;
}

/** "Retries used: N" (the UI suite retries a failed scenario once): shown in the summary. */
const retriesUsed = (output: string) => /^Retries used: (\d+.*)$/m.exec(output)?.[1];

const nodeTestCounts = (output: string) => {
  const passed = /^ℹ pass (\d+)$/m.exec(output);
  const failed = /^ℹ fail (\d+)$/m.exec(output);
  return passed && failed ? { passed: Number(passed[1]), failed: Number(failed[1]) } : undefined;
};

const closingLineCounts = (output: string) => {
  const matches = [...output.matchAll(/^(\d+) passed, (\d+) failed/gm)];
  const last = matches.at(-1);
  return last ? { passed: Number(last[1]), failed: Number(last[2]) } : undefined;
};

const stages: Stage[] = [
  // First, so every later stage has what it needs: bubblewrap for the unit tests' real sandbox,
  // chromium and code-server for the end-to-end ones (instant when already installed).
  { name: 'setup', command: 'npm', args: ['run', 'e2e:setup'] },
  { name: 'build', command: 'npm', args: ['run', 'build'] },
  { name: 'lint', command: 'npm', args: ['run', 'lint'] },
  { name: 'unit', command: 'npm', args: ['run', 'test:unit'], counts: nodeTestCounts },
  // Real processes, file systems and sockets: races, ripgrep over hundreds of files, recordings byte by byte.
  { name: 'integration', command: 'npm', args: ['run', 'test:integration'], counts: nodeTestCounts },
  // The sandbox attacked for real, as an ordinary user (made with useradd when this runs as root).
  { name: 'security', command: 'npm', args: ['run', 'test:security'], counts: nodeTestCounts },
  { name: 'e2e', command: 'npm', args: ['run', 'test:e2e'], counts: closingLineCounts },
  { name: 'ui', command: 'npm', args: ['run', 'test:e2e:ui'], counts: closingLineCounts },
  // `npm run sandbox` as a person meets it: the note in the window, then the first @gateway answer.
  { name: 'sandbox', command: 'npm', args: ['run', 'sandbox', '--', '--check'], counts: closingLineCounts },
];

function run(stage: Stage): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(stage.command, stage.args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      process.stdout.write(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    child.on('close', (code) => resolve({ code: code ?? 1, output }));
  });
}

async function main(): Promise<number> {
  let passed = 0;
  let failed = 0;
  const summary: string[] = [];
  for (const stage of stages) {
    const started = Date.now();
    console.log(`\n=== ${stage.name}: ${stage.command} ${stage.args.join(' ')}`);
    const { code, output } = await run(stage);
    const counts = stage.counts?.(output);
    if (counts) {
      passed += counts.passed;
      failed += counts.failed;
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    summary.push(
      `${stage.name.padEnd(9)} ${code === 0 ? 'ok    ' : 'FAILED'} ${seconds.padStart(6)} s${counts ? `  ${counts.passed} passed, ${counts.failed} failed` : ''}${retriesUsed(output) ? `, retries used: ${retriesUsed(output)}` : ''}`,
    );
    if (code !== 0 || (stage.counts && !counts)) {
      if (code === 0) summary.push(`${stage.name}: exited 0 but printed no test counts`);
      console.log(`\n${summary.join('\n')}`);
      console.log(`total: ${passed} passed, ${Math.max(failed, 1)} failed`);
      return 1;
    }
  }
  console.log(`\n${summary.join('\n')}`);
  console.log(`total: ${passed} passed, ${failed} failed`);
  return failed === 0 ? 0 : 1;
}

void main().then((code) => process.exit(code));
