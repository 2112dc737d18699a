/**
 * NodeCheckpointFolder.blobSizes remembers the sizes it has seen (a capture no longer stats every
 * blob of the session): what it reports must still be what is on disk when another window, or the
 * retention pass, adds or removes blobs in the same folder behind its back.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { NodeCheckpointFolder } from '../../../src/checkpoints/node/nodeCheckpoints';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'gateway-blob-sizes-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const signal = AbortSignal.timeout(10_000);

test('blobSizes lists the blobs on disk with their sizes, those put or removed by another folder object too', async () => {
  const mine = new NodeCheckpointFolder(dir);
  const other = new NodeCheckpointFolder(dir);
  const a = await mine.putBlob('alpha', signal);
  const b = await mine.putBlob('bravo!', signal);
  assert.deepEqual(
    [...(await mine.blobSizes(signal))].sort(),
    [
      [a.hash, 5],
      [b.hash, 6],
    ].sort(),
  );

  const c = await other.putBlob('charlie, longer', signal);
  await other.removeBlob(a.hash, signal);
  const seen = await mine.blobSizes(signal);
  assert.deepEqual(
    [...seen].sort(),
    [
      [b.hash, 6],
      [c.hash, 15],
    ].sort(),
  );

  // Put again by the other window after this one forgot it: listed again, with its size.
  await other.putBlob('alpha', signal);
  assert.equal((await mine.blobSizes(signal)).get(a.hash), 5);
  await mine.removeBlob(b.hash, signal);
  assert.equal((await other.blobSizes(signal)).has(b.hash), false);
});
