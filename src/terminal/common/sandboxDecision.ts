/**
 * Whether a command of an agent session runs in the sandbox, and the sandbox
 * it runs in. Commands run unasked only in `auto`, so only there they go into
 * the sandbox; the mode that counts is the one the engine decided with (a switch
 * out of `auto` after that decision must not send a command nobody was asked
 * about outside the sandbox). Where the sandbox does not work, `auto` commands
 * ask (the approval policy gets `commandsSandboxed: false`) and the user is told once.
 */
import type { Logger } from '../../base/common';
import type { ControlFileGuard } from './commandPorts';
import type { SandboxLaunch } from './sandbox';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

/** What starts one agent session's commands in the sandbox. */
export interface SandboxSession {
  /** The launch of `command` for the workspace `root`, starting in the absolute `cwd`. */
  launch(
    request: { root: string; cwd: string; command: string; protectedFiles: readonly string[]; network: boolean },
    signal: AbortSignal,
  ): Promise<SandboxLaunch>;
  dispose(): Promise<void>;
}

/** The `auto` mode's sandbox on this machine. */
export interface MachineSandbox {
  /** Whether it works here, and why not (probed once). */
  available(): Promise<SandboxAvailability>;
  /** One agent session's sandbox: its commands share a private /tmp, which `dispose` removes. */
  forSession(sessionId: string): SandboxSession;
}

/** The settings the decision reads, at the moment it decides. */
export interface SandboxSettings {
  approval: string;
  protectedFiles: readonly string[];
  sandboxNetwork: boolean;
}

/** A command about to run: its session, the workspace and the absolute folder it starts in. */
export interface SandboxedCommand {
  sessionId: string;
  root: string;
  command: string;
  cwd: string;
}

export interface SandboxDecisionOptions {
  sandbox: MachineSandbox;
  settings: () => SandboxSettings;
  logger: Logger;
  /** Shows the no-sandbox warning to the user (the log has it already). */
  warnUser: (message: string) => void;
  /**
   * Issue 21: the guard that moves out the control files a sandboxed command of `sessionId` leaves in `root`;
   * `willSandbox` says whether the command about to run goes into the sandbox.
   */
  controlGuard?: (root: string, sessionId: string, willSandbox: () => boolean) => ControlFileGuard;
}

export class SandboxDecision {
  /** Whether commands run unasked in `auto` are sandboxed; known once the probe has answered. */
  private sandboxed = false;
  private warnedNoSandbox = false;
  /** Per session, the approval mode of the last decision whether to ask. */
  private readonly decidedModes = new Map<string, string>();
  /** Per running session, its sandbox (and private /tmp), made at its first sandboxed command and removed when the run ends. */
  private readonly sessions = new Map<string, SandboxSession>();

  constructor(private readonly options: SandboxDecisionOptions) {}

  /**
   * Probes the sandbox (once; before each run) and, when `auto` cannot use it, says so once per
   * window: the user chose `auto` expecting commands to run unasked, and they will ask.
   */
  async probe(): Promise<void> {
    const availability = await this.options.sandbox.available();
    this.sandboxed = availability.ok;
    if (availability.ok || this.warnedNoSandbox || this.options.settings().approval !== 'auto') return;
    this.warnedNoSandbox = true;
    const message = `Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (${availability.reason}).`;
    this.options.logger.warn(message);
    this.options.warnUser(message);
  }

  /**
   * The engine decides whether a command asks under `mode`: remembered for the command about to run, so a
   * switch out of auto between this decision and the run cannot let a command that was not asked about run
   * outside the sandbox. Returns whether commands that run unasked are sandboxed (the policy's `commandsSandboxed`).
   */
  decide(sessionId: string, mode: string): boolean {
    this.decidedModes.set(sessionId, mode);
    return this.sandboxed;
  }

  /** Whether a command of this session goes into the sandbox: in `auto` (now, or when it was decided not to ask), where commands run unasked. */
  commandsSandboxed(sessionId: string): boolean {
    return this.sandboxed && (this.options.settings().approval === 'auto' || this.decidedModes.get(sessionId) === 'auto');
  }

  /** The sandbox launch for a command about to run, when it goes into one (commandsSandboxed). */
  async sandboxFor(command: SandboxedCommand, signal: AbortSignal): Promise<SandboxLaunch | undefined> {
    const { sessionId, root, cwd } = command;
    if (!this.commandsSandboxed(sessionId)) return undefined;
    const settings = this.options.settings();
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = this.options.sandbox.forSession(sessionId);
      this.sessions.set(sessionId, session);
    }
    return session.launch({ root, cwd, command: command.command, protectedFiles: settings.protectedFiles, network: settings.sandboxNetwork }, signal);
  }

  /**
   * Issue 21: control files a sandboxed command leaves are moved out and the user told. Guarded are exactly
   * the commands sandboxFor sends into the sandbox: what the user approved outside it is theirs.
   */
  controlGuardFor(sessionId: string, root: string): ControlFileGuard | undefined {
    return this.options.controlGuard?.(root, sessionId, () => this.commandsSandboxed(sessionId));
  }

  /** The run ended: its sandbox's private /tmp goes (in the background; a failure is logged). */
  endSession(sessionId: string): void {
    const session = this.sessions.get(sessionId);
    this.sessions.delete(sessionId);
    session?.dispose().catch((error: unknown) => this.options.logger.warn(`agent session ${sessionId}: removing its sandbox's /tmp failed: ${String(error)}`));
  }

  /** The session was deleted: its last decision goes with it. */
  forget(sessionId: string): void {
    this.decidedModes.delete(sessionId);
  }

  dispose(): void {
    for (const id of [...this.sessions.keys()]) this.endSession(id);
  }
}
