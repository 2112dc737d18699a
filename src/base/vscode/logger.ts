/** The core's Logger port on a LogOutputChannel ("Gateway" in the Output view). */
import type * as vscode from 'vscode';
import type { Logger } from '../common/ports';

/** Lines kept for `recentLines` (the extension's API shows them to the end-to-end tests). */
const recentLimit = 200;

export function channelLogger(channel: vscode.LogOutputChannel): Logger & { recentLines(): string[] } {
  const recent: string[] = [];
  const keep = (level: string, message: string) => {
    recent.push(`[${level}] ${message}`);
    if (recent.length > recentLimit) recent.shift();
  };
  return {
    trace: (message) => channel.trace(message),
    debug: (message) => channel.debug(message),
    info: (message) => {
      keep('info', message);
      channel.info(message);
    },
    warn: (message) => {
      keep('warning', message);
      channel.warn(message);
    },
    error: (message) => {
      keep('error', message);
      channel.error(message);
    },
    recentLines: () => [...recent],
  };
}
