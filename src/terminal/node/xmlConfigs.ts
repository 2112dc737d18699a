/**
 * A held XML config (JetBrains' `.idea/watcherTasks.xml`, its run configurations) as a tree programConfigs.ts walks
 * as it walks JSON: each element an object of its attributes, its JetBrains `<option name="K" value="V"/>` children
 * as keys (`program`, `arguments`: a watcher's command line), its children and its text. Its values are read with the
 * IDE's path macros spelled as the review reads paths: the project's folder (`$ProjectFileDir$`, `$PROJECT_DIR$`) is
 * `.` (the config's folders, its project's among them, are the places its words are read from), the home folder `~`,
 * and any other macro (`$FileDir$`, `$MODULE_DIR$`: known only when it runs) `*`, read as a glob (its folder held whole,
 * or its last name held anywhere); a value with such a macro is also read as a command line, since a value's words
 * with a glob name no one file.
 * A small tokenizer, not an XML library: no DTD is loaded and no entity expanded (a text that declares entities
 * throws ConfigTooLarge, the whole change set waits: what the IDE's parser would expand is not read here), only the
 * predefined and numeric character references are decoded. Bounded: the text is at most 64 KB (the caller's bound),
 * one pass; past 256 levels, or a text that is no well-formed XML, it is read by its values and whole text instead.
 */
import { ConfigTooLarge } from './reviewBounds';

const MAX_LEVELS = 256;
const CLOSE = /<\/([^\s>]+)\s*>/y;
const TAG = /<([^\s/>]+)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>/y;
const PREDEFINED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export interface XmlConfig {
  /** The elements as objects (undefined when the text is not well formed or too deep: read by `values` and `text` then). */
  tree?: Record<string, unknown>;
  /** Every attribute value and text, macros spelled as above. */
  values: string[];
  /** The values with a macro known only when the IDE runs them, read as command lines. */
  commands: string[];
  /** The whole text with its macros spelled as above. */
  text: string;
}

/** The XML reading of `text`, or undefined when it does not start as XML (after a BOM and blanks, a `<`). */
export function xmlConfig(text: string): XmlConfig | undefined {
  const body = text.replace(/^\uFEFF/, '');
  if (!/^\s*</.test(body)) return undefined;
  // An internal DTD subset declares entities or attributes' defaults (`<!ATTLIST option value CDATA "x">`) a parser adds.
  if (/<!ENTITY|<!DOCTYPE[^>]*\[/i.test(body)) throw new ConfigTooLarge('a held XML config declares entities or a DTD, which the review does not read');
  const values: string[] = [];
  const commands: string[] = [];
  const value = (raw: string): string => {
    const spelled = withMacros(decodeReferences(raw));
    values.push(spelled);
    if (spelled.includes('*')) commands.push(spelled);
    return spelled;
  };
  const tree = parse(body, value);
  // A text that is no well-formed XML: every quoted string and every text between tags is a value.
  if (tree === undefined) for (const match of body.matchAll(/"([^"]*)"|'([^']*)'|>([^<]+)</g)) value(match[1] ?? match[2] ?? match[3]);
  return { ...(tree ? { tree } : {}), values, commands, text: withMacros(body) };
}

/** The elements of `body` as objects, each value passed through `value`; undefined when not well formed or too deep. */
function parse(body: string, value: (raw: string) => string): Record<string, unknown> | undefined {
  const root: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  const stack: { name: string; node: Record<string, unknown> }[] = [{ name: '', node: root }];
  let index = 0;
  while (index < body.length) {
    const open = body.indexOf('<', index);
    const textEnd = open < 0 ? body.length : open;
    if (body.slice(index, textEnd).trim() !== '') add(stack[stack.length - 1].node, '$text', value(body.slice(index, textEnd)));
    if (open < 0) break;
    const skip = skipped(body, open);
    if (skip === undefined) return undefined;
    if (skip.text !== undefined) add(stack[stack.length - 1].node, '$text', value(skip.text));
    if (skip.end !== undefined) {
      index = skip.end;
      continue;
    }
    if (body[open + 1] === '/') {
      CLOSE.lastIndex = open;
      const close = CLOSE.exec(body);
      if (!close || stack.length === 1 || stack[stack.length - 1].name !== close[1]) return undefined;
      stack.pop();
      index = open + close[0].length;
      continue;
    }
    TAG.lastIndex = open;
    const tag = TAG.exec(body);
    if (!tag) return undefined;
    const node: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const attribute of tag[2].matchAll(/([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) add(node, attribute[1], value(attribute[2] ?? attribute[3]));
    const parent = stack[stack.length - 1].node;
    add(parent, '$children', node);
    // JetBrains' key and value form: the parent has the key, so a watcher's `program` and `arguments` are one line.
    if (typeof node.name === 'string' && node.value !== undefined) add(parent, node.name, node.value);
    if (tag[3] !== '/') {
      stack.push({ name: tag[1], node });
      if (stack.length > MAX_LEVELS) return undefined;
    }
    index = open + tag[0].length;
  }
  return stack.length === 1 ? root : undefined;
}

/** What starts at `open` and is no element: a declaration, a comment, a CDATA section (its text), a DOCTYPE without a subset. */
function skipped(body: string, open: number): { end?: number; text?: string } | undefined {
  for (const [start, stop] of [
    ['<?', '?>'],
    ['<!--', '-->'],
    ['<![CDATA[', ']]>'],
  ] as const) {
    if (!body.startsWith(start, open)) continue;
    const end = body.indexOf(stop, open + start.length);
    if (end < 0) return undefined;
    return { end: end + stop.length, ...(start === '<![CDATA[' ? { text: body.slice(open + start.length, end) } : {}) };
  }
  if (body.startsWith('<!', open)) {
    // A DOCTYPE without an internal subset (one with it is refused above).
    const end = body.indexOf('>', open);
    return end < 0 ? undefined : { end: end + 1 };
  }
  return {};
}

/** Adds `value` under `key`, a second one making the key's values a list. */
function add(node: Record<string, unknown>, key: string, value: unknown): void {
  const had = node[key];
  node[key] = had === undefined ? value : Array.isArray(had) ? [...(had as unknown[]), value] : [had, value];
}

/** The predefined and numeric character references (`&lt;`, `&#x2f;`); another `&name;` is left as written. */
function decodeReferences(raw: string): string {
  return raw.replace(/&(?:#x([0-9a-f]{1,6})|#([0-9]{1,7})|([a-z]+));/gi, (whole, hex?: string, decimal?: string, name?: string) => {
    if (name !== undefined) return PREDEFINED[name] ?? whole;
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number.parseInt(decimal ?? '', 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** JetBrains' path macros spelled as the review reads paths (the module's folder is not known: read as a glob). */
function withMacros(value: string): string {
  return value.replace(/\$([A-Za-z_][A-Za-z0-9_]{0,64})(?::[^$\n]{0,256})?\$/g, (_whole, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'project_dir' || lower === 'projectfiledir') return '.';
    if (lower === 'user_home') return '~';
    return '*';
  });
}
