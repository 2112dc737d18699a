/** Turning the core's workspace-relative paths into absolute ones, with a last check that they stay inside. */
import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * The absolute path of `path` under `root`. The core has already refused
 * escapes; this refuses them again (by throwing) so a bug or a caller that
 * skipped the policy cannot reach outside the workspace through these ports.
 */
export function absoluteInside(root: string, path: string): string {
  const absolute = resolve(root, ...path.split('/'));
  const fromRoot = relative(resolve(root), absolute);
  if (fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot)) {
    throw new Error(`"${path}" is outside the workspace`);
  }
  return absolute;
}

/** A path relative to `root`, with `/` separators; `.` for the root itself. */
export function workspaceRelative(root: string, absolute: string): string {
  const fromRoot = relative(root, absolute);
  return fromRoot === '' ? '.' : fromRoot.split(sep).join('/');
}

/** Whether `absolute` is `root` or inside it (both already real paths). */
export function isInside(root: string, absolute: string): boolean {
  const fromRoot = relative(root, absolute);
  return !(fromRoot === '..' || fromRoot.startsWith(`..${sep}`) || isAbsolute(fromRoot));
}
