/**
 * Whether a sandboxed command that failed most likely failed because of the sandbox
 * (issue 27): its output names what the sandbox takes away (writing outside the
 * workspace and /tmp, the network, protected files). The chat says so, with what to
 * do, instead of leaving "Read-only file system" to be found in the terminal.
 */
export interface SandboxFailure {
  /** The text of the output that shows it, as printed ("Read-only file system"). */
  evidence: string;
  /** What the sandbox took away, for a sentence: "writing outside the workspace and /tmp". */
  cause: string;
}

interface Sign {
  pattern: RegExp;
  cause: string;
  /** Only when the sandbox has no network. */
  offline?: boolean;
}

const SIGNS: readonly Sign[] = [
  // The limits every sandboxed command runs under (src/terminal/node/bubblewrap.ts, defaultSandboxLimits).
  { pattern: /File size limit exceeded|EFBIG/, cause: 'a file larger than 4 GB (its limit per file)' },
  { pattern: /fork: (retry: )?Resource temporarily unavailable|EAGAIN.*(fork|spawn)|Cannot fork/, cause: 'more than 4,096 processes at once (its limit)' },
  {
    pattern: /MemoryError|Cannot allocate memory|ENOMEM|out of memory|heap out of memory/i,
    cause: "more memory per process than its limit (half the machine's, 16 GB at most)",
  },
  { pattern: /Read-only file system|EROFS/, cause: 'writing outside the workspace and /tmp' },
  {
    pattern: /Could not resolve host|Temporary failure in name resolution|Name or service not known|EAI_AGAIN|ENOTFOUND|Network is unreachable|ENETUNREACH/,
    cause: 'the network',
    offline: true,
  },
  { pattern: /EACCES|Permission denied|Operation not permitted|EPERM/, cause: 'reading protected files and folders outside the workspace' },
];

/** Output is looked at only near its end, where the error is: a bounded scan whatever the command printed. */
const SCANNED_CHARS = 16 * 1024;

/** The sandbox's likely part in a failed command's output; undefined for a success or an output that shows none. */
export function sandboxFailure(result: { exitCode?: number; output: string }, sandbox: { network: boolean }): SandboxFailure | undefined {
  if (result.exitCode === 0) return undefined;
  const tail = result.output.slice(-SCANNED_CHARS);
  for (const sign of SIGNS) {
    if (sign.offline && sandbox.network) continue;
    const found = sign.pattern.exec(tail);
    if (found) return { evidence: found[0], cause: sign.cause };
  }
  return undefined;
}

/** The sentence after the output, for the model and (the same) for the user. */
export function sandboxFailureNote(failure: SandboxFailure): string {
  return (
    `It most likely failed because of the sandbox ("${failure.evidence}"): the sandbox does not allow ${failure.cause}. ` +
    'The user can run it in a terminal, or switch gateway.agent.approval to "auto-edit" to approve commands that run outside the sandbox.'
  );
}
