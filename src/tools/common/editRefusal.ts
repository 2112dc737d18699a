/**
 * The host's edit API answers a refused edit with false rather than an error
 * (VS Code's workspace.applyEdit). Ignored, a refused delete would let
 * "Revert session changes" report success with the file still there.
 */

/** The host refused to apply a change to a file. */
export class EditRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EditRefusedError';
  }
}

/** Resolves when the edit was applied; rejects with EditRefusedError(`refusal`) when the host answered false. */
export async function appliedOrThrow(applied: PromiseLike<boolean>, refusal: string): Promise<void> {
  if (!(await applied)) throw new EditRefusedError(refusal);
}
