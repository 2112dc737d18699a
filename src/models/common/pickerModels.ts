/**
 * The model lists remembered across windows, and what VS Code's model picker is offered while the
 * Gateway cannot list. VS Code hands a question to @gateway only with a model selected in the Chat
 * view: a provider that lists nothing ends every question in VS Code's own "Language model
 * unavailable", before the extension hears of it, and the real reason (an address that does not
 * answer, a refused key, a malformed base URL) is never shown where the user looks. So while the
 * Gateway gives no list, the last list stands in, whatever address gave it: the question reaches
 * @gateway, which answers with the reason and the fix. (A made-up stand-in model before any list was
 * tried: VS Code kept it selected after the real list replaced it, and then had no model at all.)
 */
import type { ModelInfo } from '../../gateway/common';

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
