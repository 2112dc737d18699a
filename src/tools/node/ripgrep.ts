/**
 * The WorkspaceSearch port on ripgrep: VS Code's own `rg` (see ripgrepLocator.ts),
 * or Debian's in the unit tests. It runs as a child process with its arguments
 * as an array (no shell), from the workspace root, and its output is read with
 * bounds: per record, in total, in files listed and in time. Stopping the
 * iteration, or the signal, kills it at once.
 *
 * The flags (ripgrepArgs.ts) give it the walk's rules: the workspace's ignore files at every
 * depth, also outside a git repository, and none above the root nor the
 * user's global one; hidden files; `node_modules` and `.git` always left out;
 * symlinks never followed (no `--follow`); no config file from the environment.
 * The tools check every path it returns again (see tools/common/engineSearch.ts).
 */
import { spawn } from 'node:child_process';
import { systemClock, type Clock } from '../../base/common';
import {
  SearchPatternError,
  type FileMatchCount,
  type FileMatches,
  type FileQuery,
  type SearchBatch,
  type TextMatch,
  type TextQuery,
  type WorkspaceSearch,
} from '../common/searchPorts';
import {
  appliesEveryGlob,
  argumentGroups,
  cannotMatch,
  commonArgs,
  lineOutputArgs,
  noLineBreakNames,
  pathArgument,
  patternArgs,
  restrictionFile,
} from './ripgrepArgs';
import { RipgrepLineReader } from './ripgrepLines';
import { yieldToHost } from '../../base/common';

export interface RipgrepLimits {
  /** All the output one run may write. */
  outputBytes: number;
  /** One JSON record (a matching line and its metadata) or one path. */
  recordBytes: number;
  /** Paths one listing returns. */
  files: number;
  /** How long one run may take. */
  timeMs: number;
}

export const ripgrepLimits: RipgrepLimits = {
  outputBytes: 64 * 1024 * 1024,
  // A matching line of a file at the 1 MB size limit, JSON-escaped, fits.
  recordBytes: 8 * 1024 * 1024,
  files: 200_000,
  timeMs: 30_000,
};

/**
 * Batches are handed on at most this large, so the tools check paths while ripgrep still walks; and
 * checked between two turns of the event loop (2,000 paths of a cold start were a ~20 ms block).
 */
const batchSize = 500;
/** ripgrep's error text kept, for a refused pattern. */
const stderrBytes = 4096;

export class RipgrepSearch implements WorkspaceSearch {
  readonly name: string;

  constructor(
    private readonly rgPath: string,
    private readonly root: string,
    private readonly limits: RipgrepLimits = ripgrepLimits,
    private readonly clock: Clock = systemClock,
  ) {
    this.name = `ripgrep (${rgPath})`;
  }

  async *listFiles(query: FileQuery, signal: AbortSignal): AsyncIterable<SearchBatch<string>> {
    const restriction = await restrictionFile(query);
    try {
      let listed = 0;
      const args = ['--files', '--null', ...commonArgs(query, restriction?.path), '--', pathArgument(query)];
      for await (const batch of this.records(args, 0, signal)) {
        const items = batch.items.flatMap((record) => {
          const path = workspacePath(record);
          return path === undefined ? [] : [path];
        });
        listed += items.length;
        if (listed > this.limits.files) {
          yield { items: items.slice(0, items.length - (listed - this.limits.files)), stopped: `more than ${this.limits.files.toLocaleString('en-US')} files` };
          return;
        }
        yield { items, stopped: batch.stopped };
      }
    } finally {
      await restriction?.remove();
    }
  }

  async *searchFiles(query: TextQuery, wanted: (path: string) => boolean, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatches>> {
    if (cannotMatch(query)) return;
    const restriction = await restrictionFile(query);
    try {
      const args = [
        ...lineOutputArgs,
        '--stats',
        ...patternArgs(query),
        ...commonArgs(query, restriction?.path, { protectedIgnoringCase: true }),
        noLineBreakNames,
      ];
      const reader = new RipgrepLineReader(wanted, workspacePath);
      let records = 0;
      for await (const batch of this.records([...args, '--', pathArgument(query)], 10, signal, (stderr) =>
        records === 0 ? new SearchPatternError(patternReason(stderr)) : undefined,
      )) {
        records += batch.items.length;
        const items = reader.read(batch.items);
        if (batch.stopped !== undefined) {
          yield { items, stopped: batch.stopped };
          return;
        }
        if (items.length > 0) yield { items };
      }
      const last = reader.end();
      yield { items: last ? [last] : [], searched: appliesEveryGlob(query) ? reader.filesSearched : undefined };
    } finally {
      await restriction?.remove();
    }
  }

  async *countMatches(query: TextQuery, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatchCount>> {
    if (cannotMatch(query)) return;
    const restriction = await restrictionFile(query);
    try {
      // Names with a line break are left out, as searchFiles leaves them out.
      const args = ['--count', '--null', ...patternArgs(query), ...commonArgs(query, restriction?.path), noLineBreakNames];
      // `path\0count\n` per file; the output is cut at the NULs (a name never holds one).
      let path: string | undefined;
      let first = true;
      let records = 0;
      for await (const batch of this.records([...args, '--', pathArgument(query)], 0, signal, (stderr) =>
        records === 0 ? new SearchPatternError(patternReason(stderr)) : undefined,
      )) {
        records += batch.items.length;
        const items: FileMatchCount[] = [];
        for (const record of batch.items) {
          // The first record is a path; each later one is the previous path's count, a line break, and the next path.
          const lineBreak = first ? -1 : record.indexOf(10);
          first = false;
          const lines = lineBreak > 0 ? Number(record.subarray(0, lineBreak).toString('latin1')) : NaN;
          if (path !== undefined && Number.isSafeInteger(lines)) items.push({ path, lines });
          path = workspacePath(record.subarray(lineBreak + 1));
        }
        yield { items, stopped: batch.stopped };
      }
    } finally {
      await restriction?.remove();
    }
  }

  async *matchingLines(query: TextQuery, paths: readonly string[], signal: AbortSignal): AsyncIterable<SearchBatch<TextMatch>> {
    // Chosen from countMatches, so no name holds a line break.
    for (const group of argumentGroups(paths.filter((path) => !path.includes('\n')))) {
      const args = [...lineOutputArgs, '--no-config', '--no-messages', ...patternArgs(query)];
      args.push('--', ...group.map((path) => `./${path}`));
      const reader = new RipgrepLineReader(() => true, workspacePath);
      for await (const batch of this.records(args, 10, signal)) {
        const items = reader.read(batch.items).flatMap((file) => file.matches);
        if (batch.stopped !== undefined) {
          yield { items, stopped: batch.stopped };
          return;
        }
        yield { items };
      }
      yield { items: reader.end()?.matches ?? [] };
    }
  }

  /**
   * The records ripgrep writes, split at `separator`, in batches. `refusal`
   * turns an exit with status 2 into the error to throw (or undefined: ignored,
   * as when some file could not be read).
   */
  private async *records(
    args: string[],
    separator: number,
    signal: AbortSignal,
    refusal?: (stderr: string) => Error | undefined,
  ): AsyncGenerator<SearchBatch<Buffer>> {
    signal.throwIfAborted();
    const child = spawn(this.rgPath, args, { cwd: this.root, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true, env: ripgrepEnvironment() });
    const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
    let spawnError: Error | undefined;
    child.once('error', (error) => (spawnError = error));
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderr.length < stderrBytes) stderr += chunk.toString('utf8').slice(0, stderrBytes - stderr.length);
    });
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill, { once: true });
    const timer = new AbortController();
    let stopped: string | undefined;
    this.clock.after(
      this.limits.timeMs,
      () => {
        stopped = `ripgrep ran longer than ${this.limits.timeMs / 1000} s`;
        kill();
      },
      timer.signal,
    );
    try {
      let pending: Buffer = Buffer.alloc(0);
      let total = 0;
      for await (const chunk of child.stdout as AsyncIterable<Buffer>) {
        total += chunk.length;
        if (total > this.limits.outputBytes) {
          stopped = `more than ${this.limits.outputBytes / (1024 * 1024)} MB of results`;
          break;
        }
        const { records, rest } = splitRecords(pending.length === 0 ? chunk : Buffer.concat([pending, chunk]), separator);
        pending = rest;
        if (pending.length > this.limits.recordBytes) {
          stopped = `a result longer than ${this.limits.recordBytes / (1024 * 1024)} MB`;
          break;
        }
        for (let i = 0; i < records.length; i += batchSize) {
          yield { items: records.slice(i, i + batchSize) };
          // Output ripgrep wrote meanwhile is read without a turn of the event loop: the host gets one every batch.
          await yieldToHost();
        }
      }
      if (stopped !== undefined) {
        kill();
        yield { items: [], stopped };
        return;
      }
      const code = await exited;
      signal.throwIfAborted();
      if (spawnError) throw spawnError;
      if (pending.length > 0) yield { items: [pending] };
      if (code === 2) {
        const error = refusal?.(stderr);
        if (error) throw error;
      } else if (code !== 0 && code !== 1) {
        throw new Error(`ripgrep ended with ${code === null ? 'a signal' : `status ${code}`}: ${stderr.trim()}`);
      }
    } finally {
      timer.abort();
      signal.removeEventListener('abort', kill);
      if (child.exitCode === null && child.signalCode === null) kill();
    }
  }
}

/** ripgrep with its defaults: no config file named by the environment (`--no-config` too), no colours. */
function ripgrepEnvironment(): NodeJS.ProcessEnv {
  const { RIPGREP_CONFIG_PATH: _config, ...env } = process.env;
  return env;
}

function splitRecords(buffer: Buffer, separator: number): { records: Buffer[]; rest: Buffer } {
  const records: Buffer[] = [];
  let start = 0;
  for (let end = buffer.indexOf(separator, start); end >= 0; end = buffer.indexOf(separator, start)) {
    if (end > start) records.push(buffer.subarray(start, end));
    start = end + 1;
  }
  return { records, rest: buffer.subarray(start) };
}

/** A path as ripgrep wrote it (`./a/b`), workspace-relative; undefined for a name that is not UTF-8 (or none). */
function workspacePath(raw: Buffer | string): string | undefined {
  if (raw.length === 0) return undefined;
  const text = typeof raw === 'string' ? raw : raw.toString('utf8');
  // Bytes that are not UTF-8 decode to U+FFFD; only then is the name encoded again to compare.
  if (typeof raw !== 'string' && text.includes('\uFFFD') && !Buffer.from(text, 'utf8').equals(raw)) return undefined;
  const path = process.platform === 'win32' ? text.replace(/\\/g, '/') : text;
  return path.startsWith('./') ? path.slice(2) : path;
}

/** ripgrep's reason for refusing a pattern, without its advice about flags the model cannot pass. */
function patternReason(stderr: string): string {
  const text = stderr
    .replace(/^rg: /gm, '')
    .split(/\n\s*\n/)[0]
    .trim();
  const error = /^error: (.+)$/m.exec(text);
  return (error ? error[1] : text.split('\n')[0]).trim() || 'ripgrep refused it';
}
