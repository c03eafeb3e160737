// Build-time text compression for static UTF-8 tables (scripts/messages-transform.mjs: the message
// table; scripts/build.mjs: assembly/text/). Greedy: up to one entry per free code byte, each the
// common substring that saves the most, replaced in the texts (and in earlier entries, so entries
// nest) by its code byte. Decoders expand a code byte recursively. Texts are byte strings (latin1).
// Code bytes are the control bytes `from`-31 that no text holds and, with `high` when every text is
// ASCII, the bytes 128-255 too (entries 32 - from onwards: byte b is entry 32 - from + b - 128).

/** Code bytes `from`-31 that no text holds. */
export function freeCodes(texts, from) {
  const codes = [];
  for (let c = from; c < 32; c++) if (!texts.some((t) => t.includes(String.fromCharCode(c)))) codes.push(c);
  return codes;
}

/**
 * Returns [packed texts, entries by code byte - `from`] ("" for codes not used). Entries never
 * hold a byte below `from` (template markers stay outside them). Proves the round trip.
 * `shortest`: the shortest substring an entry may be; `least`: an entry must save more than this
 * many bytes (its own bytes and 2 of index counted against it).
 */
export function compress(texts, from, high = false, shortest = 3, least = 4) {
  const codes = freeCodes(texts, from);
  const ascii = texts.every((t) => !/[\x80-\xff]/.test(t));
  if (high && ascii) for (let c = 128; c < 256; c++) codes.push(c);
  let cur = [...texts];
  const entries = [];
  const occurrences = (t, sub) => t.split(sub).length - 1;
  const allowed = (sub) => ![...sub].some((ch) => ch.charCodeAt(0) < from);
  while (entries.length < codes.length) {
    // candidates by overlapping counts, then the best by its exact (non-overlapping) saving
    const counts = new Map();
    for (const t of [...cur, ...entries])
      for (let i = 0; i < t.length; i++)
        for (let len = shortest; len <= 24 && i + len <= t.length; len++) {
          const sub = t.substr(i, len);
          counts.set(sub, (counts.get(sub) ?? 0) + 1);
        }
    const gain = (sub, n) => n * (sub.length - 1) - sub.length - 2;
    const top = [...counts]
      .filter(([sub]) => allowed(sub))
      .sort((a, b) => gain(b[0], b[1]) - gain(a[0], a[1]) || (a[0] < b[0] ? -1 : 1));
    let best = null;
    for (const [sub] of top.slice(0, 40)) {
      const n = [...cur, ...entries].reduce((sum, t) => sum + occurrences(t, sub), 0);
      if (!best || gain(sub, n) > best[1]) best = [sub, gain(sub, n)];
    }
    if (!best || best[1] <= least) break;
    const code = String.fromCharCode(codes[entries.length]);
    cur = cur.map((t) => t.split(best[0]).join(code));
    for (let e = 0; e < entries.length; e++) entries[e] = entries[e].split(best[0]).join(code);
    entries.push(best[0]);
  }
  const byCode = new Array(32 - from + (high && ascii ? 128 : 0)).fill("");
  const slot = (c) => (c < 32 ? c - from : 32 - from + c - 128);
  for (let e = 0; e < entries.length; e++) byCode[slot(codes[e])] = entries[e];
  const isCode = (c) => (c >= from && c < 32) || (high && ascii && c >= 128);
  const expand = (t) =>
    [...t].map((ch) => (isCode(ch.charCodeAt(0)) ? expand(byCode[slot(ch.charCodeAt(0))]) : ch)).join("");
  cur.forEach((t, i) => {
    if (expand(t) !== texts[i]) throw new Error(`dictionary: text ${i} does not expand to itself`);
  });
  return [cur, byCode];
}
