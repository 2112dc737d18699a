/** The terminal feature's common layer as other features see it: import from here, not from its files. */
export { findDeniedCommand } from './commandPolicy';
export {
  type BackgroundStart,
  LINGERING_REASON,
  type CommandResult,
  type CommandRunner,
  type ControlFileGuard,
  type ControlPathWatcher,
  type ControlWatch,
  type QuarantinedControlPaths,
  type StartedCommand,
} from './commandPorts';
export { type ControlRollback, rollbackNote } from './controlPaths';
export { type SandboxLaunch, sandboxNote, seccompFd } from './sandbox';
export { sandboxEnvironment } from './sandboxEnvironment';
export { type SandboxFailure, sandboxFailure, sandboxFailureNote } from './sandboxFailure';
export { type HomeFolder, type MachineSandbox, NO_SANDBOX_REASON, SandboxDecision } from './sandboxDecision';
export { isControlPath } from './controlPaths';
export { isHeldByName } from './changeReview';
export { configNamesPrograms, isAgentConfigCandidate } from './agentConfigShape';
export { commandWords, withoutBracedExpansions, withoutOutputs } from './shellWords';
export { relativeFolder } from './shellFolders';
