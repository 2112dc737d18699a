// Attack (round 2): ~/.dotnet is bound back read-only as a toolchain folder, but on Linux .NET keeps the user's
// X.509 store there (~/.dotnet/corefx/cryptography/x509stores/my/<thumbprint>.pfx: certificates WITH their
// private keys, e.g. `dotnet dev-certs https` or any client certificate a program added to CurrentUser\My).
// A sandboxed command reads them: a home-folder secret, which the README says stays covered.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { makeFixture, sandboxHere, type Fixture } from './harness';

const SECRET = 'PFX-PRIVATE-KEY-host-only-2f7a';

describe("attack: the private keys of .NET's X.509 store in a toolchain folder", async () => {
  if (!(await sandboxHere())) return;
  let fixture: Fixture;
  let store: string;
  before(async () => {
    fixture = await makeFixture();
    store = join(fixture.home, '.dotnet', 'corefx', 'cryptography', 'x509stores', 'my');
    await mkdir(store, { recursive: true });
    await writeFile(join(store, '5F3A9C.pfx'), SECRET, { mode: 0o600 });
  });
  after(async () => fixture.remove());

  test('a certificate with its private key in ~/.dotnet cannot be read inside', async () => {
    const result = await fixture.run(`cat ${join(store, '5F3A9C.pfx')}`);
    assert.doesNotMatch(result.output, new RegExp(SECRET), `ESCAPED: the sandboxed command read ${store}/5F3A9C.pfx`);
  });
});
