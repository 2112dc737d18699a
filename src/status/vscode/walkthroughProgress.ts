/**
 * The "Get started with Gateway" walkthrough checks a step off when its context key
 * turns true (package.json: completionEvents `onContext:`), so a step done another
 * way than its own button (the base URL in settings.json, the key from the status
 * bar, a question typed in the Chat view) is checked off too.
 */
import * as vscode from 'vscode';

export interface WalkthroughProgress {
  baseUrl: boolean;
  apiKey: boolean;
  model: boolean;
}

const KEYS: Record<keyof WalkthroughProgress, string> = {
  baseUrl: 'gateway.walkthrough.baseUrlSet',
  apiKey: 'gateway.walkthrough.apiKeySet',
  model: 'gateway.walkthrough.modelChosen',
};
const ASKED = 'gateway.walkthrough.asked';

const shown = new Map<string, boolean>();

/** Sets the keys that changed (a step, once checked, stays checked in VS Code whatever the key does later). */
export function showWalkthroughProgress(progress: WalkthroughProgress): void {
  for (const step of Object.keys(KEYS) as (keyof WalkthroughProgress)[]) setOnce(KEYS[step], progress[step]);
}

/** An @gateway answer arrived: the last step is done. */
export function walkthroughAsked(): void {
  setOnce(ASKED, true);
}

function setOnce(key: string, value: boolean): void {
  if (shown.get(key) === value) return;
  shown.set(key, value);
  void vscode.commands.executeCommand('setContext', key, value);
}
