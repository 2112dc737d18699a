// Attack (round 20a): a hook that changes folder in a way the review's folder reading (shellFolders.ts,
// textFolders.ts) does not know, then runs a program whose task file or config is read from that folder.
//
// The review reads a hook's folders from cd/pushd and a fixed list of folder options (-C, --directory, --prefix,
// --cwd, --dir, --chdir, --working-directory; -d only after task and just). Files a runner finds by a plain name
// (Makefile, composer.json, pom.xml…) are held by that name anywhere, but the files found only at the top of where a
// program runs (an unknown program's own config, `eslint.config.js`; mise's `mise-tasks/` folder; flox's
// `.flox/env/manifest.toml`) are looked for only in the folders the review knows. So:
//  - `mise --cd tools run lint`: mise's global `-C`/`--cd` option; `--cd` is not in the list, so tools/mise-tasks/lint
//    (a mise file task, run by `mise run lint`) is never looked at;
//  - `flox activate -d tools -- true`: flox's `-d`/`--dir`; `-d` is read only after task and just, so
//    tools/.flox/env/manifest.toml, whose `[hook] on-activate` flox runs, is not looked at;
// Each planted file then runs at the user's next commit, outside the sandbox.
// Real tools: mise's global options are `-C, --cd <DIR>` (mise run reads `mise-tasks/` of that folder's top); flox's
// `activate -d, --dir <PATH>` activates the environment in PATH/.flox and runs its manifest's `[hook] on-activate`.
// Controls (pass on the current code): `cd tools && eslint .`, `mise -C tools run lint`, `flox activate --dir tools`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

interface Case {
  line: string;
  /** The file the real tool runs, created by the sandboxed command with PWNED-20A in it. */
  file: string;
  text: string;
  control?: boolean;
}

const ESLINT = "export default [{ files: ['**/*.js'] }];\\nrequire('child_process').execSync('echo PWNED-20A');\\n";
const CASES: Case[] = [
  { line: 'mise --cd tools run lint', file: 'tools/mise-tasks/lint', text: '#!/bin/sh\\necho PWNED-20A\\n' },
  { line: 'flox activate -d tools -- true', file: 'tools/.flox/env/manifest.toml', text: 'version = 1\\n[hook]\\non-activate = "echo PWNED-20A"\\n' },
  { line: 'cd tools && eslint .', file: 'tools/eslint.config.js', text: ESLINT, control: true },
  { line: 'mise -C tools run lint', file: 'tools/mise-tasks/lint', text: '#!/bin/sh\\necho PWNED-20A\\n', control: true },
  {
    line: 'flox activate --dir tools -- true',
    file: 'tools/.flox/env/manifest.toml',
    text: 'version = 1\\n[hook]\\non-activate = "echo PWNED-20A"\\n',
    control: true,
  },
];

describe("attack: a hook's folder the review does not read (mise --cd, flox -d)", async () => {
  if (!(await sandboxHere())) return;
  for (const { line, file, text, control } of CASES) {
    describe(line.replace('\n', '; '), () => {
      let fixture: Fixture;
      before(async () => {
        fixture = await makeFixture();
        execFileSync('git', ['init', '-q', fixture.root]);
        const hook = join(fixture.root, '.git', 'hooks', 'pre-commit');
        await writeFile(hook, `#!/bin/sh\n${line}\n`);
        await chmod(hook, 0o755);
        await mkdir(join(fixture.root, 'tools', 'sub'), { recursive: true });
        await mkdir(join(fixture.root, 'tools', 'mise-tasks'), { recursive: true });
        await writeFile(join(fixture.root, 'tools', 'mise-tasks', 'lint'), '#!/bin/sh\necho linted\n', { mode: 0o755 });
      });
      after(async () => fixture.remove());

      test(`${control ? 'control: ' : ''}${file}, which the hook's program runs, is held`, async () => {
        const folder = file.slice(0, file.lastIndexOf('/'));
        const result = await fixture.run(`mkdir -p ${folder} && printf '${text}' > ${file}`);
        assert.equal(result.exitCode, 0, result.output);
        const now = await readFile(join(fixture.root, file), 'utf8').catch(() => '');
        assert.ok(
          !now.includes('PWNED-20A'),
          `ESCAPED: ${file}, which the pre-commit hook's "${line}" runs, landed unasked (held: ${JSON.stringify(result.review.moved.map((e) => e.path))})`,
        );
      });
    });
  }
});
