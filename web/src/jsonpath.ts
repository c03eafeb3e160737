// Finds where a JSON path the controller names in a 422 (`layers[0].sequence[1].duration`) is in
// the text of a document, so the message can be shown at that line. A small scanner: it records the
// span of every member and element while it walks; a path that is not in the text (a missing field)
// falls back to its nearest parent.

export interface Span {
  start: number;
  end: number;
  line: number;
}

export function splitPath(path: string): string[] {
  return path.match(/[^.[\]]+/g) ?? [];
}

export function locate(text: string, path: string): Span | null {
  const spans = new Map<string, [number, number]>();
  let i = 0;
  const ws = () => {
    while (i < text.length && /\s/.test(text[i])) i++;
  };
  const str = () => {
    const s = i++;
    while (i < text.length && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
    i++;
    try {
      return JSON.parse(text.slice(s, i)) as string;
    } catch {
      return "";
    }
  };
  const value = (at: string, from: number): void => {
    ws();
    const c = text[i];
    if (c === "{" || c === "[") {
      i++;
      for (let k = 0; ; k++) {
        ws();
        if (i >= text.length || text[i] === "}" || text[i] === "]") break;
        const start = i;
        let key = String(k);
        if (c === "{") {
          key = str();
          ws();
          i++; // ':'
        }
        value(at ? `${at}.${key}` : key, start);
        ws();
        if (text[i] === ",") i++;
        else break;
      }
      i++;
    } else if (c === '"') str();
    else while (i < text.length && !/[\s,\]}]/.test(text[i])) i++;
    spans.set(at, [from, i]);
  };
  try {
    value("", 0);
  } catch {
    return null;
  }
  const parts = splitPath(path);
  for (let n = parts.length; n >= 0; n--) {
    const span = spans.get(parts.slice(0, n).join("."));
    if (span) return { start: span[0], end: span[1], line: text.slice(0, span[0]).split("\n").length };
  }
  return null;
}
