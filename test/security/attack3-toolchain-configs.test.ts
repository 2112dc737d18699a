// Attack (round 3): toolchain folders bound back into the emptied home folder hold credentials of their own,
// outside the homeSecrets list: npm's *global* config lives in the node install's prefix (`npm config set -g
// //registry/:_authToken=…` writes ~/.nvm/versions/node/<v>/etc/npmrc, or Volta's image), pip's site config in
// the interpreter's prefix (~/.pyenv/versions/<v>/pip.conf, an index URL with user:token), Maven's global
// settings (server passwords) in ~/.sdkman/candidates/maven/<v>/conf/settings.xml, Gradle's installation
// gradle.properties (repository credentials) in ~/.gradle/wrapper/dists/… and sdkman's gradle. A sandboxed
// command reads them: a home-folder secret, which the README says stays covered.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const files: Record<string, string> = {
  '.nvm/versions/node/v20.11.0/etc/npmrc': '//registry.npmjs.org/:_authToken=NPM-GLOBAL-TOKEN-3c1e',
  '.volta/tools/image/node/20.11.0/etc/npmrc': '//npm.pkg.github.com/:_authToken=VOLTA-NPM-TOKEN-77aa',
  '.pyenv/versions/3.11.7/pip.conf': '[global]\nindex-url = https://me:PYPI-TOKEN-9b2d@pypi.corp.example/simple\n',
  '.sdkman/candidates/maven/3.9.6/conf/settings.xml':
    '<settings><servers><server><id>corp</id><password>MAVEN-PASS-51f0</password></server></servers></settings>',
  '.gradle/wrapper/dists/gradle-8.5-bin/abc/gradle-8.5/gradle.properties': 'corpRepoPassword=GRADLE-PASS-e4d2\n',
};

describe('attack: credentials kept in the configs of toolchain folders bound back into the home folder', async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  before(async () => {
    fixture = await makeFixture();
    for (const [path, text] of Object.entries(files)) {
      const full = join(fixture.home, ...path.split('/'));
      await mkdir(dirname(full), { recursive: true });
      await writeFile(full, text, { mode: 0o600 });
    }
  });
  after(async () => fixture.remove());

  for (const [path, text] of Object.entries(files)) {
    const secret = /[A-Z]+(?:-[A-Z]+)*-[0-9a-f]{4}/.exec(text)![0];
    test(`~/${path} cannot be read inside`, async () => {
      const result = await fixture.run(`cat ~/${path}`);
      assert.doesNotMatch(result.output, new RegExp(secret), `ESCAPED: the sandboxed command read ~/${path}`);
    });
  }
});
