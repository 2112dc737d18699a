/**
 * The `gateway.*` settings, read and checked in one place. A bad value gets a
 * message that names the setting and says what it should be.
 */
import * as vscode from 'vscode';
import type { ConfiguredLimits, ReasoningEffort, ServiceTier } from '../core/api';

export const SECTION = 'gateway';

export interface GatewaySettings {
  baseUrl: string;
  siteUrl: string | undefined;
  chatModel: string;
  agentModel: string;
  temperature: number | undefined;
  topP: number | undefined;
  maxTokens: number | undefined;
  reasoningEffort: ReasoningEffort | undefined;
  serviceTier: ServiceTier | undefined;
  limits: ConfiguredLimits;
}

/** A setting whose value cannot be used; the message names it. */
export class SettingError extends Error {
  constructor(
    readonly setting: string,
    message: string,
  ) {
    super(message);
    this.name = 'SettingError';
  }
}

export function readSettings(): GatewaySettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  return {
    baseUrl: checkedUrl(config.get<string>('baseUrl', ''), 'baseUrl', true) ?? '',
    siteUrl: checkedUrl(config.get<string>('siteUrl', ''), 'siteUrl', false),
    chatModel: config.get<string>('chatModel', '').trim(),
    agentModel: config.get<string>('agentModel', '').trim(),
    temperature: checkedNumber(config.get<number | null>('temperature', null), 'temperature', 0, 2),
    topP: checkedNumber(config.get<number | null>('topP', null), 'topP', 0, 1),
    maxTokens: checkedInteger(config.get<number | null>('maxTokens', null), 'maxTokens'),
    reasoningEffort: checkedEnum(config.get<string>('reasoningEffort', ''), 'reasoningEffort', ['minimal', 'low', 'medium', 'high'] as const),
    serviceTier: checkedEnum(config.get<string>('serviceTier', ''), 'serviceTier', ['default', 'priority', 'flex'] as const),
    limits: {
      requestsPerMinute: checkedInteger(config.get<number>('limits.requestsPerMinute', 60), 'limits.requestsPerMinute') ?? 60,
      tokensPerMinute: checkedInteger(config.get<number>('limits.tokensPerMinute', 200_000), 'limits.tokensPerMinute') ?? 200_000,
    },
  };
}

/** The base URL, or a SettingError that says how to set it. */
export function requireBaseUrl(settings: GatewaySettings): string {
  if (!settings.baseUrl) {
    throw new SettingError('baseUrl', 'Set "gateway.baseUrl" to the Gateway\'s address (for example https://gateway.example/v1).');
  }
  return settings.baseUrl;
}

function checkedUrl(raw: string, name: string, wantsV1: boolean): string | undefined {
  const value = raw.trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingError(name, `"gateway.${name}" is not a URL: "${value}". Use a full address such as https://gateway.example${wantsV1 ? '/v1' : ''}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingError(name, `"gateway.${name}" must start with https:// (or http:// for a local gateway), not ${url.protocol}//.`);
  }
  if (url.username || url.password) {
    throw new SettingError(name, `"gateway.${name}" must not contain credentials; the API key belongs in "Gateway: Set API Key".`);
  }
  return value.replace(/\/+$/, '');
}

function checkedNumber(value: number | null | undefined, name: string, min: number, max: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw new SettingError(name, `"gateway.${name}" must be a number from ${min} to ${max} (it is ${String(value)}).`);
  }
  return value;
}

function checkedInteger(value: number | null | undefined, name: string): number | undefined {
  if (value === null || value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new SettingError(name, `"gateway.${name}" must be a whole number of at least 1 (it is ${String(value)}).`);
  }
  return value;
}

function checkedEnum<T extends string>(raw: string, name: string, allowed: readonly T[]): T | undefined {
  if (!raw) return undefined;
  if ((allowed as readonly string[]).includes(raw)) return raw as T;
  throw new SettingError(name, `"gateway.${name}" must be one of ${allowed.join(', ')} (it is "${raw}").`);
}
