// Generates a value that satisfies a JSON Schema (the subset tool declarations use):
// objects (every property, required ones included), strings (length, common formats), numbers and integers
// within minimum/maximum/exclusive bounds and multipleOf, booleans, null, enums (first value), const,
// arrays (minItems/maxItems/uniqueItems/prefixItems), anyOf/oneOf (first branch), allOf (merged), local $ref.
type Schema = Record<string, unknown>;

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function resolveRef(ref: string, root: Schema): Schema {
  if (!ref.startsWith('#/')) return {};
  let node: unknown = root;
  for (const part of ref.slice(2).split('/')) {
    node = isSchema(node) ? node[part.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined;
  }
  return isSchema(node) ? node : {};
}

function mergeAllOf(schema: Schema, root: Schema): Schema {
  const merged: Schema = { ...schema };
  delete merged.allOf;
  const props: Schema = isSchema(schema.properties) ? { ...schema.properties } : {};
  const required = new Set<string>(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  for (const part of schema.allOf as unknown[]) {
    const s = normalize(part, root);
    Object.assign(merged, s);
    if (isSchema(s.properties)) Object.assign(props, s.properties);
    if (Array.isArray(s.required)) for (const r of s.required as string[]) required.add(r);
  }
  if (Object.keys(props).length > 0) merged.properties = props;
  if (required.size > 0) merged.required = [...required];
  return merged;
}

function normalize(schema: unknown, root: Schema, depth = 0): Schema {
  if (!isSchema(schema) || depth > 20) return {};
  if (typeof schema.$ref === 'string') return normalize({ ...resolveRef(schema.$ref, root), ...schema, $ref: undefined }, root, depth + 1);
  if (Array.isArray(schema.allOf)) return mergeAllOf(schema, root);
  const branches = (schema.anyOf ?? schema.oneOf) as unknown;
  if (Array.isArray(branches) && branches.length > 0) {
    const rest = { ...schema, anyOf: undefined, oneOf: undefined };
    const pick = branches.find((b) => !(isSchema(b) && b.type === 'null')) ?? branches[0];
    return normalize({ ...rest, ...(isSchema(pick) ? pick : {}) }, root, depth + 1);
  }
  return schema;
}

function typeOf(schema: Schema): string {
  const t = schema.type;
  if (typeof t === 'string') return t;
  if (Array.isArray(t)) return (t.find((x) => x !== 'null') as string | undefined) ?? 'null';
  if (isSchema(schema.properties)) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  if (schema.minimum !== undefined || schema.maximum !== undefined) return 'number';
  return 'string';
}

function numberFor(schema: Schema, integer: boolean, variant: number): number {
  const num = (k: string): number | undefined => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  const step = integer ? 1 : 0.5;
  let lo = num('minimum');
  const exLo = num('exclusiveMinimum');
  if (exLo !== undefined && (lo === undefined || exLo >= lo)) lo = exLo + (integer ? 1 : step / 4);
  let hi = num('maximum');
  const exHi = num('exclusiveMaximum');
  if (exHi !== undefined && (hi === undefined || exHi <= hi)) hi = exHi - (integer ? 1 : step / 4);
  if (integer) {
    if (lo !== undefined) lo = Math.ceil(lo);
    if (hi !== undefined) hi = Math.floor(hi);
  }
  let v = lo !== undefined ? lo : hi !== undefined ? Math.min(1, hi) : 1;
  v += variant * step;
  const mult = num('multipleOf');
  if (mult && mult > 0) v = Math.ceil(v / mult) * mult;
  if (hi !== undefined && v > hi) v = mult && mult > 0 ? Math.floor(hi / mult) * mult : hi;
  return integer ? Math.round(v) : v;
}

const FORMATS: Record<string, string> = {
  'date-time': '2025-01-01T00:00:00Z',
  date: '2025-01-01',
  time: '00:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '127.0.0.1',
};

function stringFor(schema: Schema, name: string, variant: number): string {
  const format = typeof schema.format === 'string' ? FORMATS[schema.format] : undefined;
  if (format) return format;
  let s = (name || 'value') + (variant > 0 ? String(variant) : '');
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  while (s.length < min) s += 'x';
  if (s.length > max) s = s.slice(0, max);
  return s;
}

export function generateFromSchema(schema: unknown, root: Schema = isSchema(schema) ? schema : {}, name = '', variant = 0, depth = 0): unknown {
  const s = normalize(schema, root);
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[Math.min(variant, s.enum.length - 1)];
  if (depth > 12) return null;
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const props = isSchema(s.properties) ? s.properties : {};
      for (const [key, sub] of Object.entries(props)) out[key] = generateFromSchema(sub, root, key, 0, depth + 1);
      if (Array.isArray(s.required)) {
        for (const key of s.required as string[]) if (!(key in out)) out[key] = generateFromSchema(s.additionalProperties ?? {}, root, key, 0, depth + 1);
      }
      return out;
    }
    case 'array': {
      const prefix = Array.isArray(s.prefixItems) ? (s.prefixItems as unknown[]) : [];
      const min = typeof s.minItems === 'number' ? s.minItems : 1;
      const max = typeof s.maxItems === 'number' ? s.maxItems : Infinity;
      const count = Math.min(Math.max(min, prefix.length, 1), max);
      const items: unknown[] = [];
      for (let i = 0; i < count; i++) {
        const sub = i < prefix.length ? prefix[i] : s.items;
        items.push(generateFromSchema(sub ?? {}, root, name.replace(/s$/, '') || 'item', s.uniqueItems ? i : 0, depth + 1));
      }
      return items;
    }
    case 'integer':
      return numberFor(s, true, variant);
    case 'number':
      return numberFor(s, false, variant);
    case 'boolean':
      return variant % 2 === 0;
    case 'null':
      return null;
    default:
      return stringFor(s, name, variant);
  }
}
