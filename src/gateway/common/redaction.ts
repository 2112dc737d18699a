/**
 * The one place a secret is taken out of text that came from the gateway. A
 * hostile or careless server can echo the key as it is, in another case, in
 * base64 or base64url (at any byte alignment, as inside a Basic credential or
 * a JWT), or URL-encoded; every form is replaced before the text reaches an
 * error, a log line, the chat or the disk.
 */

import { DecodedKeyGuard } from './decodedKeyGuard';
import { StreamKeyWatch } from './streamKeyWatch';

const MASK = '***';
/** Shorter secrets are not redacted: they would match ordinary words. */
const MIN_SECRET_LENGTH = 4;

/** The forms of `secret` a server might send back. */
export function secretVariants(secret: string): string[] {
  const forms = new Set<string>([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%20/g, '+')]);
  for (const encoded of base64Forms(secret)) {
    forms.add(encoded);
    forms.add(encoded.replace(/\+/g, '-').replace(/\//g, '_'));
    forms.add(encodeURIComponent(encoded));
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH);
}

/**
 * The base64 text that always appears when `secret` is encoded after 0, 1 or 2
 * other bytes: the characters that depend only on the secret's own bytes.
 */
function base64Forms(secret: string): string[] {
  const bytes = new TextEncoder().encode(secret);
  const forms: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = new Uint8Array(lead + bytes.length);
    padded.set(bytes, lead);
    const encoded = btoa(String.fromCharCode(...padded)).replace(/=+$/, '');
    // Characters mixing a lead byte, or a byte that follows the secret, are not the secret's own.
    const start = lead === 0 ? 0 : Math.ceil((lead * 8) / 6);
    const end = Math.floor(((lead + bytes.length) * 8) / 6);
    forms.push(encoded.slice(start, end));
  }
  return forms;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Keys echoed partly by servers ("Incorrect API key provided: sk-ab***yz"). */
const PARTIAL_KEY = /\b(sk|key)-[A-Za-z0-9_*-]{6,}/g;

/** The forms of a set of secrets and the pattern for them. */
interface SecretForms {
  pattern: RegExp | undefined;
  /** Every form of every secret, in the order secretVariants gives them. */
  forms: readonly string[];
}

let cached: { secrets: string; found: SecretForms } | undefined;

/**
 * One case-insensitive pattern for every form of every secret, longest first, and the forms themselves; kept for
 * the last set of secrets (the key), so a request does not encode the key again (base64 at three alignments, URL forms).
 */
function formsOf(secrets: readonly string[]): SecretForms {
  const id = secrets.join('\u0000');
  if (cached?.secrets === id) return cached.found;
  const forms = secrets.filter((s) => s.length >= MIN_SECRET_LENGTH).flatMap(secretVariants);
  const longestFirst = [...forms].sort((a, b) => b.length - a.length);
  const pattern = forms.length === 0 ? undefined : new RegExp(longestFirst.map(escapeRegExp).join('|'), 'gi');
  cached = { secrets: id, found: { pattern, forms } };
  return cached.found;
}

/**
 * One exchange's redaction, with its pattern built once. A stream watches its
 * reads with `watchStream` (a cheap exact check, see streamKeyWatch.ts); only
 * once that sees a form of the key are the events themselves rewritten.
 */
export class SecretRedactor {
  private readonly pattern: RegExp | undefined;
  private readonly forms: readonly string[];

  constructor(private readonly secrets: readonly string[]) {
    ({ pattern: this.pattern, forms: this.forms } = formsOf(secrets));
  }

  redact(text: string): string {
    return redact(text, this.secrets);
  }

  /** A watch for one stream's reads, in order; it sees a form of a secret cut across two reads too. */
  watchStream(): { sees(read: string): boolean } {
    return this.pattern === undefined ? { sees: () => false } : new StreamKeyWatch(this.pattern, this.forms);
  }

  /** A guard for one stream's decoded text (see decodedKeyGuard.ts); undefined when there is no secret to look for. */
  guardDecoded(): DecodedKeyGuard | undefined {
    const pattern = this.pattern;
    if (pattern === undefined) return undefined;
    return new DecodedKeyGuard({ forms: this.forms, watch: () => new StreamKeyWatch(pattern, this.forms), redact: (text) => this.redact(text) });
  }
}

/** `text` with every form of every secret (and partial key echoes) replaced by `***`. */
export function redact(text: string, secrets: readonly string[]): string {
  const { pattern } = formsOf(secrets);
  const out = pattern === undefined ? text : text.replace(pattern, MASK);
  return out.replace(PARTIAL_KEY, '$1-***');
}
