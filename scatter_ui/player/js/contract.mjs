// The player's contract: what Python sends (a Payload) and what the player sends back (StepReport, CellClick),
// described in scatter_ui/player/contract.py, whose JSON Schema is shipped beside the assets
// (player-contract.json, at data.contract_url); and how the payload's bytes are read.
// When data.check is set (the test servers set it: SCATTER_PLAYER_CHECK=1) every
// payload is validated against it, and every report before it is sent; a breach is shown in the player and
// logged as a console error, and the player's data-contract attribute says "ok" or "invalid".

const CONTRACT_TYPES = {
  null: (v) => v === null,
  boolean: (v) => typeof v === "boolean",
  integer: (v) => Number.isInteger(v),
  number: (v) => typeof v === "number" && Number.isFinite(v),
  string: (v) => typeof v === "string",
  array: (v) => Array.isArray(v),
  object: (v) => v !== null && typeof v === "object" && !Array.isArray(v),
};

function shownValue(v) {
  const text = JSON.stringify(v) ?? String(v);
  return text.length <= 60 ? text : text.slice(0, 57) + "...";
}

// Where `value` is off the schema's definition `ref` ("Payload", "StepReport", "CellClick"): at most `limit`
// sentences naming the place ($.figure.data[2].z), the rule and the value; [] when it conforms. The same
// rules, in the same order, as player_contract.errors in Python (the subset of JSON Schema the contract uses).
export function contractErrors(schema, value, ref = "Payload", limit = 8) {
  const out = [];
  const check = (v, node, where, found, max) => {
    if (found.length >= max) return;
    if (node.$ref) node = schema.$defs[node.$ref.split("/").pop()];
    if (node.anyOf) {
      if (!node.anyOf.some((option) => { const f = []; check(v, option, where, f, 1); return !f.length; })) {
        found.push(`${where}: ${shownValue(v)} is none of the allowed kinds`);
      }
      return;
    }
    if (node.enum) {
      if (!node.enum.some((e) => e === v)) found.push(`${where}: ${shownValue(v)} is not one of ${node.enum.map(shownValue).join(", ")}`);
      return;
    }
    const kind = node.type;
    if (kind !== undefined && !CONTRACT_TYPES[kind](v)) { found.push(`${where}: ${shownValue(v)} is not of type ${kind}`); return; }
    if (node.minimum !== undefined && v < node.minimum) found.push(`${where}: ${shownValue(v)} is below the minimum ${node.minimum}`);
    if (kind === "array") {
      if (node.minItems !== undefined && v.length < node.minItems) found.push(`${where}: ${v.length} item(s), fewer than ${node.minItems}`);
      if (node.maxItems !== undefined && v.length > node.maxItems) found.push(`${where}: ${v.length} item(s), more than ${node.maxItems}`);
      const prefix = node.prefixItems || [];
      for (let i = 0; i < v.length; i++) {
        const sub = i < prefix.length ? prefix[i] : (node.items ?? true);
        if (sub === false) break;
        if (sub !== true) check(v[i], sub, `${where}[${i}]`, found, max);
      }
    } else if (kind === "object") {
      for (const name of node.required || []) if (!(name in v)) found.push(`${where}: the required key '${name}' is missing`);
      const props = node.properties || {};
      const extra = node.additionalProperties ?? true;
      for (const [name, item] of Object.entries(v)) {
        const sub = name in props ? props[name] : extra;
        if (sub === false) found.push(`${where}: the key '${name}' is not in the contract`);
        else if (sub !== true) check(item, sub, `${where}.${name}`, found, max);
      }
    }
  };
  check(value, { $ref: `#/$defs/${ref}` }, "$", out, limit);
  return out.slice(0, limit); // (an object's keys may add a few past the limit before it is looked at again)
}

let contractPromise = null;
export function loadContract(url) {
  if (!contractPromise) {
    contractPromise = fetch(url).then((r) => {
      if (!r.ok) throw new Error(`could not load the player's contract from ${url} (${r.status})`);
      return r.json();
    }).catch((e) => { contractPromise = null; throw e; });
  }
  return contractPromise;
}

// Python sends bytes: a header line naming the content ("sx-player:<serial>:<length>"), then the data
// as JSON (scatter_ui/player/component.py payload). The same header means the same data: it is parsed once.
const decoder = new TextDecoder();
export function readData(player, raw) {
  if (!(raw instanceof Uint8Array)) return raw; // (plain data, as Streamlit passes a dict)
  const nl = raw.indexOf(10);
  const head = decoder.decode(raw.subarray(0, nl));
  if (player.dataHead !== head) {
    player.dataHead = head;
    player.parsed = JSON.parse(decoder.decode(raw.subarray(nl + 1)));
  }
  return player.parsed;
}

// the coordinates of the output cell a hover text names ("output[1, 2] = ...", scatter_ui/figures/heatmaps.py
// _hover; tested against it), or null: what a click on an output cell sends (CellClick)
export function cellOfHover(hover) {
  const m = /^output\[([^\]]*)\]/.exec(String(hover || ""));
  if (!m) return null;
  return m[1] === "" ? [] : m[1].split(",").map((s) => Number(s.trim()));
}
