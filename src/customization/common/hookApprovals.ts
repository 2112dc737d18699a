/**
 * The user's approval of hooks, by their content: asked once a hook through the
 * session's approver (in the chat, or a notification), remembered (a denial
 * too) by a digest
 * of everything that decides what a hook runs and when: its line, event,
 * matcher, folder and time limit, the folder it belongs to (the workspace, or
 * the home folder for a home hook) and the content of every file its line names
 * (hookContent.ts). A changed hook, a rewritten script or another workspace
 * asks again; a hook naming a file that could not be digested is approved for
 * one session only.
 */
import type { Clock } from '../../base/common';
import type { ApprovalRequest, Approver } from '../../sessionModel/common';
import { envExports, type HookCommand } from './hookConfig';
import { APPROVED_HOOKS_KEY, DENIED_HOOKS_KEY, HOOKS_APPROVAL_TOOL, type HookMemory } from './hookDecisions';
import { fullyChecked, hookContent, requestKey, shortDigest, type HookContent, type HookFileContent, type HookFiles } from './hookContent';

export { APPROVED_HOOKS_KEY, DENIED_HOOKS_KEY, HOOKS_APPROVAL_TOOL, type HookMemory } from './hookDecisions';

/** Digests text (sha256, hex): the host's. */
export interface HookDigest {
  digest(text: string): string;
}

/** Approvals (and denials) kept: the newest, so a list cannot grow without end. */
const MAX_REMEMBERED = 500;

/** A hook with the files its line names, as the user is asked about it. */
export type CheckedHook = HookCommand & { files?: readonly HookFileContent[] };

/** The user's approval of hooks, by their content: approved once, a hook runs in every later session until it or a file it names changes. */
export class HookApprovals {
  constructor(
    private readonly memory: HookMemory,
    private readonly ask: (hooks: readonly CheckedHook[], signal: AbortSignal) => Promise<boolean>,
    private readonly digest: (text: string) => string,
    /** What a hook's approval covers besides its line: the folder and the files it names, read by the host. */
    private readonly content: (hooks: readonly HookCommand[], signal: AbortSignal) => Promise<HookContent[]>,
  ) {}

  /** What a hook is approved as; undefined when a file it names could not be digested (no approval of it is remembered). */
  identity(hook: HookCommand, content: HookContent): string | undefined {
    if (!fullyChecked(content)) return undefined;
    const files = content.files.map((file) => [file.path, file.digest]);
    // A Copilot hook's env is what it runs too; a hook without one keeps the identity it had before env was read.
    const env = hook.env === undefined ? [] : [Object.entries(hook.env)];
    return this.digest(JSON.stringify([hook.format, hook.event, hook.matcher ?? '', hook.command, hook.cwd, hook.timeoutMs, content.folder, files, ...env]));
  }

  /**
   * The hooks that may run: those approved before, and of the others each the user approves now (one question a hook,
   * so some can be approved and others denied); each with what it was approved with. A denial is remembered like an
   * approval, by the hook's content: a denied hook is not asked about again until it or a file it names changes.
   */
  async approved(hooks: readonly HookCommand[], signal: AbortSignal): Promise<{ hook: HookCommand; content: HookContent }[]> {
    return (await this.decided(hooks, signal)).runs;
  }

  /** As approved(), with how many of `hooks` were not asked about because the user denied them before (for the log). */
  async decided(hooks: readonly HookCommand[], signal: AbortSignal): Promise<{ runs: { hook: HookCommand; content: HookContent }[]; deniedBefore: number }> {
    const contents = await this.content(hooks, signal);
    const remembered = this.remembered(APPROVED_HOOKS_KEY);
    const deniedBefore = this.remembered(DENIED_HOOKS_KEY);
    const all = hooks.map((hook, index) => ({ hook, content: contents[index], id: this.identity(hook, contents[index]) }));
    const runs = new Set(all.filter(({ id }) => id !== undefined && remembered.includes(id)));
    const approvedNow: string[] = [];
    const deniedNow: string[] = [];
    let skipped = 0;
    for (const entry of all) {
      if (runs.has(entry)) continue;
      if (entry.id !== undefined && deniedBefore.includes(entry.id)) {
        skipped++;
        continue;
      }
      const yes = await this.ask([{ ...entry.hook, files: entry.content.files }], signal);
      if (yes) runs.add(entry);
      if (entry.id !== undefined) (yes ? approvedNow : deniedNow).push(entry.id);
    }
    await this.remember(APPROVED_HOOKS_KEY, remembered, approvedNow, deniedNow);
    await this.remember(DENIED_HOOKS_KEY, deniedBefore, deniedNow, approvedNow);
    return { runs: all.filter((entry) => runs.has(entry)).map(({ hook, content }) => ({ hook, content })), deniedBefore: skipped };
  }

  /** `list` with `added` last and `removed` gone, the newest MAX_REMEMBERED kept; written only when it changed. */
  private async remember(key: string, list: readonly string[], added: readonly string[], removed: readonly string[]): Promise<void> {
    if (added.length === 0 && !list.some((id) => removed.includes(id))) return;
    const kept = list.filter((id) => !added.includes(id) && !removed.includes(id));
    await this.memory.update(key, [...kept, ...added].slice(-MAX_REMEMBERED));
  }

  /** What `hooks` cover now, as approved() compares it: to tell, before a hook runs, that a file it names changed since. */
  contentOf(hooks: readonly HookCommand[], signal: AbortSignal): Promise<HookContent[]> {
    return this.content(hooks, signal);
  }

  private remembered(key: string): string[] {
    const value = this.memory.get<unknown>(key);
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : [];
  }
}

/** Whether two readings of a hook's files are the same (the same files, the same digests or the same problems). */
export function sameContent(a: HookContent, b: HookContent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The approval of hooks, asked like a command through the session's approver (in the chat, or a
 * notification): every hook's command, with shell comments saying when it runs, from which file, and
 * the files it names whose content is approved with it (a short sha256 of each, or why it was not read).
 */
export function hookApprovalRequest(sessionId: string, callId: string, hooks: readonly CheckedHook[]): ApprovalRequest {
  const files = [...new Set(hooks.map((hook) => hook.source))].join(', ');
  const whose = hooksOf(hooks);
  const lines = [`# Hooks of ${whose} (${files}). Approved or denied once: remembered for later sessions until it or a file it runs changes.`];
  for (const hook of hooks) {
    const when = hook.matcher === undefined ? hook.event : `${hook.event} of ${hook.matcher}`;
    // A VS Code hook's per-system line is named: the line below is it, not the file's `command`.
    const line = hook.lineKey === undefined ? '' : `, its "${hook.lineKey}" line (what VS Code runs on this system)`;
    lines.push(`# ${when}, in ${hook.cwd}, at most ${hook.timeoutMs / 1000} s${line}:`);
    for (const file of hook.files ?? []) {
      const path = shown(file.path);
      lines.push(
        file.digest !== undefined
          ? `#   with ${path} as it is now (sha256 ${shortDigest(file.digest)})`
          : `#   with ${path}, NOT checked: ${shown(file.problem)}; so this approval is for this session only`,
      );
    }
    // Its env as its shell sets it, before its line: the approval shows what runs.
    lines.push(`${envExports(hook.env)}${hook.command}`);
  }
  const summary = `Run ${hooks.length === 1 ? 'a hook' : `${hooks.length} hooks`} of ${whose} (${files})`;
  return { sessionId, callId, toolName: HOOKS_APPROVAL_TOOL, summary, command: { line: lines.join('\n'), cwd: '.' } };
}

/** A name or reason on one comment line: a control character (a newline in a file's name) is spelled out, as the display does others. */
function shown(text: string): string {
  return text.replace(/\p{Cc}/gu, (char) => `⟨U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Whose hooks these are, for the approval's words: the workspace's, the user's home folder's (`~/…` files), or both. */
function hooksOf(hooks: readonly HookCommand[]): string {
  const home = hooks.filter((hook) => isHomeHook(hook)).length;
  if (home === 0) return 'this workspace';
  return home === hooks.length ? 'your home folder' : 'this workspace and your home folder';
}

/** Whether the hook comes from a file in the user's home folder. */
export function isHomeHook(hook: HookCommand): boolean {
  return hook.source.startsWith('~/');
}

/**
 * Approvals of hooks asked through `approver`; what each covers besides its line is read through `files`
 * (one look-up of a word shared by the hooks that name it).
 */
export function hookApprovalsThrough(input: {
  approver: Approver;
  memory: HookMemory;
  host: HookDigest;
  files: HookFiles;
  sessionId: string;
  clock: Clock;
}): HookApprovals {
  const { approver, memory, host, files, sessionId, clock } = input;
  // One question a hook: several in the same millisecond need their own call ids.
  let asked = 0;
  return new HookApprovals(
    memory,
    (hooks, signal) => approver.approve(hookApprovalRequest(sessionId, `hooks-${clock.now()}-${++asked}`, hooks), signal),
    (text) => host.digest(text),
    (hooks, signal) => contentsThrough(files, hooks, signal),
  );
}

/** The content of each of `hooks`, each word looked up once for them all. */
async function contentsThrough(files: HookFiles, hooks: readonly HookCommand[], signal: AbortSignal): Promise<HookContent[]> {
  const looked = new Map<string, Promise<HookFileContent | undefined>>();
  const lookUp: Parameters<typeof hookContent>[3] = (request, s) => {
    const key = requestKey(request);
    let found = looked.get(key);
    if (found === undefined) looked.set(key, (found = files.content(request, s)));
    return found;
  };
  const contents: HookContent[] = [];
  for (const hook of hooks) contents.push(await hookContent(hook, files, signal, lookUp));
  return contents;
}
