/**
 * Properties of the prompt template (`docs/contract.md#the-prompt-template`) over generated
 * payloads and templates: one pass only (substituted text is never expanded), paths that never
 * leave the payload, and no throw for any JSON payload or template text. Payloads are built as JSON
 * text and parsed, so keys such as `__proto__` are own properties exactly as they are in a real
 * delivery.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderDefaultPrompt, renderDeliverExtra, renderTemplate } from './template.js';

/** Names an object inherits, or that arrays and strings have, but no JSON payload owns. */
const INHERITED_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  '__defineGetter__',
  'length',
  'at',
  'map',
];

const PATH_CHARS = /^[A-Za-z0-9_.-]$/;

/** A key a payload may have: plain names, indices, prototype names, odd text. */
const keyArb = fc.oneof(
  fc.constantFrom('a', 'b', 'number', 'title', '0', '1', '01', '-1', 'a.b', ''),
  fc.constantFrom(...INHERITED_NAMES),
  fc.string({ maxLength: 6 }),
);

/** Text that looks like template syntax: placeholders, stray braces, near misses. */
const templateishArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('{a}', '{b}', '{number}', '{a.b}', '{0}', '{__proto__}', '{constructor}'),
      fc.constantFrom('{', '}', '{}', '{{a}}', '{ a }', '{a b}', '$a', '{a.0.b}', '{.}', '{-}'),
      fc.string({ maxLength: 5 }),
    ),
    { maxLength: 6 },
  )
  .map((parts) => parts.join(''));

const leafTextArb = fc.oneof(
  fc.jsonValue({ maxDepth: 0 }).map((value) => JSON.stringify(value)),
  templateishArb.map((text) => JSON.stringify(text)),
);

/** JSON text of a value, objects and arrays nested a few levels. */
const { tree: jsonTextArb, object: objectTextArb } = fc.letrec<{
  tree: string;
  object: string;
  array: string;
}>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafTextArb,
    tie('object'),
    tie('array'),
  ),
  object: fc
    .array(fc.tuple(keyArb, tie('tree')), { maxLength: 5 })
    .map(
      (entries) =>
        `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value}`).join(',')}}`,
    ),
  array: fc.array(tie('tree'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
}));

const payloadArb = objectTextArb.map((text) => JSON.parse(text) as unknown);

/** A dotted path of payload-like keys (only path characters, so it forms a placeholder). */
const pathArb = fc
  .array(
    fc.oneof(
      fc.constantFrom('a', 'b', 'number', 'title', '0', '1', '01', 'a.b'),
      fc.constantFrom(...INHERITED_NAMES),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,4}$/),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((segments) => segments.join('.'));

/** Templates mixing placeholders of real and inherited paths with arbitrary text. */
const templateArb = fc
  .array(
    fc.oneof(
      pathArb.map((path) => `{${path}}`),
      templateishArb,
      fc.string({ unit: 'binary', maxLength: 8 }),
    ),
    { maxLength: 8 },
  )
  .map((parts) => parts.join(''));

const MISSING = Symbol('missing');

/** An independent lookup: own properties only, canonical indices only for arrays. */
function referenceLookup(payload: unknown, path: string): unknown {
  let current = payload;
  for (const segment of path.split('.')) {
    if (typeof current !== 'object' || current === null) return MISSING;
    if (Array.isArray(current)) {
      const index = Number(segment);
      if (!Number.isInteger(index) || index < 0 || String(index) !== segment) return MISSING;
      if (index >= current.length) return MISSING;
      current = current[index] as unknown;
    } else {
      if (!Object.hasOwn(current, segment)) return MISSING;
      current = (current as Record<string, unknown>)[segment];
    }
  }
  return current;
}

function referenceFormat(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value, null, typeof value === 'object' && value !== null ? 2 : 0);
}

/** An independent one-pass renderer: scans left to right, never rescans what it wrote. */
function referenceRender(template: string, payload: unknown): string {
  let out = '';
  let i = 0;
  while (i < template.length) {
    if (template[i] === '{') {
      let j = i + 1;
      while (j < template.length && PATH_CHARS.test(template[j] ?? '')) j++;
      if (j > i + 1 && template[j] === '}') {
        const path = template.slice(i + 1, j);
        const value = referenceLookup(payload, path);
        out += value === MISSING ? template.slice(i, j + 1) : referenceFormat(value);
        i = j + 1;
        continue;
      }
    }
    out += template[i];
    i++;
  }
  return out;
}

describe('renderTemplate (properties)', () => {
  it('equals a one-pass reference renderer for any template and JSON payload', () => {
    fc.assert(
      fc.property(templateArb, payloadArb, (template, payload) => {
        expect(renderTemplate(template, payload)).toBe(referenceRender(template, payload));
      }),
      { numRuns: 300 },
    );
  });

  it('never expands placeholders inside substituted text', () => {
    fc.assert(
      fc.property(templateishArb, payloadArb, (text, rest) => {
        // The substituted string names paths that exist: they must come out as written.
        const payload = { ...(rest as object), a: 'A', b: { c: 'C' }, number: 7, value: text };
        expect(renderTemplate('{value}', payload)).toBe(text);
        expect(renderTemplate('<{value}|{value}>', payload)).toBe(`<${text}|${text}>`);
      }),
    );
  });

  it('leaves a path through inherited names as written when the payload does not own it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...INHERITED_NAMES), { minLength: 1, maxLength: 3 }),
        fc.jsonValue({ maxDepth: 3 }),
        (segments, value) => {
          // A generated value may own such a key by chance; every path it does not own must stay.
          const payload = JSON.parse(
            JSON.stringify({ data: value, list: [1, 2], text: 'abc' }),
          ) as unknown;
          for (const prefix of ['', 'data.', 'list.', 'text.']) {
            const placeholder = `{${prefix}${segments.join('.')}}`;
            const owned = referenceLookup(payload, `${prefix}${segments.join('.')}`) !== MISSING;
            if (!owned) expect(renderTemplate(placeholder, payload)).toBe(placeholder);
          }
        },
      ),
    );
  });

  it('keeps array and string lengths and prototype members as written', () => {
    const payload = JSON.parse('{"list":[1,2,3],"text":"abc","obj":{}}') as unknown;
    for (const path of [
      'list.length',
      'text.length',
      'obj.constructor',
      'obj.__proto__',
      'obj.toString',
      'list.map',
      'text.0',
      'list.-1',
      'list.01',
      'list.3',
      '__proto__.constructor',
      'constructor.name',
    ]) {
      expect(renderTemplate(`{${path}}`, payload)).toBe(`{${path}}`);
    }
  });

  it('reads an own "__proto__" key as payload data and pollutes nothing', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const payload = JSON.parse(`{"__proto__":{"polluted":${JSON.stringify(text)}}}`) as unknown;
        expect(renderTemplate('{__proto__.polluted}', payload)).toBe(text);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }),
    );
  });

  it('returns a template without placeholders unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), payloadArb, (template, payload) => {
        fc.pre(!/\{[A-Za-z0-9_.-]+\}/.test(template));
        expect(renderTemplate(template, payload)).toBe(template);
      }),
    );
  });

  it('never throws for arbitrary JSON payloads and template text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: 'binary' }), templateArb),
        fc.oneof(
          fc.jsonValue(),
          payloadArb,
          jsonTextArb.map((text) => JSON.parse(text) as unknown),
        ),
        (template, payload) => {
          expect(typeof renderTemplate(template, payload)).toBe('string');
          expect(typeof renderDefaultPrompt('route', 'event', payload)).toBe('string');
          const extra = renderDeliverExtra({ to: template, keep: 3 }, payload);
          expect(typeof extra.to).toBe('string');
          expect(extra.keep).toBe(3);
        },
      ),
    );
  });

  it('never throws for payloads nested too deeply to print', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1_000, max: 100_000 }), (depth) => {
        const payload = JSON.parse(`{"a":${'['.repeat(depth)}${']'.repeat(depth)}}`) as unknown;
        expect(typeof renderTemplate('{a} {a.0} {a.0.0.0}', payload)).toBe('string');
        expect(typeof renderDefaultPrompt('route', 'event', payload)).toBe('string');
      }),
      { numRuns: 10 },
    );
  });
});
