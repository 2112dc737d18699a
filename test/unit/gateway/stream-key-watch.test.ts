// The stream's key watch skips the redaction pattern on reads that cannot hold the key: it must
// never skip one that does, whatever the case, the encoding, or where the reads cut the key.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { SecretRedactor, secretVariants } from '../../../src/gateway/common/redaction';
import { SAMPLE_CHARS } from '../../../src/gateway/common/streamKeyWatch';
import { prng } from '../helpers/prng';

/**
 * A key like a real one, a short one, one whose URL and base64 forms differ from it (`/`, `+`, space, `%`),
 * and one with a Latin-1 letter the pattern folds like its Greek capital (µ, Μ) while lower-casing does not.
 */
const KEYS = ['gw_LiveToken0123456789abcdef', 'demo-key', 'sk/Ab+c d%Zq~9', 'µ-Key_µ42'];

const CASINGS: Record<string, (text: string) => string> = {
  'as sent': (text) => text,
  upper: (text) => text.toUpperCase(),
  lower: (text) => text.toLowerCase(),
  swapped: (text) => [...text].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join(''),
  alternating: (text) => [...text].map((c, i) => (i % 2 === 0 ? c.toUpperCase() : c.toLowerCase())).join(''),
};

/** Clean reads that come first and so decide which characters the watch takes as rare. */
function warmUps(key: string): Record<string, string[]> {
  const random = prng(7);
  // The key's own characters, shuffled: every anchor candidate looks common.
  const own = [...secretVariants(key).join('')];
  const shuffled = Array.from({ length: 6000 }, () => own[Math.floor(random() * own.length)]).join('');
  return { none: [], 'a read of its own characters': [shuffled], 'many small reads': shuffled.match(/.{1,97}/g) ?? [] };
}

/** True when any read, in order, was seen to hold the key. */
function seenIn(key: string, reads: string[]): boolean {
  const watch = new SecretRedactor([key]).watchStream();
  let seen = false;
  for (const read of reads) seen = watch.sees(read) || seen;
  return seen;
}

type Watch = ReturnType<SecretRedactor['watchStream']>;

/** A watch that has read `clean`, in order. */
function watchAfter(key: string, clean: string[]): Watch {
  const watch = new SecretRedactor([key]).watchStream();
  for (const read of clean) watch.sees(read);
  return watch;
}

/**
 * A copy of `watch` in the state it is in (its counts, anchors and the tail it keeps for the seam), so each
 * cut starts from one warm-up instead of reading its 6,000 characters again: the test's cost was the warm-ups.
 * The test checks that a copy equals a watch that read the start itself, and that the copies left the original as it was.
 */
function copyOf(watch: Watch): Watch {
  const copy = Object.create(Object.getPrototypeOf(watch) as object) as Record<string, unknown>;
  const fields: [string, unknown][] = Object.entries(watch as object);
  for (const [name, value] of fields) {
    copy[name] = ArrayBuffer.isView(value) ? (value as Uint32Array).slice() : Array.isArray(value) ? [...(value as unknown[])] : value;
  }
  return copy as unknown as Watch;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('the stream key watch', () => {
  for (const key of KEYS) {
    test(`sees every form of ${key} in any case, cut at every point between two reads, after any clean start`, () => {
      for (const [start, clean] of Object.entries(warmUps(key))) {
        assert.equal(seenIn(key, clean), false, `the clean start "${start}" alone`);
        const warmed = watchAfter(key, clean);
        assert.deepStrictEqual(copyOf(warmed), watchAfter(key, clean), `a copy after "${start}" is the watch that read it`);
        for (const form of secretVariants(key)) {
          for (const [casing, recase] of Object.entries(CASINGS)) {
            const event = `data: {"delta":"x ${recase(form)} y"}\n\n`;
            for (let cut = 0; cut <= event.length; cut++) {
              const watch = copyOf(warmed);
              const seen = [watch.sees(event.slice(0, cut)), watch.sees(event.slice(cut))];
              assert.ok(seen.includes(true), `${form} ${casing}, after "${start}", cut at ${cut}`);
            }
          }
        }
        // No state the copies shared with it changed: every cut really started from the clean start.
        assert.deepStrictEqual(warmed, watchAfter(key, clean), `the watch after "${start}" is as it was`);
      }
    });
  }

  // The anchors are chosen again in the read that completes the counted start: a form cut across that read is still seen.
  test('sees a form cut across the read in which the watch finishes counting the stream start', () => {
    for (const key of KEYS) {
      const form = CASINGS.alternating(secretVariants(key)[1] ?? key);
      const event = `data: {"delta":"x ${form} y"}\n\n`;
      for (const short of [1, Math.floor(event.length / 2), event.length]) {
        const filler = `data: {"delta":"${'tok '.repeat(SAMPLE_CHARS)}`.slice(0, SAMPLE_CHARS - short);
        for (let cut = 0; cut <= event.length; cut++) {
          const reads = [filler, event.slice(0, cut), event.slice(cut)];
          assert.ok(seenIn(key, reads), `${key}: sample completed ${short} characters into the event, cut at ${cut}`);
        }
      }
    }
  });

  test('sees the key spread over three reads, however small the middle one', () => {
    const key = KEYS[0];
    const event = `data: {"delta":"${CASINGS.alternating(key)}"}`;
    const at = event.indexOf('"', 10) + 1;
    for (let first = at; first < at + key.length; first++) {
      for (let second = first; second <= at + key.length; second++) {
        assert.ok(seenIn(key, [event.slice(0, first), event.slice(first, second), event.slice(second)]), `cuts at ${first} and ${second}`);
      }
    }
  });

  test('sees a form after many false starts of each of its characters, in either case, in one read', () => {
    for (const key of KEYS) {
      for (const form of secretVariants(key)) {
        // Each character of the form, alone and in both cases, many times before the form itself: whichever the anchor starts with.
        const starts = [...form]
          .flatMap((c) => [c.toLowerCase(), c.toUpperCase(), `${c}\u0000`])
          .join(' ')
          .repeat(50);
        assert.ok(seenIn(key, [`${starts}${CASINGS.alternating(form)}${starts}`]), form);
        assert.equal(seenIn(key, [starts]), false, `${form}: the false starts alone`);
      }
    }
  });

  test('does not report a read that holds only near misses of the key', () => {
    for (const key of KEYS) {
      for (const form of secretVariants(key)) {
        // Every window of the form is there, the whole form never is.
        const misses = [...form].map((_, i) => `${form.slice(0, i)}\u0000${form.slice(i + 1)}`).join(' ');
        assert.equal(seenIn(key, [misses, misses.toUpperCase()]), false, form);
      }
    }
  });

  test('agrees with the case-insensitive pattern on random streams cut into random reads', () => {
    const random = prng(20261123);
    for (const key of KEYS) {
      const forms = secretVariants(key);
      const pattern = new RegExp(forms.map(escapeRegExp).join('|'), 'i');
      const alphabet = [...new Set([...forms.join('')].flatMap((c) => [c, c.toUpperCase(), c.toLowerCase()]).concat([...'{}":, \n']))];
      for (let round = 0; round < 300; round++) {
        let text = Array.from({ length: Math.floor(random() * 400) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
        if (random() < 0.5) {
          const form = forms[Math.floor(random() * forms.length)];
          const recase = Object.values(CASINGS)[Math.floor(random() * 5)];
          const at = Math.floor(random() * (text.length + 1));
          text = text.slice(0, at) + recase(form) + text.slice(at);
        }
        const reads: string[] = [];
        for (let at = 0; at < text.length;) {
          const size = 1 + Math.floor(random() * 60);
          reads.push(text.slice(at, at + size));
          at += size;
        }
        assert.equal(seenIn(key, reads), pattern.test(text), `round ${round}: ${JSON.stringify(reads)}`);
      }
    }
  });
});
