/** A session's checkpoint index on disk, read once and kept in memory until something makes the copy stale. */
import type { CheckpointFolder } from '../../base/common';
import { HASH, parseIndex, serializeIndex, type Index } from './checkpointIndex';
import { CheckpointUnavailable } from './checkpointTypes';

export class IndexFile {
  private index: Index | undefined;

  constructor(readonly folder: CheckpointFolder) {}

  async load(signal: AbortSignal): Promise<Index> {
    this.index ??= parseIndex(await this.folder.read('index', signal));
    return this.index;
  }

  async write(index: Index, signal: AbortSignal): Promise<void> {
    await this.folder.writeAtomic('index', serializeIndex(index), signal);
  }

  /** The index on disk changed behind the copy (a journal's index written, a failed stage): read it again next time. */
  forget(): void {
    this.index = undefined;
  }

  /** A blob's text; undefined when it is gone (or the hash is not one). */
  blob(hash: string, signal: AbortSignal): Promise<string | undefined> {
    return HASH.test(hash) ? this.folder.getBlob(hash, signal) : Promise.resolve(undefined);
  }

  async blobOrThrow(hash: string, signal: AbortSignal): Promise<string> {
    const text = await this.blob(hash, signal);
    if (text === undefined) throw new CheckpointUnavailable('A file of that checkpoint is missing from the checkpoint store; nothing was changed.');
    return text;
  }
}
