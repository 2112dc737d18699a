/**
 * search_text on a WorkspaceSearch engine (ripgrep), answering as the walk in
 * searchText.ts does: the first matches in the walk's tree order, paths checked
 * again (see searchPathChecks.ts), files open with unsaved changes matched on their
 * text, hard-linked files left out, and, under the limit, how many files were
 * searched and how many were too large to be.
 *
 * One run of the engine finds the matching lines, the first ones in tree order
 * kept as they come (see FirstMatches); two listings beside it, every file and
 * the files small enough to search, give the counts, and are reused for a few
 * seconds (an agent searches often). When that run's output passes its bounds,
 * or hard links leave a gap in what it kept, the search is done in two steps:
 * how many lines match in each file, then the lines of the files chosen.
 *
 * What the engine does differently, by design: it does not follow symlinks, so
 * a symlink inside the workspace is neither listed nor searched (the walk lists
 * one that stays inside, and searches it when it leads to a file); a hard-linked
 * file is counted only when it has matches (the walk stats every file); a NUL
 * anywhere makes a file binary for ripgrep (in its first 8,000 characters for
 * the walk); `\d`, `\w` and `\b` also match non-ASCII digits and letters in
 * ripgrep's regex syntax (ASCII only in RE2's); a file whose name holds a line
 * break is not searched.
 */
import type { Clock, WorkspaceFiles } from '../../base/common';
import { type TextMatch, type TextQuery, type WorkspaceSearch, SearchPatternError } from './searchPorts';
import { looksBinary } from '../../base/common';
import type { PathVerdicts } from './searchPathChecks';
import { SearchListings, type Listed } from './searchListings';
import { FirstMatches, compareTreeOrder } from './treeOrder';

/** What a search through the engine found, before it is written out. */
export interface EngineFindings {
  /** In tree order, at most `limit + 1` (one more says there are more). */
  matches: TextMatch[];
  /** Files of at most the size limit that were searched (binary ones too: they are read until found to be). */
  filesSearched: number;
  tooLarge: number;
  hardLinked: number;
  stopped?: string;
}

/** A file's matches, or (in two steps) only how many lines match until its lines are read. */
interface Candidate {
  path: string;
  lines: number;
  matches?: TextMatch[];
}

/** One search_text call through the engine. */
export interface EngineSearchRequest {
  search: WorkspaceSearch;
  query: TextQuery;
  verdicts: PathVerdicts;
  files: WorkspaceFiles;
  /** How many times a line matches, for the text of files open with unsaved changes; undefined when the pattern cannot be read here. */
  matchLine: () => ((line: string) => number) | undefined;
  /** The most matches answered (one more is found, to say there are more). */
  limit: number;
  /** The call's glob (`key`, reusing listings), and whether the engine applies all of it (`onlyNames`). */
  glob: { key: string; onlyNames: boolean };
  clock: Clock;
}

export async function engineSearch(request: EngineSearchRequest, outer: AbortSignal): Promise<EngineFindings> {
  const { search, query, verdicts, files, matchLine, limit, glob, clock } = request;
  const controller = new AbortController();
  const stop = () => controller.abort(outer.reason);
  outer.addEventListener('abort', stop, { once: true });
  const signal = controller.signal;
  try {
    let listings = new SearchListings(search, query, verdicts, glob.key, clock, signal);
    void listings.all().catch(() => undefined);
    // The engine's count of files searched is the tools' only when the glob says nothing the engine was not told.
    if (!glob.onlyNames) void listings.small().catch(() => undefined);
    // Their disk lines do not count: the text in the editor is searched instead, when the file is one the engine searches.
    const unsavedPaths = (files.unsavedPaths?.() ?? []).filter((path) => verdicts.allows(path));
    const unsaved = new Set(unsavedPaths);
    const addUnsaved = (found: Candidates) =>
      unsaved.size === 0 ? found : withUnsaved(found, unsavedPaths, listings.all(), files, matchLine, query.maxFileBytes, signal);
    const once = await searchOnce(search, query, verdicts, unsaved, limit, signal, () => {
      if (unsaved.size === 0) listings.stop();
    });
    let candidates = once && (await addUnsaved(once));
    let chosen = candidates && (await chooseFiles(candidates.inTreeOrder, files, limit, signal));
    // Past its bounds, or short of `limit` once hard links are left out while files past them were turned away: two steps.
    if (!candidates || !chosen || (chosen.lines <= limit && candidates.pruned)) {
      candidates = await addUnsaved(await countOnly(search, query, verdicts, unsaved, signal));
      chosen = await chooseFiles(candidates.inTreeOrder, files, limit, signal);
    }
    const matches = await linesOf(search, query, chosen.files, verdicts, signal);
    if (chosen.lines > limit) return { matches: matches.slice(0, limit + 1), filesSearched: 0, tooLarge: 0, hardLinked: 0 };
    // Stopped early, but the hard links left out brought the matches under the limit after all: listed again.
    if (listings.stopped) listings = new SearchListings(search, query, verdicts, glob.key, clock, signal);
    const all = await listings.all();
    const small = glob.onlyNames && candidates.searched !== undefined ? undefined : await listings.small();
    const searched = small?.files.length ?? candidates.searched ?? 0;
    return {
      matches,
      filesSearched: searched - chosen.hardLinked,
      tooLarge: Math.max(0, all.files.length - searched),
      hardLinked: chosen.hardLinked,
      stopped: candidates.stopped ?? all.stopped ?? small?.stopped,
    };
  } finally {
    outer.removeEventListener('abort', stop);
    // Whatever is still running (after a failure, or a stop) is killed.
    controller.abort();
  }
}

interface Candidates {
  /** Files with matches, in tree order. */
  inTreeOrder: readonly Candidate[];
  /** Whether files past these were left out (only the first `limit` + 1 matches are known). */
  pruned: boolean;
  stopped?: string;
  /** How many files the engine searched, when it says (see SearchBatch). */
  searched?: number;
}

/**
 * One run of the engine: the matching lines of the files that come first in
 * tree order. Undefined when its output passed the engine's bounds, or could
 * not be read: then the first files are not known.
 */
async function searchOnce(
  search: WorkspaceSearch,
  query: TextQuery,
  verdicts: PathVerdicts,
  unsaved: ReadonlySet<string>,
  limit: number,
  signal: AbortSignal,
  onPastLimit: () => void,
): Promise<Candidates | undefined> {
  const first = new FirstMatches(limit);
  const wanted = (path: string) => verdicts.allows(path) && !unsaved.has(path) && first.wants(path);
  let searched: number | undefined;
  try {
    for await (const batch of search.searchFiles(query, wanted, signal)) {
      for (const file of batch.items) if (wanted(file.path)) first.add(file);
      if (first.full) onPastLimit();
      if (batch.stopped !== undefined) return undefined;
      searched ??= batch.searched;
    }
  } catch (error) {
    if (signal.aborted || error instanceof SearchPatternError) throw error;
    return undefined;
  }
  const inTreeOrder = first.inTreeOrder().map((file) => ({ path: file.path, lines: file.matches.length, matches: file.matches }));
  return { inTreeOrder, pruned: first.pruned, searched };
}

/** Every file with matches and how many lines match in it (the first step of two). */
async function countOnly(
  search: WorkspaceSearch,
  query: TextQuery,
  verdicts: PathVerdicts,
  unsaved: ReadonlySet<string>,
  signal: AbortSignal,
): Promise<Candidates> {
  const counted: Candidate[] = [];
  let stopped: string | undefined;
  for await (const batch of search.countMatches(query, signal)) {
    for (const { path, lines } of batch.items) if (lines > 0 && verdicts.allows(path) && !unsaved.has(path)) counted.push({ path, lines });
    stopped ??= batch.stopped;
  }
  counted.sort((a, b) => compareTreeOrder(a.path, b.path));
  return { inTreeOrder: counted, pruned: false, stopped };
}

/** The candidates with the unsaved files the engine would search (listed, and not too large on disk), matched on their text. */
async function withUnsaved(
  candidates: Candidates,
  unsavedPaths: readonly string[],
  listing: Promise<Listed>,
  files: WorkspaceFiles,
  matchLine: () => ((line: string) => number) | undefined,
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<Candidates> {
  const listed = new Set((await listing).files);
  const found: Candidate[] = [];
  for (const path of unsavedPaths) {
    if (!listed.has(path) || ((await files.stat(path, signal))?.size ?? 0) > maxFileBytes) continue;
    const matches = await matchUnsaved(path, files, matchLine, maxFileBytes, signal);
    if (matches.length > 0) found.push({ path, lines: matches.length, matches });
  }
  const inTreeOrder = [...candidates.inTreeOrder, ...found].sort((a, b) => compareTreeOrder(a.path, b.path));
  return { ...candidates, inTreeOrder };
}

/** The files to show, in tree order, until their lines pass `limit`; hard-linked ones left out and counted. */
async function chooseFiles(candidates: readonly Candidate[], files: WorkspaceFiles, limit: number, signal: AbortSignal) {
  const chosen: Candidate[] = [];
  let lines = 0;
  let hardLinked = 0;
  for (const candidate of candidates) {
    if (lines > limit) break;
    // A hard link may be a protected file under another name (see hardLinkRefusal).
    if (((await files.stat(candidate.path, signal))?.links ?? 1) > 1) {
      hardLinked++;
      continue;
    }
    chosen.push(candidate);
    lines += candidate.lines;
  }
  return { files: chosen, lines, hardLinked };
}

/** The matching lines of the chosen files, in tree order: those the first step only counted are read now. */
async function linesOf(search: WorkspaceSearch, query: TextQuery, chosen: readonly Candidate[], verdicts: PathVerdicts, signal: AbortSignal) {
  const matches = chosen.flatMap((candidate) => candidate.matches ?? []);
  const toRead = new Set(chosen.filter((candidate) => candidate.matches === undefined).map((candidate) => candidate.path));
  if (toRead.size > 0) {
    for await (const batch of search.matchingLines(query, [...toRead], signal)) {
      for (const match of batch.items) if (toRead.has(match.path) && verdicts.allows(match.path)) matches.push(match);
    }
  }
  return matches.sort((a, b) => compareTreeOrder(a.path, b.path) || a.line - b.line);
}

/** The matches in a file's unsaved text, by the walk's rules (too large or binary: none). */
async function matchUnsaved(
  path: string,
  files: WorkspaceFiles,
  matchLine: () => ((line: string) => number) | undefined,
  maxFileBytes: number,
  signal: AbortSignal,
): Promise<TextMatch[]> {
  const matches = matchLine();
  if (!matches) return [];
  const text = await files.readText(path, signal);
  if (text.length > maxFileBytes || looksBinary(text)) return [];
  const found: TextMatch[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const column = matches(lines[i]);
    if (column >= 0) found.push({ path, line: i + 1, text: lines[i], column });
  }
  return found;
}
