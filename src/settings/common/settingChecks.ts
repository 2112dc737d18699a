/**
 * The checks of the two settings whose message depends on what is wrong, not
 * only on the value: the addresses (`gateway.baseUrl`, `gateway.siteUrl`) and
 * `gateway.models`. Each refusal is a zod issue with its own message.
 */
import * as z from 'zod/mini';
import type { ConfiguredModel } from './valueSets';

type Checked<T> = { value: T } | { problem: string };

/** A zod step that refuses a value with the message `check` gives. */
function refusing<In, Out>(check: (value: In) => Checked<Out>) {
  return z.transform((value: In, ctx) => {
    const checked = check(value);
    if ('value' in checked) return checked.value;
    ctx.issues.push({ code: 'custom', message: checked.problem, input: value });
    return z.NEVER;
  });
}

/** A full http(s) address without a trailing slash, or '' when not set; the base URL must be https:// unless it is this machine. */
export function checkedUrl(name: string, wantsV1: boolean) {
  return refusing((value: string) => urlProblem(value, name, wantsV1));
}

function urlProblem(value: string, name: string, wantsV1: boolean): Checked<string> {
  if (value === '') return { value: '' };
  const example = `https://gateway.example${wantsV1 ? '/v1' : ''}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: `"gateway.${name}" is not a full address: "${value}". Start it with https://, for example ${example}.` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { problem: `"gateway.${name}" must start with https:// (or http:// for a local gateway), not ${url.protocol}//. For example ${example}.` };
  }
  if (wantsV1 && url.protocol === 'http:' && !isLoopback(url.hostname)) {
    // The API key travels with every request to the base URL: over http:// anyone on the way could read it.
    return {
      problem: `"gateway.${name}" must start with https:// so the API key is sent encrypted; http:// is only for a gateway on this machine (localhost, 127.0.0.1, [::1]). For example ${example}.`,
    };
  }
  if (url.username || url.password) {
    return { problem: `"gateway.${name}" must not contain credentials; the API key belongs in "Gateway: Set API Key".` };
  }
  return { value: value.replace(/\/+$/, '') };
}

/** Hosts whose traffic never leaves this machine (the local emulator and the tests use them). */
function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/** Bounds what a workspace's settings can make this read. */
const MAX_CONFIGURED_MODELS = 500;
const EXAMPLE = 'for example {"my-model": {"contextWindow": 32000, "maxOutputTokens": 4096}}';

/** `gateway.models`: per model id its window, output limit and prices. */
export function checkedModels() {
  return refusing(modelsProblem);
}

function modelsProblem(value: unknown): Checked<Record<string, ConfiguredModel>> {
  // No prototype: a model id such as "__proto__" from a workspace's settings is just a key.
  const models = Object.create(null) as Record<string, ConfiguredModel>;
  if (value === null || value === undefined) return { value: models };
  if (typeof value !== 'object' || Array.isArray(value)) return { problem: `"gateway.models" must map model ids to their limits, ${EXAMPLE}.` };
  for (const [id, entry] of Object.entries(value as Record<string, unknown>).slice(0, MAX_CONFIGURED_MODELS)) {
    const checked = modelProblem(id, entry);
    if ('problem' in checked) return checked;
    models[id] = checked.value;
  }
  return { value: models };
}

function modelProblem(id: string, entry: unknown): Checked<ConfiguredModel> {
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return { problem: `"gateway.models" entry "${id}" must be an object, ${EXAMPLE}.` };
  const limits = entry as Record<string, unknown>;
  const name = (field: string) => `models.${id}.${field}`;
  const contextWindow = optionalNumber(limits.contextWindow, name('contextWindow'), 'whole');
  const maxOutputTokens = optionalNumber(limits.maxOutputTokens, name('maxOutputTokens'), 'whole');
  const inputPrice = optionalNumber(limits.inputPrice, name('inputPrice'), 'price');
  const outputPrice = optionalNumber(limits.outputPrice, name('outputPrice'), 'price');
  for (const checked of [contextWindow, maxOutputTokens, inputPrice, outputPrice]) if ('problem' in checked) return checked;
  const [window, output, input, outputCost] = [contextWindow, maxOutputTokens, inputPrice, outputPrice].map((checked) =>
    'value' in checked ? checked.value : undefined,
  );
  if (window !== undefined && window < 1_024) return { problem: `"gateway.models.${id}.contextWindow" must be at least 1024 tokens (it is ${window}).` };
  // Half a price would show a made-up cost for the other half.
  if ((input === undefined) !== (outputCost === undefined)) {
    return { problem: `"gateway.models.${id}" needs both "inputPrice" and "outputPrice" (per million tokens), or neither.` };
  }
  return {
    value: {
      ...(window !== undefined ? { contextWindow: window } : {}),
      ...(output !== undefined ? { maxOutputTokens: output } : {}),
      ...(input !== undefined ? { inputPrice: input, outputPrice: outputCost } : {}),
    },
  };
}

/** A whole number of at least 1, or a price (0 up to a bound no real price reaches); undefined when not set. */
function optionalNumber(value: unknown, name: string, kind: 'whole' | 'price'): Checked<number | undefined> {
  if (value === null || value === undefined || value === '') return { value: undefined };
  if (kind === 'whole' && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
    return { problem: `"gateway.${name}" must be a whole number of at least 1 (it is ${JSON.stringify(value)}).` };
  }
  if (kind === 'price' && (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1_000_000_000)) {
    return { problem: `"gateway.${name}" must be a number of at least 0 (it is ${JSON.stringify(value)}).` };
  }
  return { value: value as number };
}
