/** The ports of agent sessions: where they are kept, and asking the user to approve a call. */

/** Where agent sessions are kept between steps, reloads and crashes. */
export interface SessionStore<T> {
  save(state: T): Promise<void>;
  load(id: string): Promise<T | undefined>;
  list(): Promise<T[]>;
}

/** What the user is asked to approve. */
export interface ApprovalRequest {
  sessionId: string;
  callId: string;
  toolName: string;
  /** One line: "Edit src/app.ts", "Run npm test". */
  summary: string;
  /** For writes: the file before and after, shown as a diff. */
  preview?: { path: string; before: string | undefined; after: string };
  /** `background`: the command is started and left running (run_command with background). */
  /** `reason`: why it asks, when it is a command (approvalPolicy.ts, commandApprovalReason). */
  command?: { line: string; cwd: string; background?: boolean; reason?: string };
  /** For a host tool: its whole input (the summary shows its start and end), for "Show Full Input". */
  input?: { tool: string; text: string; chars: number; complete: boolean };
}

/** Asks the user; resolves when they answer (the session waits, saved, meanwhile). */
export interface Approver {
  approve(request: ApprovalRequest, signal: AbortSignal): Promise<boolean>;
}
