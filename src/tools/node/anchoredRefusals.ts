/**
 * Why an anchored file operation (anchoredPaths.ts) refused: one error type
 * per reason a user must tell apart. Every message names the path as it was
 * asked for and says that nothing happened.
 */

export type AnchoredAction = 'read' | 'write' | 'delete';

const nothing: Record<AnchoredAction, string> = { read: 'nothing was read', write: 'nothing was written', delete: 'nothing was deleted' };

/** The common base: the path as asked for, and what was refused. */
export class AnchoredRefusal extends Error {
  constructor(
    readonly path: string,
    readonly action: AnchoredAction,
    reason: string,
  ) {
    super(`"${path}" ${reason}; ${nothing[action]}.`);
    this.name = new.target.name;
  }
}

/** The path, or the file actually opened, is not inside the workspace (a symlink out, re-pointed or moved). */
export class OutsideWorkspaceError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, where?: string) {
    super(path, action, where === undefined ? 'leads outside the workspace' : `leads outside the workspace (to ${where})`);
  }
}

/** The file opened is a protected file (`gateway.agent.protectedFiles`), by its own name or where a link led. */
export class ProtectedFileError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, real: string, pattern: string) {
    super(path, action, `${real === path ? 'is' : `leads to "${real}", which is`} a protected file (matches "${pattern}" in gateway.agent.protectedFiles)`);
  }
}

/** A change would land in a control folder (.git, .vscode, .husky) or a .code-workspace file the caller did not name. */
export class ControlFileError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, real: string) {
    super(path, action, `leads to "${real}", a file that changes what runs (a control folder), which was not the file named`);
  }
}

/** What was opened is not where the check said: the path changed between the check and the open. */
export class ChangedWhileOpenedError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, detail: string) {
    super(path, action, `changed while it was being opened (${detail})`);
  }
}

/** The file has more than one name: another may be a protected file. */
export class HardLinkError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, links: number) {
    super(path, action, hardLinkReason(links));
  }
}

/** A folder, FIFO, socket or device where a regular file was expected. */
export class NotAFileError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction) {
    super(path, action, 'is not a regular file');
  }
}

/** The path is not a plain workspace path (empty, absolute, `..`, a NUL, too deep) or has too many links in a row. */
export class InvalidWorkspacePathError extends AnchoredRefusal {
  constructor(path: string, action: AnchoredAction, why: string) {
    super(path, action, why);
  }
}

function hardLinkReason(links: number): string {
  return (
    `is a hard link (the same file has ${links} names), so it may be a protected file such as .env or a key under another name; ` +
    'the agent does not read or write hard-linked files'
  );
}
