/** The near-miss corpus: real files of public repositories (see near-miss-corpus/SOURCES.md), read as they are. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CorpusFile {
  /** Repository folder and file name, e.g. `cobra/args.go.corpus`. */
  name: string;
  text: string;
}

export const corpusFolder = join(__dirname, 'near-miss-corpus');

/** Every file of the corpus, in name order (the order the seeded generator depends on). */
export function readCorpus(): CorpusFile[] {
  const files: CorpusFile[] = [];
  for (const repo of readdirSync(corpusFolder, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    for (const file of readdirSync(join(corpusFolder, repo.name)).filter((name) => name.endsWith('.corpus'))) {
      files.push({ name: `${repo.name}/${file}`, text: readFileSync(join(corpusFolder, repo.name, file), 'utf8') });
    }
  }
  return files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** A small seeded generator (mulberry32): the same seed gives the same cases on any machine. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
