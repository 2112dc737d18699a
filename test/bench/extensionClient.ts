/**
 * The GatewayClient as the extension builds it (src/composeGateway.ts), for the per-request
 * figures: its HTTP exchange over node:http (src/gateway/node), the rate window shared with the other windows through a file (and its lock),
 * the key bound to an origin and checked before every request, the key redacted from
 * everything read back (always on), and every answered request appended to the usage log
 * file. Each lives in a temp folder of its own, removed by `close`.
 */
import { mkdtempSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { silentLogger, systemClock } from '../../src/base/common';
import { DEFAULT_LIMITS } from '../../src/settings/common/valueSets';
import { GatewayClient } from '../../src/gateway/common';
import { LimitTracker } from '../../src/rateLimits/common/limitTracker';
import { PUBLISH_DELAY_MS } from '../../src/rateLimits/common/sharedWindowSync';
import { FileSharedWindow } from '../../src/rateLimits/node';
import { UsageLog } from '../../src/usage/common';
import { FileUsageStorage } from '../../src/usage/node';
import { createNodeHttpFetch } from '../../src/gateway/node';
import type { TeamTelemetry } from '../../src/telemetry/common';

export interface ExtensionClient {
  client: GatewayClient;
  usageLog: UsageLog;
  /** Waits for the shared window's delayed write (PUBLISH_DELAY_MS), then removes the folder. */
  close(): Promise<void>;
}

/** `telemetry`: told of every record and of the rate window as composeGateway.ts wires it (export to a team's collector). */
export function extensionClient(baseUrl: string, key: string, telemetry?: TeamTelemetry): ExtensionClient {
  const storage = mkdtempSync(join(tmpdir(), 'gateway-bench-storage-'));
  const sharedWindow = new FileSharedWindow(join(storage, 'rate-window.json'));
  const usageLog = new UsageLog(new FileUsageStorage(join(storage, 'usage.jsonl')), systemClock, silentLogger);
  const limits = new LimitTracker(systemClock, DEFAULT_LIMITS, undefined, sharedWindow);
  const origin = new URL(baseUrl).origin;
  const http = createNodeHttpFetch();
  const client = new GatewayClient({
    fetch: http.fetch,
    baseUrl: () => baseUrl,
    userAgent: 'bench',
    logger: silentLogger,
    limits,
    // The key store's shape: the key and the origin it was checked against, both read per request.
    apiKey: { getApiKey: async () => key, keyOrigin: async () => origin },
    onUsage: (record, timing) => {
      void usageLog.record(record, AbortSignal.timeout(10_000));
      telemetry?.requestAnswered(record, timing);
    },
    ...(telemetry ? { window: telemetry } : {}),
  });
  const close = async () => {
    await new Promise((resolve) => setTimeout(resolve, 2 * PUBLISH_DELAY_MS));
    await sharedWindow.update((entries) => entries);
    http.close();
    await rm(storage, { recursive: true, force: true, maxRetries: 5 });
  };
  return { client, usageLog, close };
}
