/** The agent-session folder on disk for the session journal: appends need Node's file system (VS Code's has none). */
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { appendWhole, writeFileAtomic } from '../../base/node';
import type { JournalFolder } from '../../sessionModel/common';

/** The JournalFolder port takes no signal: its writes are short and run to the end. */
const UNTIL_DONE = new AbortController().signal;

export class NodeJournalFolder implements JournalFolder {
  constructor(private readonly folder: string) {}

  async read(name: string): Promise<string | undefined> {
    try {
      return await readFile(this.path(name), 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async writeAtomic(name: string, text: string): Promise<void> {
    await mkdir(this.folder, { recursive: true });
    await writeFileAtomic(this.path(name), text, { signal: UNTIL_DONE, flush: false });
  }

  async append(name: string, text: string): Promise<void> {
    await appendWhole(this.path(name), text, { signal: UNTIL_DONE });
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  private path(name: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes('..')) throw new Error(`Invalid session file name ${name}`);
    return join(this.folder, name);
  }
}
