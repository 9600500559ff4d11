/**
 * The first field name that appears twice in one object of `text`, or undefined. `text` must already
 * be valid JSON (parse it first): the scan only follows strings, braces, brackets and commas. Names are
 * compared decoded, so `"name"` and `"n\u0061me"` are the same field.
 */
export function repeatedFieldName(text: string): string | undefined {
  const objects: (Set<string> | undefined)[] = [];
  let expectName = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 0x22) {
      let end = i + 1;
      let escaped = false;
      while (text.charCodeAt(end) !== 0x22) {
        if (text.charCodeAt(end) === 0x5c) {
          escaped = true;
          end++;
        }
        end++;
      }
      const names = objects.at(-1);
      if (expectName && names) {
        const name = escaped ? (JSON.parse(text.slice(i, end + 1)) as string) : text.slice(i + 1, end);
        if (names.has(name)) return name;
        names.add(name);
        expectName = false;
      }
      i = end;
    } else if (char === 0x7b) {
      objects.push(new Set());
      expectName = true;
    } else if (char === 0x5b) {
      objects.push(undefined);
    } else if (char === 0x7d || char === 0x5d) {
      objects.pop();
    } else if (char === 0x2c) {
      expectName = objects.at(-1) !== undefined;
    }
  }
  return undefined;
}
