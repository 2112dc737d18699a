/** The agent-session folder on disk for the session journal: appends need Node's file system (VS Code's has none). */
import { appendFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { JournalFolder } from '../common/sessionJournal';

export class NodeJournalFolder implements JournalFolder {
  private writes = 0;

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
    // Each write its own temporary file: two saves at once must not rename each other's file away.
    const temporary = this.path(`${name}.${++this.writes}-${Math.random().toString(36).slice(2, 8)}.tmp`);
    await writeFile(temporary, text);
    await rename(temporary, this.path(name));
  }

  async append(name: string, text: string): Promise<void> {
    await appendFile(this.path(name), text);
  }

  async remove(name: string): Promise<void> {
    await rm(this.path(name), { force: true });
  }

  private path(name: string): string {
    if (!/^[A-Za-z0-9_.-]+$/.test(name) || name.includes('..')) throw new Error(`Invalid session file name ${name}`);
    return join(this.folder, name);
  }
}
