/**
 * The panel's secret in the page: taken from the link's fragment (#secret=…, which the browser
 * never sends anywhere), kept for this tab in sessionStorage, and removed from the address bar so
 * that it is not shown, bookmarked or shared by accident. Without one, the page asks for it.
 */

const STORAGE_KEY = 'devnet-panel-secret';

/** The secret from a pasted link (…#secret=X) or the bare secret. */
export function secretFrom(text: string): string | null {
  const m = /(?:^|[#&]secret=)([A-Za-z0-9_-]{43})(?:&|$)/.exec(text.trim());
  return m === null ? null : m[1]!;
}

export function takeSecret(): string | null {
  const fromLink = secretFrom(location.hash.replace(/^#/, '#'));
  if (fromLink !== null) {
    sessionStorage.setItem(STORAGE_KEY, fromLink);
    history.replaceState(null, '', location.pathname + location.search);
    return fromLink;
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

export function keepSecret(secret: string): void {
  sessionStorage.setItem(STORAGE_KEY, secret);
}

export function forgetSecret(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}
