// CLI: npm run emulator -- --port 4010 [--host h] [--config file.json] [--rpm n] [--tpm n] [--window-ms n]
//      [--token-delay-ms n] [--site-url url] [--no-ratelimit-headers] [--context-window model=tokens ...]
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startEmulator } from './server';
import { BUILT_IN_KEYS } from './keys';
import { ALL_MODELS, DEFAULT_CONTEXT_WINDOWS, type EmulatorOptions, type KeyConfig } from './types';

const HELP = `Gateway emulator: a local HTTP emulator of the gateway's /v1 API.

Usage: npm run emulator -- [options]
  --port <n>               port (default 4010; 0 = random)
  --host <h>               host (default 127.0.0.1)
  --config <file.json>     {keys: KeyConfig[], rpm, tpm, windowMs, siteUrl, rateLimitHeaders, tokenDelayMs, contextWindows: {model: tokens},
                           dialects: {model: 'deepseek'|'mistral'}}
  --rpm <n>                default requests per window per key (60)
  --tpm <n>                default tokens per window per key (200000)
  --window-ms <n>          rate window in ms (60000)
  --token-delay-ms <n>     delay between stream deltas (0)
  --site-url <url>         account area address used in messages (default: the emulator itself)
  --no-ratelimit-headers   do not send x-ratelimit-* headers
  --context-window <m=n>   context window of model m in tokens (repeatable), e.g. gw-code=8000
                           (defaults: gw-chat 128000, gw-chat-pro 200000, gw-chat-mini 32000, gw-code 128000)
  --help                   this text
Control API (not under /v1): POST /_emulator/script|fault|keys|dialect|forget-responses|reset, GET /_emulator/requests.`;

function num(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} expects a non-negative number, got ${value}`);
  return n;
}

/** `model=tokens` pairs of --context-window. */
function contextWindowArgs(pairs: string[]): Record<string, number> {
  const windows: Record<string, number> = {};
  for (const pair of pairs) {
    const m = /^([^=\s]+)=(\d{1,9})$/.exec(pair);
    if (!m || Number(m[2]) < 1) throw new Error(`--context-window expects model=tokens (e.g. gw-code=8000), got ${pair}`);
    windows[m[1]] = Number(m[2]);
  }
  return windows;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      config: { type: 'string' },
      rpm: { type: 'string' },
      tpm: { type: 'string' },
      'window-ms': { type: 'string' },
      'token-delay-ms': { type: 'string' },
      'site-url': { type: 'string' },
      'no-ratelimit-headers': { type: 'boolean' },
      'context-window': { type: 'string', multiple: true },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(HELP);
    return;
  }
  const file = values.config ? (JSON.parse(readFileSync(values.config, 'utf8')) as EmulatorOptions) : {};
  const options: EmulatorOptions = {
    ...file,
    port: num('port', values.port) ?? file.port ?? 4010,
    host: values.host ?? file.host,
    rpm: num('rpm', values.rpm) ?? file.rpm,
    tpm: num('tpm', values.tpm) ?? file.tpm,
    windowMs: num('window-ms', values['window-ms']) ?? file.windowMs,
    tokenDelayMs: num('token-delay-ms', values['token-delay-ms']) ?? file.tokenDelayMs,
    siteUrl: values['site-url'] ?? file.siteUrl,
    rateLimitHeaders: values['no-ratelimit-headers'] ? false : file.rateLimitHeaders,
    contextWindows: { ...file.contextWindows, ...contextWindowArgs(values['context-window'] ?? []) },
  };
  const emu = await startEmulator(options);
  console.log(`Gateway emulator listening on ${emu.baseUrl}`);
  console.log(`Site URL: ${emu.siteUrl}`);
  const windows = { ...DEFAULT_CONTEXT_WINDOWS, ...options.contextWindows };
  console.log(
    `Context windows: ${Object.entries(windows)
      .map(([model, tokens]) => `${model} ${tokens}`)
      .join(', ')}`,
  );
  const configured = new Map<string, KeyConfig>();
  for (const k of [...BUILT_IN_KEYS, ...(options.keys ?? [])]) configured.set(k.key, k);
  for (const k of configured.values()) {
    const rpm = k.rpm ?? options.rpm ?? 60;
    const tpm = k.tpm ?? options.tpm ?? 200000;
    console.log(`  key ${k.key}: models ${(k.models ?? ALL_MODELS).join(', ')}; balance ${emu.balance(k.key)}; ${rpm} RPM, ${tpm} TPM`);
  }
  const stop = (): void => {
    void emu.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
