/**
 * The `gateway.*` settings, read at the first reader and again only when they change. Each
 * setting is checked on its own: a bad value is a problem of that setting
 * (listed, and announced once), its readers get the setting's default, and
 * every other setting reads as usual.
 */
import type { ConfiguredLimits } from './valueSets';
import { effectiveValue, SettingError, settingsFrom, type GatewaySettings, type SettingLevels } from './gatewaySettings';
import { SETTING_NAMES, SETTING_SCHEMAS, type SettingName, type SettingSchema, type SettingValue, type SettingValues } from './settingSchemas';

/** Where the values come from: one setting's levels by its name under `gateway.` (VS Code's `WorkspaceConfiguration.inspect`). */
export interface SettingsSource {
  inspect(name: string): SettingLevels | undefined;
}

export interface Subscription {
  dispose(): void;
}

/** One setting's value as read: the checked value, or the default and the reason the value was refused. */
export interface SettingRead<T> {
  value: T;
  problem?: SettingError;
}

/** Checks one setting's effective value; a refused value reads as the setting's default. */
export function readSetting<K extends SettingName>(name: K, raw: unknown): SettingRead<SettingValue<K>> {
  const spec = schemaOf(name);
  const shown = typeof raw === 'string' ? raw.trim() : raw;
  const result = spec.schema.safeParse(raw, { error: () => spec.invalid(shown) });
  if (result.success) return { value: result.data };
  return { value: defaultOf(name), problem: new SettingError(name, result.error.issues[0]?.message ?? spec.invalid(shown)) };
}

/** What a setting reads as when it is not set: its package.json default, checked by its own schema. */
export function defaultOf<K extends SettingName>(name: K): SettingValue<K> {
  const result = schemaOf(name).schema.safeParse(SETTING_SCHEMAS[name].default);
  if (!result.success) throw new Error(`The default of gateway.${name} does not pass its own schema.`);
  return result.data;
}

function schemaOf<K extends SettingName>(name: K): SettingSchema<SettingValue<K>> {
  return SETTING_SCHEMAS[name] as SettingSchema<SettingValue<K>>;
}

/**
 * One setting as last read from the source. Its check runs at the first reader, not when it is read: most
 * settings are not needed while the extension activates, and checking all of them took a third of activate().
 */
class Entry {
  private checked: SettingRead<unknown> | undefined;

  constructor(
    private readonly name: SettingName,
    private readonly value: unknown,
    /** The effective value as JSON: a change of it (and only that) re-checks the setting. */
    readonly raw: string,
  ) {}

  get read(): SettingRead<unknown> {
    this.checked ??= readSetting(this.name, this.value);
    return this.checked;
  }
}

export class SettingsService {
  /** Undefined until the first reader: reading the source (VS Code's configuration) is work activation does not need. */
  private entries: Map<SettingName, Entry> | undefined;
  private settings: GatewaySettings | undefined;
  private readonly changeListeners = new Set<(changed: readonly SettingName[]) => void>();
  private readonly problemListeners = new Set<(problems: readonly SettingError[]) => void>();

  constructor(private readonly source: SettingsSource) {}

  /** One setting's checked value (its default while the value set is refused). */
  get<K extends SettingName>(name: K): SettingValue<K> {
    return this.entry(name).read.value as SettingValue<K>;
  }

  /** All settings, as one object; the same object until a setting changes. */
  current(): GatewaySettings {
    this.settings ??= settingsFrom(Object.fromEntries(SETTING_NAMES.map((name) => [name, this.get(name)])) as unknown as SettingValues);
    return this.settings;
  }

  /**
   * `gateway.limits.*` for the limit tracker: each read gives the setting's value then. The tracker is made while the
   * extension activates and reads them only at its first request, so the settings are read then, not during activation.
   */
  limits(): ConfiguredLimits {
    const value = (name: 'limits.requestsPerMinute' | 'limits.tokensPerMinute') => this.get(name);
    return {
      get requestsPerMinute() {
        return value('limits.requestsPerMinute');
      },
      get tokensPerMinute() {
        return value('limits.tokensPerMinute');
      },
    };
  }

  /** The settings whose value is refused now, one problem each, in package.json's order. */
  problems(): readonly SettingError[] {
    return SETTING_NAMES.flatMap((name) => this.entry(name).read.problem ?? []);
  }

  /** The base URL, or the SettingError that says how to set it: the one setting without a usable default. */
  requireBaseUrl(): string {
    const { read } = this.entry('baseUrl');
    if (read.problem) throw read.problem;
    if (!read.value) throw new SettingError('baseUrl', 'Set "gateway.baseUrl" to the Gateway\'s address (for example https://gateway.example/v1).');
    return read.value as string;
  }

  /**
   * Reads the settings again after the source said they changed: only those whose effective value moved are
   * checked again; their readers are told which, and each newly refused value is announced once. Before the first
   * reader there is nothing to compare with: `affected` (VS Code's change event) says which settings changed.
   */
  reload(affected: (name: SettingName) => boolean = () => true): void {
    const changed = this.entries ? this.readChanged(this.entries) : SETTING_NAMES.filter(affected);
    if (changed.length === 0) return;
    this.settings = undefined;
    for (const listener of [...this.changeListeners]) listener(changed);
    const found = changed.flatMap((name) => this.entry(name).read.problem ?? []);
    if (found.length > 0) for (const listener of [...this.problemListeners]) listener(found);
  }

  /** Called with the names of the settings whose value changed. */
  onDidChange(listener: (changed: readonly SettingName[]) => void): Subscription {
    return subscribe(this.changeListeners, listener);
  }

  /** Called with the problems a change brought: a value set just now that is refused. */
  onDidFindProblems(listener: (problems: readonly SettingError[]) => void): Subscription {
    return subscribe(this.problemListeners, listener);
  }

  private readChanged(entries: Map<SettingName, Entry>): SettingName[] {
    const changed: SettingName[] = [];
    for (const name of SETTING_NAMES) {
      const value = effectiveValue(name, this.source.inspect(name));
      const raw = JSON.stringify(value) ?? 'undefined';
      if (entries.get(name)?.raw === raw) continue;
      entries.set(name, new Entry(name, value, raw));
      changed.push(name);
    }
    return changed;
  }

  private entry(name: SettingName): Entry {
    if (!this.entries) this.readChanged((this.entries = new Map()));
    const entry = this.entries.get(name);
    if (!entry) throw new Error(`gateway.${name} was not read`);
    return entry;
  }
}

/**
 * Announces each refused value once: at `start` (after activation: checking every setting is work the first paint
 * does not need) those refused by then, afterwards each one a change brings. A change before `start` announces
 * nothing of its own, since `start` announces whatever is still refused then.
 */
export function announceProblems(service: SettingsService, announce: (problems: readonly SettingError[]) => void): Subscription & { start(): void } {
  let started = false;
  const found = service.onDidFindProblems((problems) => {
    if (started) announce(problems);
  });
  return {
    start: () => {
      if (started) return;
      started = true;
      const problems = service.problems();
      if (problems.length > 0) announce(problems);
    },
    dispose: () => found.dispose(),
  };
}

function subscribe<T>(listeners: Set<T>, listener: T): Subscription {
  listeners.add(listener);
  return { dispose: () => listeners.delete(listener) };
}
