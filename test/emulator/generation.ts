// What an endpoint handler gets from the server once a request is authenticated, funded and admitted.
import type { ServerResponse } from 'node:http';
import type { ApiErrorBody, Dialect, EmulatorClock, Fault, RecordedRequest } from './types';
import type { KeyState } from './keys';
import type { ScriptQueues } from './scripted-model';
import type { Obj } from './validate-common';
import { serverError } from './errors';

export interface GenContext {
  key: KeyState;
  body: Obj;
  res: ServerResponse;
  record: RecordedRequest;
  scripts: ScriptQueues;
  tokenDelayMs: number;
  /** Waits between stream deltas go through it. */
  clock: EmulatorClock;
  /** x-request-id and the rate-limit headers, computed now. */
  headers(): Record<string, string>;
  /** 400 model_not_found unless the key has the model and the endpoint serves it. */
  checkModel(model: string, endpoint: 'chat' | 'responses'): void;
  /** Takes this request's fault; throws for status faults (500/503/429); returns stream/body faults. */
  takeFault(endpoint: 'chat' | 'responses'): Fault | undefined;
  /** 400 context_length_exceeded when `promptTokens` passes the model's context window. */
  checkWindow(model: string, promptTokens: number, param: 'input' | 'messages'): void;
  /** Records a success: charges the balance and counts the tokens in the rate window. */
  succeed(totalTokens: number, inputTokens: number): void;
  sendJson(status: number, payload: unknown): void;
  /** The provider dialect this model speaks, if it was switched to one. */
  dialectOf(model: string): Dialect | undefined;
}

export const errorPayload = (body: ApiErrorBody): { error: ApiErrorBody } => ({ error: { ...body } });

/** Sends a non-stream JSON answer, or breaks it as the fault says. Returns true when the answer was delivered. */
export async function deliverJson(ctx: GenContext, payload: unknown, fault: Fault | undefined): Promise<boolean> {
  switch (fault?.kind) {
    case 'cut':
      ctx.record.status = 0;
      ctx.res.socket?.destroy();
      return false;
    case 'stall':
      ctx.record.status = 0;
      await new Promise<void>((resolve) => {
        if (ctx.res.destroyed) resolve();
        else ctx.res.once('close', resolve);
      });
      return false;
    case 'malformed': {
      const text = JSON.stringify(payload);
      ctx.record.status = 200;
      ctx.res.writeHead(200, { 'content-type': 'application/json', ...ctx.headers() });
      ctx.res.end(text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return false;
    }
    case 'stream-error':
      ctx.sendJson(500, errorPayload(serverError().body));
      return false;
    default:
      ctx.sendJson(200, payload);
      return true;
  }
}
