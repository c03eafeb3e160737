// String#split for a one-character separator, as the router and the store list need it: the same
// pieces ("" gives [""], "a//b" gives ["a", "", "b"]) without the general stdlib version (~0.4 KB).
export function splitOn(s: string, sep: i32): string[] {
  const out = new Array<string>();
  let start = 0;
  for (let i = 0; i <= s.length; i++) {
    if (i == s.length || s.charCodeAt(i) == sep) {
      out.push(s.substring(start, i));
      start = i + 1;
    }
  }
  return out;
}
