/**
 * The sessions the bytes benchmark measures. The main one is a coding task on
 * real code (a copy of this repository's own sources): explore, read, edit,
 * check, as a code model does it. The synthetic ones isolate how the ratio
 * depends on the size of what each turn adds.
 */
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScriptedTurn } from '../emulator/types';
import type { SessionWorkload } from './sessionBytes';

const repositoryRoot = join(__dirname, '..', '..');

type Call = NonNullable<ScriptedTurn['toolCalls']>[number];

const read = (path: string, startLine?: number, endLine?: number): Call => ({ name: 'read_file', arguments: { path, startLine, endLine } });
const search = (pattern: string, folder?: string, glob?: string): Call => ({ name: 'search_text', arguments: { pattern, folder, glob } });
const run = (command: string): Call => ({ name: 'run_command', arguments: { command } });

/** 30 turns: "add jitter to the retry delays", on a copy of src/ and test/unit/. */
export const retryJitterTask: SessionWorkload = {
  task: 'Add random jitter to the retry delays of the API client, with a test.',
  prepare(root) {
    for (const folder of ['src', 'test/unit']) cpSync(join(repositoryRoot, folder), join(root, folder), { recursive: true });
    const apiFiles = typeScriptFilesIn(root, 'src/gateway/common');
    const agentFiles = typeScriptFilesIn(root, 'src/agent/common');
    const exploring: ScriptedTurn[] = [
      { text: 'Looking at the layout first.', toolCalls: [{ name: 'list_files', arguments: { folder: 'src' } }] },
      { text: 'Where are retries handled?', toolCalls: [search('retry', 'src/gateway/common')] },
      // 11 turns of two files each (22 real files), whatever the folders grow to: the session stays 30 turns.
      ...pairs([...apiFiles, ...agentFiles].slice(0, 22)).map((files) => ({
        text: `Reading ${files.join(' and ')}.`,
        toolCalls: files.map((file) => read(file)),
      })),
      { text: 'Who uses the retry policy?', toolCalls: [search('/retry ?policy/i', undefined, '**/*.ts')] },
      { text: 'Now the tests of the client.', toolCalls: [read('test/unit/gateway/client.test.ts', 1, 200)] },
      { toolCalls: [read('test/unit/gateway/client-errors.test.ts', 1, 200)] },
    ];
    const changing: ScriptedTurn[] = [
      {
        text: 'Adding the jitter option.',
        toolCalls: [insertAfterFirstLines(root, 'src/gateway/common/retryPolicy.ts', '// Jitter spreads the retries of many clients over time.\n')],
      },
      { toolCalls: [insertAfterFirstLines(root, 'src/gateway/common/client.ts', "// Retries use the policy's jittered delays.\n")] },
      { text: 'Checking the change.', toolCalls: [read('src/gateway/common/retryPolicy.ts')] },
      { text: 'Adding a test.', toolCalls: [{ name: 'write_file', arguments: { path: 'test/unit/retry-jitter.test.ts', content: jitterTest } }] },
      { toolCalls: [run('grep -rn "jitter" src test/unit')] },
      { text: 'Running the related checks.', toolCalls: [run('wc -l src/gateway/common/*.ts && grep -rn "delay" src/gateway/common | head -40')] },
    ];
    // Then the VS Code side, a file a turn, until the 30th turn answers.
    const followUps = typeScriptFilesIn(root, 'src/agent/vscode').slice(0, Math.max(0, 29 - exploring.length - changing.length));
    const turns = [
      ...exploring,
      ...changing,
      ...followUps.map((file) => ({ text: `Does ${file} need the option too?`, toolCalls: [read(file)] })),
      { text: 'Done: the retry delays now carry jitter, with a test.' },
    ];
    // The figure is defined at 30 turns: say so when the sources this reads have grown or shrunk past that.
    if (turns.length !== 30) throw new Error(`the real-code session has ${turns.length} turns, not 30: adjust retryJitterTask to the sources`);
    return turns;
  },
};

/** Each turn reads one generated file of `lines` lines (about 26 bytes a line): the ratio as a function of what a turn adds. */
export function oneFilePerTurn(lines: number, turns = 30): SessionWorkload {
  return {
    task: 'Read every module and summarise them.',
    prepare(root) {
      for (let i = 0; i < turns - 1; i++) {
        writeFileSync(join(root, `module${i}.ts`), `export function f${i}(x: number): number {\n${'  x = x * 2 + 1; // step\n'.repeat(lines)}  return x;\n}\n`);
      }
      return [
        ...Array.from({ length: turns - 1 }, (_, i) => ({ text: `Reading module${i}.`, toolCalls: [read(`module${i}.ts`)] })),
        { text: 'All modules read.' },
      ];
    },
  };
}

function typeScriptFilesIn(root: string, folder: string): string[] {
  return readdirSync(join(root, folder))
    .filter((name) => name.endsWith('.ts'))
    .sort()
    .map((name) => `${folder}/${name}`);
}

function pairs<T>(values: T[]): T[][] {
  return Array.from({ length: Math.ceil(values.length / 2) }, (_, i) => values.slice(i * 2, i * 2 + 2));
}

/** An edit as a model writes one: the file's first lines as old_text (unique), the same lines with one added. */
function insertAfterFirstLines(root: string, path: string, added: string): Call {
  const oldText = readFileSync(join(root, path), 'utf8').split('\n').slice(0, 6).join('\n');
  return { name: 'edit_file', arguments: { path, old_text: oldText, new_text: `${oldText}\n${added.trimEnd()}` } };
}

const jitterTest = `import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { decideRetry } from '../../src/gateway/common/retryPolicy';

describe('retry jitter', () => {
  test('delays stay within the jitter band and are not all equal', () => {
    const delays = Array.from({ length: 50 }, () => decideRetry(2, undefined));
    for (const delay of delays) assert.ok(delay >= 0 && delay <= 8_000, String(delay));
    assert.ok(new Set(delays).size > 1);
  });
});
`;
