// Attack (round 20a): a script a hook runs, crafted so that reading its folder options (shellFolders.ts
// folderOptionValue) takes seconds of the extension host's one thread.
//
// commandFolders reads each command's words in turn; at each word that starts with `-d` it spreads the set of every
// program name the command has had so far (`[...programs].some(…)`, to see whether task or just came before). One
// command of a few thousand distinct words followed by ten thousand `-d` words is quadratic: 64 KB (the followed
// file's bound) costs about 1.7 s, and textFolders lexes a text whole and line by line, so a text of two lines is read
// twice. The review follows a hook's `sh tools/s0.sh`, and s0.sh's `sh tools/s1.sh`…, each in the change set: the 5 s
// follow deadline is looked at only between files, so the review runs on past it, in the extension host (no worker),
// for the whole of each file. The review then fails closed (held), but the editor is frozen meanwhile, at the end of
// each such command, by a command that costs the model one line.
// Measured on this project's 2-core machine: six such files chained, 8 s of the event loop blocked in all, 4.4 s at once
// (the test ticks a timer every 20 ms; it asserts no gap of 2 s: with other test files running, the attack's longest
// gap was 5.3 s, the control's 0.8 s).
// Control (passes): the same six files with a plain word `zz` in place of each `-d`: no gap past 200 ms alone.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

/** A shell line that writes `file`: a first line, then one command of 6,000 distinct words and `option` 10,000 times (under 64 KB). */
const crafted = (file: string, first: string, option: string): string =>
  `{ printf '%s\\n' '${first}'; seq -f 'x%g' 1 6000 | tr '\\n' ' '; yes -- '${option}' | head -n 10000 | tr '\\n' ' '; echo; } > ${file}`;

describe('attack: a followed script whose `-d` words make the review quadratic blocks the extension host', async () => {
  if (!(await sandboxHere())) return;
  for (const [option, control] of [
    ['-d', false],
    ['zz', true],
  ] as const) {
    describe(control ? 'control: plain words' : '`-d` words', () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, '#!/bin/sh\nsh tools/s0.sh\n');
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, 'tools'));
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}the review never blocks the event loop 2 s at once`, async () => {
        // The extension host's event loop, as the review runs on it: a tick every 20 ms, each gap past 200 ms counted.
        let last = performance.now();
        let blocked = 0;
        let longest = 0;
        const ticker = setInterval(() => {
          const now = performance.now();
          const gap = now - last - 20;
          if (gap > 200) blocked += gap;
          longest = Math.max(longest, gap);
          last = now;
        }, 20);
        const files = Array.from({ length: 6 }, (_, index) => `tools/s${index}.sh`);
        const command = files.map((file, index) => crafted(file, index + 1 < files.length ? `sh ${files[index + 1]}` : 'true', option)).join(' && ');
        let result;
        try {
          result = await fixture.run(`${command} && wc -c tools/*.sh`, { timeoutMs: 120_000 });
        } finally {
          clearInterval(ticker);
        }
        assert.equal(result.exitCode, 0, result.output);
        assert.ok(
          longest < 2_000,
          `the review blocked the event loop for ${Math.round(blocked)} ms in all (longest ${Math.round(longest)} ms); reviews that held: ${fixture.held.length}`,
        );
      });
    });
  }
});
