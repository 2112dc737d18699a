/** The port of the search engines behind list_files and search_text (ripgrep in node/). */

/**
 * A fast engine behind list_files and search_text (ripgrep, in another process).
 * It applies the workspace's ignore files itself and prunes what it is told to
 * leave out; the tools still check every path it returns (inside the folder,
 * not protected, matching the glob), so a rule it reads differently can only
 * cost speed, never show what must stay hidden. It does not follow symlinks.
 */
export interface WorkspaceSearch {
  /** Which engine this is, for the log: "ripgrep (/path/to/rg)". */
  readonly name: string;
  /** The files under the folder (not folders), in no particular order, in batches. */
  listFiles(query: FileQuery, signal: AbortSignal): AsyncIterable<SearchBatch<string>>;
  /**
   * The matching lines (at most `maxMatchesPerFile`) of every text file with a
   * match, a file at a time, files in no particular order; binary files and
   * files over the size limit are not searched. `wanted` is asked once per file,
   * at its first match: a file it declines is read past without decoding its
   * lines (the caller keeps only the first matches in tree order). A file may
   * come in more than one item. Throws SearchPatternError for a pattern the
   * engine refuses.
   */
  searchFiles(query: TextQuery, wanted: (path: string) => boolean, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatches>>;
  /**
   * Every text file with a match, with how many of its lines match (at most
   * `maxMatchesPerFile`): what searchFiles finds, in a few bytes per file, for
   * when its lines are too many to read.
   */
  countMatches(query: TextQuery, signal: AbortSignal): AsyncIterable<SearchBatch<FileMatchCount>>;
  /** The matching lines of these files (workspace-relative, chosen from countMatches), in no particular order. */
  matchingLines(query: TextQuery, paths: readonly string[], signal: AbortSignal): AsyncIterable<SearchBatch<TextMatch>>;
}

export interface FileQuery {
  /** Workspace-relative folder (`.` for the root), already checked by the path policy. */
  folder: string;
  /** false when the user asked for an ignored folder by name: no ignore file applies. */
  respectIgnore: boolean;
  /** Globs (this project's dialect) whose files may be left out early: protected files match case-insensitively. */
  protectedGlobs: readonly string[];
  /** Globs the host hides on top of the ignore files (VS Code's `files.exclude`). */
  excludedGlobs: readonly string[];
  /** Only files whose name (the last segment) matches this glob are wanted; the caller checks the whole glob again. */
  nameGlob?: string;
  /** Larger files are left out. */
  maxFileBytes?: number;
}

export interface TextQuery extends FileQuery {
  /** Text, or a regular expression (RE2-like syntax, linear time) when `regex`. */
  pattern: string;
  regex: boolean;
  ignoreCase: boolean;
  maxFileBytes: number;
  /** Matching lines reported per file, at most. */
  maxMatchesPerFile: number;
}

export interface FileMatchCount {
  /** Workspace-relative. */
  path: string;
  /** Matching lines. */
  lines: number;
}

/** The matching lines of one file, in line order. */
export interface FileMatches {
  /** Workspace-relative. */
  path: string;
  matches: TextMatch[];
}

export interface TextMatch {
  /** Workspace-relative. */
  path: string;
  /** 1-based. */
  line: number;
  /** The whole line, without its line ending. */
  text: string;
  /** Where the first match starts in `text` (UTF-16 index). */
  column: number;
}

/** Some items, or, as the last batch, why the engine stopped before the end (too many results, too long). */
export interface SearchBatch<T> {
  items: T[];
  stopped?: string;
  /**
   * searchFiles, in its last batch: how many files the engine searched (binary
   * ones too), when it says, and only when it left out exactly the files the
   * query's globs name (then, with the same glob, it searched what a listing of
   * the files under the size limit would list).
   */
  searched?: number;
}

/** The search engine refused the pattern; the message is its own reason. */
export class SearchPatternError extends Error {}
