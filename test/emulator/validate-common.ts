// Field checks shared by both endpoints. Each throws a 400 HttpError naming the field in `param`.
import { badValue, missing } from './errors';

export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

export function requireString(obj: Obj, field: string, param: string): string {
  const v = obj[field];
  if (v === undefined || v === null) throw missing(param);
  if (typeof v !== 'string') throw badValue(param, `Invalid type for '${param}': expected a string.`);
  return v;
}

export function optNumber(body: Obj, field: string, min: number, max: number): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw badValue(field, `Invalid '${field}': expected a number between ${min} and ${max}, got ${JSON.stringify(v)}.`);
  }
  return v;
}

export function optPositiveInt(body: Obj, field: string): number | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw badValue(field, `Invalid '${field}': expected a positive integer, got ${JSON.stringify(v)}.`);
  }
  return v;
}

export function optEnum(obj: Obj, field: string, values: readonly string[], param = field): string | undefined {
  const v = obj[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || !values.includes(v)) {
    throw badValue(param, `Invalid value for '${param}': expected one of ${values.join(', ')}, got ${JSON.stringify(v)}.`);
  }
  return v;
}

export function optBool(body: Obj, field: string): boolean | undefined {
  const v = body[field];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badValue(field, `Invalid type for '${field}': expected a boolean.`);
  return v;
}

export function toolName(obj: Obj, param: string): string {
  const name = requireString(obj, 'name', param);
  if (!TOOL_NAME.test(name)) throw badValue(param, `Invalid '${param}': must match ${TOOL_NAME.source}.`);
  return name;
}

export function optParameters(obj: Obj, param: string): unknown {
  const v = obj.parameters;
  if (v === undefined || v === null) return undefined;
  if (!isObj(v)) throw badValue(param, `Invalid '${param}': expected a JSON Schema object.`);
  return v;
}

export function optDescription(obj: Obj, param: string): void {
  if (obj.description !== undefined && obj.description !== null && typeof obj.description !== 'string') {
    throw badValue(param, `Invalid type for '${param}': expected a string.`);
  }
}

export const REASONING_EFFORTS = ['minimal', 'low', 'medium', 'high'] as const;
export const SERVICE_TIERS = ['auto', 'default', 'priority', 'flex'] as const;
