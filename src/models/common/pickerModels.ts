/**
 * The model lists remembered across windows, and what VS Code's model picker is offered while the
 * Gateway cannot list. VS Code hands a question to @gateway only with a model selected in the Chat
 * view: a provider that lists nothing ends every question in VS Code's own "Language model
 * unavailable", before the extension hears of it, and the real reason (an address that does not
 * answer, a refused key, a malformed base URL) is never shown where the user looks. So while the
 * Gateway gives no list, the last list stands in, whatever address gave it: the question reaches
 * @gateway, which answers with the reason and the fix.
 *
 * With no key, or before any list at all, there is no list to stand in: one placeholder is offered
 * ("Gateway — set your API key", "Gateway — not reachable"), which is never a model. @gateway asks
 * the Gateway for the list instead (so its answer is the real failure: no key, an address that does
 * not answer…), another extension's request to it is refused with what to do, and once a real list
 * comes VS Code's picker is moved onto a real model (a first stand-in, tried without that, stayed
 * selected after the real list replaced it, and VS Code then had no model at all); the key cleared,
 * it is moved onto the placeholder the same way.
 */
import type { ModelInfo } from '../../gateway/common';
import { defaultModel } from './modelChoice';

/** Where the lists are kept (VS Code's global state): shared by the windows. */
export interface ListStore {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}

const LAST_GOOD = 'gateway.lastModelList';

export class ModelListMemory {
  constructor(
    private readonly store: ListStore,
    /** The base URL now; throws while the setting gives none (a malformed address). */
    private readonly baseUrl: () => string,
  ) {}

  /** `models` is what the current base URL lists. */
  remember(models: ModelInfo[]): void {
    void this.store.update(LAST_GOOD, { baseUrl: safe(this.baseUrl), models });
  }

  /** The last list the current base URL gave, from any window (empty when it never gave one). */
  lastKnown(): ModelInfo[] {
    const saved = this.saved();
    return saved && saved.baseUrl === safe(this.baseUrl) ? saved.models : [];
  }

  /** What the picker lists while the Gateway gives no list: the last list of any address (empty before any). */
  offered(): ModelInfo[] {
    return this.saved()?.models ?? [];
  }

  private saved(): { baseUrl: string; models: ModelInfo[] } | undefined {
    const saved = this.store.get<{ baseUrl: string; models: ModelInfo[] }>(LAST_GOOD);
    return saved && Array.isArray(saved.models) ? saved : undefined;
  }
}

function safe(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}

/**
 * The placeholder's id. A Gateway model id is a path segment of `/v1/models/{id}` and never holds a space or
 * brackets (the Gateway's are like `gw-chat`); the client's own validation only trims and refuses an empty id,
 * so the placeholder is kept from the gateway here and in the callers, never by the request's validation.
 */
export const PLACEHOLDER_MODEL_ID = '(gateway placeholder: no models)';

export function isPlaceholderModel(id: string | undefined): boolean {
  return id === PLACEHOLDER_MODEL_ID;
}

/** Why the placeholder is offered: no key stored, or a key but no list ever received and the list fails now. */
export type PlaceholderReason = 'no-key' | 'not-listed';

/** What VS Code's model picker is given: the Gateway's models, or the one placeholder. */
export type PickerOffer =
  /** `failure`: the listing failed and `models` is the last list of any address. */
  { kind: 'models'; models: ModelInfo[]; failure?: string } | { kind: 'placeholder'; reason: PlaceholderReason; failure?: string };

export interface PickerOfferPorts {
  hasKey(): Promise<boolean>;
  /** The key's models (the catalog's shared listing); rejects with the Gateway's failure. */
  list(signal: AbortSignal): Promise<ModelInfo[]>;
  /** The last list any address gave (empty before any). */
  offeredWhileAway(): ModelInfo[];
}

/**
 * What the picker lists. Never empty while something can be said (an empty picker is VS Code's bare "Language model
 * unavailable", and @gateway is never asked); rejects only when `signal` aborts.
 */
export async function pickerOffer(ports: PickerOfferPorts, signal: AbortSignal): Promise<PickerOffer> {
  // No key: nothing can be answered, whatever was listed before; the placeholder says what to do.
  if (!(await ports.hasKey())) return { kind: 'placeholder', reason: 'no-key' };
  try {
    return { kind: 'models', models: withoutPlaceholder(await ports.list(signal)) };
  } catch (error) {
    if (signal.aborted) throw error;
    // What a gateway listed before, from any address, is offered: a question then gets the real error in the chat.
    const failure = error instanceof Error ? error.message : String(error);
    const offered = withoutPlaceholder(ports.offeredWhileAway());
    if (offered.length > 0) return { kind: 'models', models: offered, failure };
    return { kind: 'placeholder', reason: 'not-listed', failure };
  }
}

/** A gateway that listed the placeholder's id would make it a model: it is never offered as one. */
function withoutPlaceholder(models: ModelInfo[]): ModelInfo[] {
  return models.some((model) => isPlaceholderModel(model.id)) ? models.filter((model) => !isPlaceholderModel(model.id)) : models;
}

/** How the placeholder shows in VS Code's picker: what it is, and what to do. */
export function placeholderText(reason: PlaceholderReason): { name: string; detail: string; tooltip: string } {
  return reason === 'no-key'
    ? {
        name: 'Gateway — set your API key',
        detail: 'not a model',
        tooltip:
          'No Gateway API key is set. Run "Gateway: Set API Key" (or ask @gateway, which says so with a button); the Gateway\'s models replace this entry once the key is set.',
      }
    : {
        name: 'Gateway — not reachable',
        detail: 'not a model',
        tooltip:
          'The Gateway at "gateway.baseUrl" has not listed its models. Ask @gateway for the reason, or check the "gateway.baseUrl" setting; the Gateway\'s models replace this entry once it lists them.',
      };
}

/** The error a language-model request to the placeholder (another extension's, VS Code's) is refused with. */
export function placeholderRefusal(reason: PlaceholderReason, failure?: string): string {
  return reason === 'no-key'
    ? 'The Gateway placeholder is not a model: no Gateway API key is set. Run "Gateway: Set API Key", then choose one of the Gateway\'s models.'
    : `The Gateway placeholder is not a model: the Gateway has not listed its models${failure ? ` (${failure.replace(/\.$/, '')})` : ''}. Check the "gateway.baseUrl" setting, then choose one of the Gateway's models.`;
}

export interface ChatModelPorts {
  /** The configured chat model (gateway.chatModel), empty when none. */
  configured(): string;
  /** The key's models; `fresh` skips the shared listing's pause after a failure (a question is the user asking now). */
  list(signal: AbortSignal, fresh: boolean): Promise<ModelInfo[]>;
}

/**
 * The model an @gateway question is sent to, given the Chat view's pick (undefined: not a Gateway model). The
 * placeholder is never sent: the Gateway is asked for its list, so a question meets the real failure (no key, an
 * address that does not answer, a refused key…) with its fix, and a Gateway that lists again names the model (and
 * its list replaces the placeholder in the picker).
 */
export async function chatRequestModel(pickerModel: string | undefined, ports: ChatModelPorts, signal: AbortSignal): Promise<string> {
  if (pickerModel !== undefined && !isPlaceholderModel(pickerModel)) return pickerModel;
  const placeholder = isPlaceholderModel(pickerModel);
  const configured = ports.configured();
  if (configured && !placeholder) return configured;
  const listed = await ports.list(signal, placeholder);
  const model = (configured && !isPlaceholderModel(configured) ? configured : undefined) ?? defaultModel('chat', withoutPlaceholder(listed));
  if (model === undefined) throw new Error("This key may not use any model. Check your plan at the Gateway's account area.");
  return model;
}
