/**
 * Agents' configs by what they are (round 17, the rule in ../common/agentConfigShape.ts), read from the command's
 * layer: bounded to 64 MB a file (past it, held unread wherever it is; a lock file is a few MB), decoded as a YAML or
 * JSON parser given the bytes decodes them (UTF-16 by BOM or NULs, else UTF-8); a file that is no such text is held.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

import { configNamesPrograms } from '../common/agentConfigShape';

export { isAgentConfigCandidate } from '../common/agentConfigShape';

/** The largest config read; past it, held unread. package-lock.json, the largest usual top file, is a few MB. */
export const AGENT_CONFIG_BYTES = 64 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/**
 * Whether the file at `file` (the command's layer, opened without following a link or waiting on a pipe) is an
 * agent's config that names programs to run, or cannot be read (held: what it names cannot be told).
 */
export function namesProgramsAt(file: string, path: string): boolean {
  let descriptor: number;
  try {
    descriptor = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return true;
  }
  try {
    if (!fstatSync(descriptor).isFile()) return false;
    const bytes = readBounded(descriptor);
    return bytes === undefined || namesProgramsIn(bytes, bytes.length, path);
  } catch {
    return true;
  } finally {
    closeSync(descriptor);
  }
}

/** The file's bytes, read in chunks to its end (it may have grown since its fstat); undefined past the bound. */
function readBounded(descriptor: number): Buffer | undefined {
  const chunks: Buffer[] = [];
  let total = 0;
  // Bounded: each pass reads a chunk, and past AGENT_CONFIG_BYTES the loop ends.
  while (total <= AGENT_CONFIG_BYTES) {
    const chunk = Buffer.alloc(CHUNK_BYTES);
    const read = readSync(descriptor, chunk, 0, CHUNK_BYTES, total);
    if (read === 0) return Buffer.concat(chunks, total);
    chunks.push(chunk.subarray(0, read));
    total += read;
  }
  return undefined;
}

/** The same judgement on bytes already read (the interim copy's, judged on what it copies); `size`: the file's whole size. */
export function namesProgramsIn(bytes: Buffer, size: number, path: string): boolean {
  if (size > AGENT_CONFIG_BYTES || bytes.length < size) return true;
  const text = textOf(bytes);
  if (text === undefined) return true;
  return configNamesPrograms(text, path);
}

/**
 * The text of `bytes` as a YAML or JSON parser given the bytes reads it: UTF-16 by its BOM or by the NUL bytes of its
 * first characters (RFC 4627's detection), else UTF-8 (its BOM dropped). Undefined when it is none of them (UTF-32
 * by its NULs, bytes no UTF-8, a NUL no config has): held.
 */
function textOf(bytes: Buffer): string | undefined {
  const [a, b, c, d] = [bytes[0], bytes[1], bytes[2], bytes[3]];
  if ((a === 0 && b === 0) || (c === 0 && d === 0)) return undefined;
  if ((a === 0xff && b === 0xfe) || (a !== 0 && b === 0 && bytes.length > 1)) return decode('utf-16le', bytes);
  if ((a === 0xfe && b === 0xff) || (a === 0 && b !== 0 && bytes.length > 1)) return decode('utf-16be', bytes);
  return decode('utf-8', bytes);
}

function decode(encoding: string, bytes: Buffer): string | undefined {
  try {
    // The BOM is dropped by the decoder; a NUL left is no text a config parser reads.
    const text = new TextDecoder(encoding, { fatal: true }).decode(bytes);
    return text.includes('\0') ? undefined : text;
  } catch {
    return undefined;
  }
}
