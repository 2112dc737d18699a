/**
 * The part of a model request that comes from the user's settings (sampling,
 * length, service tier, reasoning effort). @gateway, Edit Selection and VS
 * Code's model picker all send it, so one setting means the same everywhere.
 */
import type { ReasoningEffort, ServiceTier } from './valueSets';
import type { GatewaySettings } from './gatewaySettings';

/** The fields of a chat request (gateway's ChatParams) the settings give. */
export interface RequestParameters {
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  reasoningEffort?: ReasoningEffort;
  serviceTier?: ServiceTier;
}

export function requestParameters(settings: GatewaySettings): RequestParameters {
  return {
    temperature: settings.temperature,
    topP: settings.topP,
    maxTokens: settings.maxTokens,
    reasoningEffort: settings.reasoningEffort,
    serviceTier: settings.serviceTier,
  };
}
