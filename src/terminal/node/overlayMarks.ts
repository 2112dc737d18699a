/**
 * What overlayfs marked in a command's layer that Node cannot read itself: which folders are opaque (the command
 * removed the folder and made it again), kept in the `user.overlay.opaque` extended attribute, read through GNU tar.
 */
import { spawn } from 'node:child_process';

/** How long tar may take to read the layer's folder marks; after it, none is taken as opaque (nothing more is removed). */
const TAR_TIMEOUT_MS = 10_000;

/**
 * Which of `folders` (upper-relative, each also a folder in the workspace) overlayfs marked opaque (the command
 * removed the folder and made it again: what was in it is gone). Node reads no extended attributes, so GNU tar
 * reads them (`user.overlay.opaque`, as an unprivileged overlay writes it); without tar, none is taken as opaque,
 * which keeps files the command removed rather than removing any it did not.
 */
export async function opaqueFolders(upper: string, folders: readonly string[], signal: AbortSignal): Promise<Set<string>> {
  const opaque = new Set<string>();
  if (folders.length === 0) return opaque;
  const archive = await new Promise<Buffer>((resolve) => {
    const child = spawn('tar', ['--xattrs', '--xattrs-include=user.overlay.opaque', '--no-recursion', '--null', '-T', '-', '-cf', '-'], {
      cwd: upper,
      stdio: ['pipe', 'pipe', 'ignore'],
      signal,
      timeout: TAR_TIMEOUT_MS,
      killSignal: 'SIGKILL',
    });
    const chunks: Buffer[] = [];
    let size = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= 64 * 1024 * 1024) chunks.push(chunk);
    });
    child.on('error', () => resolve(Buffer.alloc(0)));
    child.on('close', () => resolve(Buffer.concat(chunks)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(folders.map((folder) => `./${folder}\0`).join(''));
  });
  let pendingOpaque = false;
  let pendingPath: string | undefined;
  for (let at = 0; at + 512 <= archive.length;) {
    const header = archive.subarray(at, at + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/s, '').trim() || '0', 8);
    const type = String.fromCharCode(header[156]);
    const body = archive.subarray(at + 512, at + 512 + size);
    at += 512 + Math.ceil(size / 512) * 512;
    if (type === 'x') {
      for (const record of paxRecords(body)) {
        if (record.key === 'SCHILY.xattr.user.overlay.opaque') pendingOpaque = record.value === 'y';
        if (record.key === 'path') pendingPath = record.value;
      }
      continue;
    }
    const name =
      pendingPath ?? `${header.subarray(345, 500).toString('utf8').replace(/\0.*$/s, '')}${header.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '')}`;
    if (pendingOpaque) opaque.add(name.replace(/^\.\//, '').replace(/\/$/, ''));
    pendingOpaque = false;
    pendingPath = undefined;
  }
  return opaque;
}

/** The `length key=value\n` records of a pax extended header. */
function paxRecords(body: Buffer): { key: string; value: string }[] {
  const records: { key: string; value: string }[] = [];
  for (let at = 0; at < body.length;) {
    const space = body.indexOf(0x20, at);
    if (space < 0) break;
    const length = Number(body.subarray(at, space).toString('latin1'));
    if (!Number.isInteger(length) || length <= 0) break;
    const record = body.subarray(space + 1, at + length - 1).toString('utf8');
    const equals = record.indexOf('=');
    if (equals > 0) records.push({ key: record.slice(0, equals), value: record.slice(equals + 1) });
    at += length;
  }
  return records;
}
