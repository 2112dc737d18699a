/**
 * The Git hook settings of a package.json: what the hook managers that read it would run at the next commit.
 * husky 4's `husky`, yorkie's `gitHooks`, `simple-git-hooks`, `lint-staged`, ghooks' `config.ghooks`; husky before
 * 1.0 runs the `scripts` named after the hooks (`precommit`, `prepush`, `commitmsg`…); the `pre-commit` and
 * `pre-push` packages run the scripts their key names (a list, a string, or an object's `run`), `test` when none. A package.json whose settings differ
 * from the workspace's is held.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';

/** The package.json keys Git hook managers read their hooks from. */
const HOOK_SETTING_KEYS = [
  'husky',
  'gitHooks',
  'simple-git-hooks',
  'lint-staged',
  'nano-staged',
  'pre-commit',
  'precommit',
  'pre-push',
  'prepush',
  'ghooks',
  'commitlint',
];
/** The scripts husky before 1.0 runs, named after Git's hooks without their dashes. */
const HUSKY0_SCRIPTS = [
  'applypatchmsg',
  'preapplypatch',
  'postapplypatch',
  'precommit',
  'preparecommitmsg',
  'commitmsg',
  'postcommit',
  'prerebase',
  'postcheckout',
  'postmerge',
  'prepush',
  'prereceive',
  'update',
  'postreceive',
  'postupdate',
  'pushtocheckout',
  'preautogc',
  'postrewrite',
  'sendemailvalidate',
];
/** Packages that install hooks running `npm test` unless told other scripts. */
const TEST_RUNNING_PACKAGES = ['pre-commit', 'pre-push', 'git-pre-commit', 'git-pre-push', 'precommit-hook'];
const PACKAGE_BYTES = 1024 * 1024;

/** The hook settings of a package.json's text, as one comparable string; unreadable text is never equal to another. */
export function hookSettingsOf(text: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return `unreadable ${randomBytes(4).toString('hex')}`;
  }
  const record = asRecord(parsed);
  const scripts = asRecord(record.scripts);
  const dependencies = { ...asRecord(record.dependencies), ...asRecord(record.devDependencies) };
  const run = new Set(HUSKY0_SCRIPTS);
  let allScripts = false;
  for (const key of ['pre-commit', 'precommit', 'pre-push', 'prepush']) {
    // The object form `{ "run": ["lint"] }` or `{ "run": "lint, test" }` too, as the pre-commit package's parse() reads
    // it (round 19a); an object whose `run` is neither a string nor a list is not known: every script is compared.
    const value = record[key];
    const named = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>).run : value;
    if (named !== undefined && named !== null && typeof named !== 'string' && !Array.isArray(named)) allScripts = true;
    for (const name of typeof named === 'string' ? named.split(/[\s,]+/) : Array.isArray(named) ? named : []) if (typeof name === 'string') run.add(name);
  }
  if (allScripts) for (const name of Object.keys(scripts)) run.add(name);
  if (TEST_RUNNING_PACKAGES.some((name) => Object.hasOwn(dependencies, name))) run.add('test');
  const scriptsRun = [...run].sort().map((name) => [name, Object.hasOwn(scripts, name) ? scripts[name] : null]);
  return JSON.stringify([HOOK_SETTING_KEYS.map((key) => record[key] ?? null), asRecord(record.config).ghooks ?? null, scriptsRun]);
}

/** Whether the Git hook settings of a package.json differ between the command's version and the workspace's (unreadable or too large: taken as changed). */
export async function hookSettingsChanged(upperPath: string, workspacePath: string): Promise<boolean> {
  const none = hookSettingsOf('{}');
  return (await settingsAt(upperPath, none)) !== (await settingsAt(workspacePath, none));
}

async function settingsAt(path: string, missing: string): Promise<string> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return missing;
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > PACKAGE_BYTES) return `unreadable ${randomBytes(4).toString('hex')}`;
    return hookSettingsOf(await handle.readFile('utf8'));
  } catch {
    return `unreadable ${randomBytes(4).toString('hex')}`;
  } finally {
    await handle.close();
  }
}

/** Whether a package.json's `scripts` differ between the command's version and the workspace's (unreadable: taken as changed). */
export async function scriptsChanged(upperPath: string, workspacePath: string): Promise<boolean> {
  const scriptsAt = async (path: string) => {
    const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
    if (!handle) return 'null';
    try {
      const info = await handle.stat();
      if (!info.isFile() || info.size > PACKAGE_BYTES) return `unreadable ${randomBytes(4).toString('hex')}`;
      return JSON.stringify(asRecord(JSON.parse(await handle.readFile('utf8'))).scripts ?? null);
    } catch {
      return `unreadable ${randomBytes(4).toString('hex')}`;
    } finally {
      await handle.close();
    }
  };
  return (await scriptsAt(upperPath)) !== (await scriptsAt(workspacePath));
}

/** A package.json text's `scripts`, as one comparable string (unreadable: never equal to another). */
export function scriptsOf(text: string): string {
  try {
    return JSON.stringify(asRecord(JSON.parse(text)).scripts ?? null);
  } catch {
    return `unreadable ${randomBytes(4).toString('hex')}`;
  }
}

/** A package.json's scripts as the workspace has them now (bounded; missing: none). */
export async function workspaceScripts(workspacePath: string): Promise<string> {
  const handle = await open(workspacePath, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(() => undefined);
  if (!handle) return scriptsOf('{}');
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.size > PACKAGE_BYTES) return `unreadable ${randomBytes(4).toString('hex')}`;
    return scriptsOf(await handle.readFile('utf8'));
  } finally {
    await handle.close();
  }
}

/** A package.json's settings as the workspace has them now (for a copy made during the command). */
export function workspaceHookSettings(workspacePath: string): Promise<string> {
  return settingsAt(workspacePath, hookSettingsOf('{}'));
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
