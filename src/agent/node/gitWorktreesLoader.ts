/**
 * The sessions' worktrees (issue 40), loaded at their first use: in the production build this require is
 * rewritten to `./git-worktrees.js`, the file esbuild.mjs builds beside the bundle (Node caches it).
 */
import type * as GitWorktreesPart from './gitWorktrees';
import type { GitWorktrees } from '../common/sessions/worktreePorts';

export function gitWorktreesPart(): typeof GitWorktreesPart {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a static import would load it with the extension
  return require('./gitWorktrees') as typeof GitWorktreesPart;
}

/** The port, its module loaded at the first call; `options` as NodeGitWorktrees takes them (what Apply's review reads). */
export function lazyGitWorktrees(options: { home?: string; protectedFiles?: () => readonly string[] } = {}): GitWorktrees {
  let made: GitWorktrees | undefined;
  const part = (): GitWorktrees => (made ??= new (gitWorktreesPart().NodeGitWorktrees)(options));
  return {
    whyNot: (...args) => part().whyNot(...args),
    create: (...args) => part().create(...args),
    changes: (...args) => part().changes(...args),
    baseContent: (...args) => part().baseContent(...args),
    apply: (...args) => part().apply(...args),
    discard: (...args) => part().discard(...args),
    findStale: (...args) => part().findStale(...args),
    removeStale: (...args) => part().removeStale(...args),
  };
}
