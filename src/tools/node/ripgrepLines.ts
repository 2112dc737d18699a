/**
 * ripgrep's line output (`--null --line-number --column`) read back a file at a
 * time: `./path\0LINE:COLUMN:TEXT` per matching line, each file's lines written
 * together. The one other record is the warning ripgrep writes after a file's
 * matches when it finds a NUL further on (`./path: WARNING: stopped searching
 * binary file after match …`): that file is binary after all, and dropped, as
 * the count output drops it. Names holding a line break are left out of the
 * search (see ripgrep.ts), so a record is a line and a NUL always ends a name.
 *
 * The lines of a file the caller does not want are passed over without being
 * decoded, which is most of the output when a pattern matches everywhere.
 */
import type { FileMatches, TextMatch } from '../common/searchPorts';

export class RipgrepLineReader {
  private pathBytes: Buffer | undefined;
  private path: string | undefined;
  private wantedNow = false;
  private binary = false;
  private matches: TextMatch[] = [];
  private inStats = false;
  /** From the statistics ripgrep writes last (`--stats`): how many files it searched, binary ones included. */
  filesSearched: number | undefined;

  constructor(
    private readonly wanted: (path: string) => boolean,
    private readonly workspacePath: (raw: Buffer) => string | undefined,
  ) {}

  /** The files that one batch of records completed (a file is complete once the next one starts). */
  read(records: readonly Buffer[]): FileMatches[] {
    const done: FileMatches[] = [];
    for (const record of records) {
      const nul = this.inStats ? -1 : record.indexOf(0);
      if (nul < 0) {
        this.readOther(record);
        continue;
      }
      const pathBytes = record.subarray(0, nul);
      if (this.pathBytes === undefined || !pathBytes.equals(this.pathBytes)) {
        const finished = this.finish();
        if (finished) done.push(finished);
        this.start(pathBytes);
      }
      if (this.wantedNow) this.matches.push(parseLine(record.subarray(nul + 1), this.path as string));
    }
    return done;
  }

  /** The last file, once the output has ended. */
  end(): FileMatches | undefined {
    const finished = this.finish();
    this.pathBytes = undefined;
    return finished;
  }

  private start(pathBytes: Buffer): void {
    this.pathBytes = pathBytes;
    this.path = this.workspacePath(pathBytes);
    this.wantedNow = this.path !== undefined && this.wanted(this.path);
    this.binary = false;
    this.matches = [];
  }

  private finish(): FileMatches | undefined {
    if (this.path === undefined || !this.wantedNow || this.binary || this.matches.length === 0) return undefined;
    return { path: this.path, matches: this.matches };
  }

  /** A line without a NUL: the binary warning after the file's matches, or the statistics, which come last. */
  private readOther(record: Buffer): void {
    const path = this.pathBytes;
    if (!this.inStats && path !== undefined && record.length > path.length && record.subarray(0, path.length).equals(path)) {
      if (record.toString('latin1', path.length, path.length + 11) === ': WARNING: ') {
        this.binary = true;
        return;
      }
    }
    const line = record.toString('latin1', 0, Math.min(record.length, 100));
    if (!this.inStats && /^\d+ matches$/.test(line)) this.inStats = true;
    // Anything else means this ripgrep writes what this reader does not know: the caller searches another way.
    if (!this.inStats) throw new Error("ripgrep wrote a line its line output never holds; the search can't be read");
    const searched = /^(\d+) files searched$/.exec(line);
    if (searched) this.filesSearched = Number(searched[1]);
  }
}

/** `LINE:COLUMN:TEXT` (the column of the first match, in bytes, from 1) as a TextMatch. */
function parseLine(rest: Buffer, path: string): TextMatch {
  const lineEnd = rest.indexOf(58);
  const columnEnd = rest.indexOf(58, lineEnd + 1);
  const line = Number(rest.toString('latin1', 0, lineEnd));
  const column = Number(rest.toString('latin1', lineEnd + 1, columnEnd));
  if (lineEnd <= 0 || columnEnd < 0 || !Number.isSafeInteger(line) || !Number.isSafeInteger(column)) {
    throw new Error("ripgrep wrote a matching line without its number and column; the search can't be read");
  }
  let text = rest.subarray(columnEnd + 1);
  // A CRLF line's CR, as the walk leaves it out (it splits at /\r?\n/).
  if (text.at(-1) === 13) text = text.subarray(0, text.length - 1);
  const start = Math.min(Math.max(column - 1, 0), text.length);
  // The match's byte offset as an index in the decoded text, as the walk reports it.
  return { path, line, text: text.toString('utf8'), column: text.subarray(0, start).toString('utf8').length };
}
