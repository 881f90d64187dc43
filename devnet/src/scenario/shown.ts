/** A value as a problem message quotes it: JSON, cut short (a file may hold anything, of any size). */
export function shown(value: unknown, max = 60): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
