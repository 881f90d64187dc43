/**
 * Who may use the panel. It listens on 127.0.0.1 only, yet any web page the user opens can make
 * their browser send requests there, so besides the secret:
 *   - Host must name the panel itself (127.0.0.1:PORT or localhost:PORT): a page of another
 *     site whose name was rebound to 127.0.0.1 (DNS rebinding) sends its own name, and is refused;
 *   - Origin, when a browser sends one, must be the panel's own, and an /api request a browser
 *     marks as cross-site (Sec-Fetch-Site) is refused: no other page drives or reads the panel;
 *   - every /api request (reads included: the stream carries the nodes' logs) presents the
 *     devnet's secret in a header, which no form, link or image of another page can send;
 *   - no answer carries a CORS header, and the page may not be framed (clickjacking).
 */
import { HttpError } from '@chain-devnet/kit/http';
import type Koa from 'koa';
import { secretMatches } from '../panel/secret.js';
import { SECRET_HEADER } from './shapes.js';

export interface GuardOptions {
  readonly port: number;
  readonly secret: string;
}

/** On every answer, refusals included. The page loads nothing from elsewhere and runs no inline code. */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/** The names the panel answers to. */
export function panelOrigins(port: number): { hosts: string[]; origins: string[] } {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return { hosts, origins: hosts.map((h) => `http://${h}`) };
}

export function guard(o: GuardOptions): Koa.Middleware {
  const { hosts, origins } = panelOrigins(o.port);
  return async (ctx, next) => {
    ctx.set(SECURITY_HEADERS);
    const host = ctx.get('Host').toLowerCase();
    if (!hosts.includes(host))
      throw new HttpError(
        403,
        `Host ${host === '' ? '(none)' : JSON.stringify(host)} is not this panel: open http://127.0.0.1:${o.port}/`,
      );
    const origin = ctx.get('Origin');
    if (origin !== '' && !origins.includes(origin))
      throw new HttpError(403, `Origin ${JSON.stringify(origin)} may not use this panel`);
    if (ctx.path.startsWith('/api/')) {
      const site = ctx.get('Sec-Fetch-Site');
      if (site !== '' && site !== 'same-origin' && site !== 'none')
        throw new HttpError(403, `a ${site} request may not use this panel`);
      if (!secretMatches(o.secret, ctx.get(SECRET_HEADER) || undefined))
        throw new HttpError(
          403,
          `this needs the panel's secret in the ${SECRET_HEADER} header: open the link devnet ui prints`,
        );
      ctx.set('Cache-Control', 'no-store');
    }
    await next();
  };
}
