// Attack (round 17): the home folder's credential files, kept in the workspace and linked from the home folder.
// README (Security): "the home folder … [is] empty …, and the protected files and the known credential files are
// covered". The known credential files are homeSecrets (sandbox.ts: `.kube`, `.config/gh`, `.docker/config.json`,
// `.gnupg`, `.azure`, `.password-store`…), covered at their path in the home folder. A dotfiles setup keeps them in
// a repository and links them there (`ln -s ~/dotfiles/kube ~/.kube`, GNU stow, `dotbot`): the credential the
// kubectl and gh of the user read IS the workspace's file. bubblewrap.ts `existing()` finds `~/.kube` (stat follows
// the link), but bwrap's `--tmpfs ~/.kube` lands in the already emptied home folder, where the link is gone: it
// covers nothing, and the file itself sits in the workspace under a name no protected pattern matches (`kube/config`,
// `gh/hosts.yml`: `.aws/credentials` and `.ssh` are the only such folders in gateway.agent.protectedFiles).
// So a dotfiles workspace gives a sandboxed command the user's cluster token and GitHub token. The same holds for a
// credential folder linked to a disk outside the home folder (`~/.azure -> /data/azure`): `/` is bound read-only.
// Control: the same files as real folders of the home folder are covered (`cat ~/.kube/config` reads nothing).
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const KUBE = 'users:\n- name: admin\n  user:\n    token: kube-admin-token-0123456789\n';
const GH = 'github.com:\n  oauth_token: gho_0123456789abcdef\n';

describe("attack: the home folder's credential files linked into the workspace", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let outside: string;
  before(async () => {
    fixture = await makeFixture();
    // The workspace is the dotfiles repository; the home folder links its credential folders there.
    await mkdir(join(fixture.root, 'kube'), { recursive: true });
    await mkdir(join(fixture.root, 'gh'), { recursive: true });
    await writeFile(join(fixture.root, 'kube', 'config'), KUBE);
    await writeFile(join(fixture.root, 'gh', 'hosts.yml'), GH);
    await symlink(join(fixture.root, 'kube'), join(fixture.home, '.kube'));
    await mkdir(join(fixture.home, '.config'), { recursive: true });
    await symlink(join(fixture.root, 'gh'), join(fixture.home, '.config', 'gh'));
    // A credential folder kept on another disk (outside the home folder and /tmp, which the sandbox replaces).
    outside = await mkdtemp('/var/tmp/gw-azure-');
    await writeFile(join(outside, 'msal_token_cache.json'), '{"AccessToken":{"x":{"secret":"azure-access-token-0123"}}}\n');
    await symlink(outside, join(fixture.home, '.azure'));
    // The control: a real home-folder credential file, as homeSecrets covers it.
    await mkdir(join(fixture.home, '.docker'), { recursive: true });
    await writeFile(join(fixture.home, '.docker', 'config.json'), '{"auths":{"x":{"auth":"docker-secret-auth"}}}\n');
  });
  after(async () => {
    await fixture.remove();
    await rm(outside, { recursive: true, force: true });
  });

  test('control: a credential file of the home folder is covered', async () => {
    const result = await fixture.run(`cat ~/.docker/config.json ${fixture.home}/.docker/config.json 2>&1; echo "[end]"`);
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(result.output, /docker-secret-auth/, `control: ${result.output}`);
  });

  test('~/.azure, linked to a folder outside the home folder, is covered', async () => {
    const result = await fixture.run(`cat ${outside}/msal_token_cache.json 2>&1; echo "[end]"`);
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(
      result.output,
      /azure-access-token/,
      `a sandboxed command read the user's Azure token cache (~/.azure) where its link leads: ${result.output}`,
    );
  });

  test('~/.kube/config and ~/.config/gh/hosts.yml, linked into the workspace, are covered', async () => {
    const result = await fixture.run(`cat kube/config gh/hosts.yml 2>&1; echo "[end]"`);
    assert.match(result.output, /\[end\]/, result.output);
    assert.doesNotMatch(
      result.output,
      /kube-admin-token|gho_0123/,
      `a sandboxed command read the user's kubectl and gh credentials (~/.kube/config, ~/.config/gh/hosts.yml) through the workspace: ${result.output}`,
    );
  });
});
