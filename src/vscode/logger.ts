/** The core's Logger port on a LogOutputChannel ("Gateway" in the Output view). */
import type * as vscode from 'vscode';
import type { Logger } from '../core/ports';

export function channelLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    trace: (message) => channel.trace(message),
    debug: (message) => channel.debug(message),
    info: (message) => channel.info(message),
    warn: (message) => channel.warn(message),
    error: (message) => channel.error(message),
  };
}
