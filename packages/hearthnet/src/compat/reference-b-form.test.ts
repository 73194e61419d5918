import { describe, expect, it } from 'vitest';
import { parseReferenceJson, pythonAsciiJson } from './reference-json.js';

// The `b-form` cases of the conformance fixture compat.json, copied here: the sorted-key ASCII JSON of
// an arbitrary value (json.dumps(sort_keys=True, separators=(',', ':'), ensure_ascii=True)) has no
// public function in @agentwire/hearthnet, so the compat suite, which runs every other compat.json case
// against the public kits, cannot reach it. Keep the two in step when the fixture changes.
const bForm: readonly (readonly [id: string, jsonText: string, expected: string])[] = [
  [
    'b-form-floats',
    '{"int":1,"float":1.0,"neg_zero":-0.0,"tiny":1e-7,"big":1e16,"third":0.3333333333333333,"exp":1.5E300}',
    '{"big":1e+16,"exp":1.5e+300,"float":1.0,"int":1,"neg_zero":-0.0,"third":0.3333333333333333,"tiny":1e-07}',
  ],
  [
    'b-form-big-int',
    '{"n":18446744073709551616,"m":-9007199254740993,"k":[0,-0,1e2]}',
    '{"k":[0,0,100.0],"m":-9007199254740993,"n":18446744073709551616}',
  ],
  [
    'b-form-unicode',
    '{"e":"caf\\u00e9","raw":"gr\u00fc\u00dfe \ud83c\udf3b","emoji":"\\ud83d\\ude00","del":"\\u007f","ls":"\\u2028","ctl":"\\u0001\\b\\f\\n\\r\\t","q":"\\"\\\\\\/"}',
    '{"ctl":"\\u0001\\b\\f\\n\\r\\t","del":"\\u007f","e":"caf\\u00e9","emoji":"\\ud83d\\ude00","ls":"\\u2028","q":"\\"\\\\/","raw":"gr\\u00fc\\u00dfe \\ud83c\\udf3b"}',
  ],
  [
    'b-form-key-order',
    '{"\\uff5e":1,"\\ud83d\\ude00":2,"a":3,"B":4,"":5,"aa":{"z":1,"y":[{"d":1,"c":2}]}}',
    '{"":5,"B":4,"a":3,"aa":{"y":[{"c":2,"d":1}],"z":1},"\\uff5e":1,"\\ud83d\\ude00":2}',
  ],
  [
    'b-form-nested-empty',
    '{"a":[],"b":{},"c":[[],{}],"d":null,"e":true,"f":false}',
    '{"a":[],"b":{},"c":[[],{}],"d":null,"e":true,"f":false}',
  ],
  ['b-form-whitespace', ' { "b" : [ 1 , 2.50 ] ,\n\t"a" : "x" } ', '{"a":"x","b":[1,2.5]}'],
  [
    'b-form-lone-surrogate-keys',
    '{"\\udfffz":1,"\\ud800\\udc00":2,"\\ue000":3,"\\ud800":4}',
    '{"\\ud800":4,"\\udfffz":1,"\\ue000":3,"\\ud800\\udc00":2}',
  ],
  // b-form-nested-900: 900 nested lists around {"a":1.0} come out unchanged.
  [
    'b-form-nested-900',
    `{"a":${'['.repeat(900)}1.0${']'.repeat(900)}}`,
    `{"a":${'['.repeat(900)}1.0${']'.repeat(900)}}`,
  ],
];

describe('pythonAsciiJson with sorted keys (compat.json b-form vectors)', () => {
  it.each(bForm)('%s', (_id, jsonText, expected) => {
    expect(pythonAsciiJson(parseReferenceJson(jsonText), { sortKeys: true })).toBe(expected);
  });
});
