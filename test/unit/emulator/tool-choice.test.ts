// The gateway emulator's tool_choice on both endpoints, and function arguments generated from a JSON Schema.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator, type Emulator } from '../../emulator/server';
import { generateFromSchema } from '../../emulator/schema-args';
import { chatBody, json, post, schemaErrors } from '../../emulator/test-helpers';

let emu: Emulator;
before(async () => {
  emu = await startEmulator({ port: 0 });
});
after(() => emu.close());
beforeEach(() => emu.reset());

const WEATHER_SCHEMA = {
  type: 'object',
  properties: {
    city: { type: 'string', minLength: 3, maxLength: 20 },
    days: { type: 'integer', minimum: 1, maximum: 7 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    step: { type: 'number', minimum: 10, multipleOf: 5 },
    units: { enum: ['celsius', 'fahrenheit'] },
    exact: { type: 'boolean' },
    version: { const: 2 },
    when: { type: 'string', format: 'date-time' },
    email: { type: 'string', format: 'email' },
    tags: { type: 'array', items: { type: 'string' }, minItems: 2, uniqueItems: true },
    where: {
      type: 'object',
      properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lon: { $ref: '#/$defs/lon' } },
      required: ['lat', 'lon'],
      additionalProperties: false,
    },
    maybe: { anyOf: [{ type: 'null' }, { type: 'integer', minimum: 5 }] },
    merged: {
      allOf: [
        { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'integer' } }, required: ['b'] },
      ],
    },
    nullable: { type: ['string', 'null'], maxLength: 2 },
  },
  required: ['city', 'days', 'where'],
  additionalProperties: false,
  $defs: { lon: { type: 'number', minimum: -180, maximum: -170 } },
};

void describe('tool_choice and schema-generated arguments', () => {
  void it('generates values that satisfy the schema (checked independently)', () => {
    const value = generateFromSchema(WEATHER_SCHEMA);
    assert.deepEqual(schemaErrors(value, WEATHER_SCHEMA), []);
    assert.deepEqual(Object.keys(value as object).sort(), Object.keys(WEATHER_SCHEMA.properties).sort());
    assert.deepEqual(
      schemaErrors(generateFromSchema({ type: 'integer', exclusiveMinimum: 3, exclusiveMaximum: 5 }), {
        type: 'integer',
        exclusiveMinimum: 3,
        exclusiveMaximum: 5,
      }),
      [],
    );
    assert.deepEqual(schemaErrors({ city: 'x' }, WEATHER_SCHEMA).length > 0, true, 'the checker does reject');
  });

  void it('chat: a named function is called with schema-satisfying arguments', async () => {
    const tools = [
      { type: 'function', function: { name: 'other', parameters: { type: 'object', properties: {} } } },
      { type: 'function', function: { name: 'get_weather', parameters: WEATHER_SCHEMA } },
    ];
    const body = await json(
      await post(emu, '/v1/chat/completions', chatBody('x', { tools, tool_choice: { type: 'function', function: { name: 'get_weather' } } })),
    );
    const calls = body.choices[0].message.tool_calls;
    assert.equal(calls.length, 1);
    assert.equal(calls[0].function.name, 'get_weather');
    assert.deepEqual(schemaErrors(JSON.parse(calls[0].function.arguments), WEATHER_SCHEMA), []);
    assert.equal(body.choices[0].finish_reason, 'tool_calls');
  });

  void it('responses: a named function is called; required calls the first tool; none never calls', async () => {
    const tools = [
      { type: 'function', name: 'first', parameters: { type: 'object', properties: { n: { type: 'integer', minimum: 4 } }, required: ['n'] } },
      { type: 'function', name: 'get_weather', parameters: WEATHER_SCHEMA, strict: true },
    ];
    const named = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: { type: 'function', name: 'get_weather' } }));
    const call0 = named.output.find((o: any) => o.type === 'function_call');
    assert.equal(call0.name, 'get_weather');
    assert.deepEqual(schemaErrors(JSON.parse(call0.arguments), WEATHER_SCHEMA), []);
    const required = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: 'required' }));
    assert.equal(required.output[0].name, 'first');
    assert.deepEqual(JSON.parse(required.output[0].arguments), { n: 4 });
    emu.script('demo-key', [{ text: 'only words', toolCalls: [{ name: 'first', arguments: { n: 5 } }] }]);
    const none = await json(await post(emu, '/v1/responses', { model: 'gw-code', input: 'x', tools, tool_choice: 'none' }));
    assert.deepEqual(
      none.output.map((o: any) => o.type),
      ['message'],
    );
    assert.equal(none.output[0].content[0].text, 'only words');
  });

  void it('auto follows the script: scripted calls with auto, plain text by default', async () => {
    const tools = [{ type: 'function', function: { name: 'f' } }];
    const plain = await json(await post(emu, '/v1/chat/completions', chatBody('hello', { tools, tool_choice: 'auto' })));
    assert.equal(plain.choices[0].message.content, 'Echo: hello');
    assert.equal(plain.choices[0].message.tool_calls, undefined);
    emu.script('demo-key', [{ toolCalls: [{ name: 'f', arguments: {} }] }]);
    const scripted = await json(await post(emu, '/v1/chat/completions', chatBody('hello', { tools })));
    assert.equal(scripted.choices[0].message.tool_calls[0].function.name, 'f');
  });
});
