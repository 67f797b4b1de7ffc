// contract.mjs: the validator's rules, the payload's header, and the clicked cell read from its hover text.
import test from "node:test";
import assert from "node:assert/strict";
import { cellOfHover, contractErrors, readData } from "../../../scatter_ui/player/js/contract.mjs";

const SCHEMA = {
  $defs: {
    Report: { type: "object", properties: { step: { type: "integer", minimum: 0 }, view: { type: "string" },
                                            mode: { enum: ["a", "b"] }, size: { anyOf: [{ type: "integer" }, { type: "null" }] } },
              required: ["step", "view"], additionalProperties: false },
    Pair: { type: "array", prefixItems: [{ type: "integer" }, { type: "string" }], items: false, minItems: 2, maxItems: 2 },
    Open: { type: "object", properties: { x: { type: "number" } }, required: [], additionalProperties: true },
  },
};

test("a value on the contract has no errors", () => {
  assert.deepEqual(contractErrors(SCHEMA, { step: 2, view: "v", mode: "a", size: null }, "Report"), []);
  assert.deepEqual(contractErrors(SCHEMA, [1, "x"], "Pair"), []);
  assert.deepEqual(contractErrors(SCHEMA, { x: 1.5, anything: [1] }, "Open"), []);
});

test("each breach names its place, the rule and the value", () => {
  assert.deepEqual(contractErrors(SCHEMA, { step: -1, view: 3, extra: 0 }, "Report"), [
    "$.step: -1 is below the minimum 0", "$.view: 3 is not of type string", "$: the key 'extra' is not in the contract"]);
  assert.deepEqual(contractErrors(SCHEMA, { view: "v" }, "Report"), ["$: the required key 'step' is missing"]);
  assert.deepEqual(contractErrors(SCHEMA, { step: 1.5, view: "v", mode: "c", size: "9" }, "Report"), [
    "$.step: 1.5 is not of type integer", '$.mode: "c" is not one of "a", "b"', '$.size: "9" is none of the allowed kinds']);
  assert.deepEqual(contractErrors(SCHEMA, [1], "Pair"), ["$: 1 item(s), fewer than 2"]);
  assert.deepEqual(contractErrors(SCHEMA, ["1", "x", 3], "Pair"), ["$: 3 item(s), more than 2", '$[0]: "1" is not of type integer']);
  assert.deepEqual(contractErrors(SCHEMA, { x: Infinity }, "Open"), ["$.x: null is not of type number"]);
});

test("at most `limit` errors are said, and long values are cut", () => {
  const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`k${i}`, i]));
  assert.equal(contractErrors(SCHEMA, { step: 0, view: "v", ...many }, "Report", 3).length, 3);
  const [error] = contractErrors(SCHEMA, { step: 0, view: "x".repeat(100), mode: "x".repeat(100) }, "Report");
  assert.match(error, /^\$\.mode: "x{56}\.\.\. is not one of/);
});

test("a payload's JSON is parsed once per header", () => {
  const holder = {};
  const bytes = (head, body) => new TextEncoder().encode(`${head}\n${JSON.stringify(body)}`);
  const first = readData(holder, bytes("sx-player:1:9", { n: 1 }));
  assert.deepEqual(first, { n: 1 });
  assert.equal(readData(holder, bytes("sx-player:1:9", { n: 2 })), first); // the same header: the same data
  assert.deepEqual(readData(holder, bytes("sx-player:2:9", { n: 2 })), { n: 2 });
  const plain = { n: 3 };
  assert.equal(readData(holder, plain), plain); // a dict passed as it is
});

test("a click reads the output cell from the hover text's first line", () => {
  assert.deepEqual(cellOfHover("output[1, 2] = 5<br>step 1: ..."), [1, 2]);
  assert.deepEqual(cellOfHover("output[7] = 0"), [7]);
  assert.deepEqual(cellOfHover("output[] = 1"), []);
  assert.equal(cellOfHover("updates[0] = 1"), null);
  assert.equal(cellOfHover(undefined), null);
});
