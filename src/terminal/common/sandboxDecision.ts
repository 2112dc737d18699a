/**
 * Whether a command of an agent session runs in the sandbox, and the sandbox
 * it runs in. Commands run unasked only in `auto`, so only there they go into
 * the sandbox; the mode that counts is the one the engine decided with (a switch
 * out of `auto` after that decision must not send a command nobody was asked
 * about outside the sandbox). Where the sandbox does not work, or the workspace is
 * the user's home folder or holds it (its writable binding would lay the real home
 * back over the emptied one: shell history, editor state, `~/.bashrc`), `auto`
 * commands ask (the approval policy gets `commandsSandboxed: false` and why) and
 * the user is told once.
 */
import type { Logger } from '../../base/common';
import type { ControlFileGuard } from './commandPorts';
import { isWithin, type SandboxLaunch } from './sandbox';

export type SandboxAvailability = { ok: true } | { ok: false; reason: string };

/** What starts one agent session's commands in the sandbox. */
export interface SandboxSession {
  /** The launch of `command` for the workspace `root`, starting in the absolute `cwd`. */
  launch(
    request: { root: string; cwd: string; command: string; protectedFiles: readonly string[]; network: boolean; alsoCovered?: readonly string[] },
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

/** The user's home folder on this machine, for telling whether a workspace is it or holds it. */
export interface HomeFolder {
  /** The home folder as the sandbox gets it (the folder it empties); undefined when there is none. */
  readonly path: string | undefined;
  /** `path` with every symlink resolved; undefined when it cannot be resolved (it is not there). */
  realPath(path: string): Promise<string | undefined>;
}

/** Whether the commands a session would run unasked are sandboxed, and when not, why (said in each command's approval). */
export type CommandSandboxing = { sandboxed: true } | { sandboxed: false; reason: string };

export const NO_SANDBOX_REASON = 'there is no sandbox here, so in the auto mode commands ask.';
const HOLDS_HOME = 'the workspace is your home folder (or holds it): a sandboxed command could read and change your shell and editor files, so commands ask';
export const HOLDS_HOME_REASON = `${HOLDS_HOME}.`;
const UNCHECKED_ROOT_REASON = 'the workspace has not been checked against your home folder yet, so commands ask.';

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
  /** The user's home folder: a workspace that is it or holds it is not sandboxed (its commands ask). */
  home: HomeFolder;
  /** Shows the warning why `auto` commands ask (no sandbox, the home folder) to the user (the log has it already). */
  warnUser: (message: string) => void;
  /**
   * Issue 21: the guard that moves out the control files a sandboxed command of `sessionId` leaves in `root`;
   * `willSandbox` says whether the command about to run goes into the sandbox.
   */
  controlGuard?: (root: string, sessionId: string, willSandbox: () => boolean) => ControlFileGuard;
  /**
   * The local paths of the window's workspace folders: their protected files are covered in every session's
   * sandbox, not only the session's own root's. A worktree session stands for the folder it was made from (it runs
   * only while that folder is open), and that folder sits beside the worktree, readable through `/`.
   */
  windowFolders?: () => readonly string[];
}

export class SandboxDecision {
  /** Whether commands run unasked in `auto` are sandboxed; known once the probe has answered. */
  private sandboxed = false;
  private warnedNoSandbox = false;
  private warnedHome = false;
  /** Per workspace root, whether it is or holds the home folder: checked once per window (probe), so every answer for a root agrees. */
  private readonly homeChecks = new Map<string, Promise<boolean>>();
  private readonly holdsHome = new Map<string, boolean>();
  /** Per session, the approval mode of the last decision whether to ask. */
  private readonly decidedModes = new Map<string, string>();
  /** Per running session, its sandbox (and private /tmp), made at its first sandboxed command and removed when the run ends. */
  private readonly sessions = new Map<string, SandboxSession>();

  constructor(private readonly options: SandboxDecisionOptions) {}

  /**
   * Probes the sandbox (once; before each run) and checks whether the run's workspace `root` is or holds the home
   * folder (once per root); when `auto` cannot use the sandbox there, says so once per window: the user chose `auto`
   * expecting commands to run unasked, and they will ask.
   */
  async probe(run: { root: string }): Promise<void> {
    const [availability] = await Promise.all([this.options.sandbox.available(), this.checkHome(run.root)]);
    this.sandboxed = availability.ok;
    if (this.options.settings().approval !== 'auto') return;
    if (!availability.ok) {
      if (this.warnedNoSandbox) return;
      this.warnedNoSandbox = true;
      this.warn(`Gateway: in the auto mode, agent commands will ask before they run: there is no sandbox here (${availability.reason}).`);
    } else if (this.holdsHome.get(run.root) === true && !this.warnedHome) {
      this.warnedHome = true;
      this.warn(`Gateway: in the auto mode, ${HOLDS_HOME} before they run.`);
    }
  }

  /**
   * The engine decides whether a command asks under `mode`: remembered for the command about to run, so a
   * switch out of auto between this decision and the run cannot let a command that was not asked about run
   * outside the sandbox. Returns whether commands that run unasked in the workspace `root` are sandboxed, and
   * why not (the policy's `commandsSandboxed`): a root not yet checked against the home folder is not.
   */
  decide(sessionId: string, decision: { mode: string; root: string }): CommandSandboxing {
    this.decidedModes.set(sessionId, decision.mode);
    if (!this.sandboxed) return { sandboxed: false, reason: NO_SANDBOX_REASON };
    const holdsHome = this.holdsHome.get(decision.root);
    if (holdsHome !== false) return { sandboxed: false, reason: holdsHome ? HOLDS_HOME_REASON : UNCHECKED_ROOT_REASON };
    return { sandboxed: true };
  }

  /**
   * Whether a command of this session in the workspace `root` goes into the sandbox: in `auto` (now, or when it was
   * decided not to ask), where commands run unasked, unless `root` is or holds the home folder (there they ask and,
   * approved, run as in `auto-edit`). A root not checked yet goes in: decide made its commands ask.
   */
  commandsSandboxed(sessionId: string, root: string): boolean {
    return this.sandboxed && this.holdsHome.get(root) !== true && (this.options.settings().approval === 'auto' || this.decidedModes.get(sessionId) === 'auto');
  }

  /** The sandbox launch for a command about to run, when it goes into one (commandsSandboxed). */
  async sandboxFor(command: SandboxedCommand, signal: AbortSignal): Promise<SandboxLaunch | undefined> {
    const { sessionId, root, cwd } = command;
    if (!this.commandsSandboxed(sessionId, root)) return undefined;
    const settings = this.options.settings();
    let session = this.sessions.get(sessionId);
    if (!session) {
      session = this.options.sandbox.forSession(sessionId);
      this.sessions.set(sessionId, session);
    }
    const alsoCovered = (this.options.windowFolders?.() ?? []).filter((folder) => folder !== root);
    return session.launch(
      { root, cwd, command: command.command, protectedFiles: settings.protectedFiles, network: settings.sandboxNetwork, alsoCovered },
      signal,
    );
  }

  /**
   * Issue 21: control files a sandboxed command leaves are moved out and the user told. Guarded are exactly
   * the commands sandboxFor sends into the sandbox: what the user approved outside it is theirs.
   */
  controlGuardFor(sessionId: string, root: string): ControlFileGuard | undefined {
    return this.options.controlGuard?.(root, sessionId, () => this.commandsSandboxed(sessionId, root));
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

  private warn(message: string): void {
    this.options.logger.warn(message);
    this.options.warnUser(message);
  }

  /** Whether `root` is or holds the home folder, found once per root (the first answer stays, so decide and sandboxFor agree). */
  private checkHome(root: string): Promise<boolean> {
    let check = this.homeChecks.get(root);
    if (!check) {
      check = holdsHomeFolder(root, this.options.home).then((holds) => {
        this.holdsHome.set(root, holds);
        return holds;
      });
      this.homeChecks.set(root, check);
    }
    return check;
  }
}

/**
 * Whether the workspace `root` is the home folder or holds it: compared as given and with symlinks resolved, each
 * against each (a home reached through a symlink inside the workspace is held too), so a trailing slash, `/`, `..`
 * or a symlink on either side is no way around it. A path that cannot be resolved is compared as written.
 */
async function holdsHomeFolder(root: string, home: HomeFolder): Promise<boolean> {
  if (!home.path) return false;
  const resolved = (path: string) =>
    Promise.resolve()
      .then(() => home.realPath(path))
      .catch(() => undefined);
  const [realRoot, realHome] = await Promise.all([resolved(root), resolved(home.path)]);
  const roots = [root, realRoot].filter((path) => path !== undefined);
  const homes = [home.path, realHome].filter((path) => path !== undefined);
  return roots.some((folder) => homes.some((path) => isWithin(lexical(path), lexical(folder))));
}

/** An absolute path without empty, `.` and `..` parts and without a trailing slash (`/` stays `/`). */
function lexical(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '' && part !== '.') parts.push(part);
  }
  return `/${parts.join('/')}`;
}
