// The service's URLs: a base URL as the user gives it (normalised, credentials masked in messages),
// a path template filled with encoded parameters, and the query, joined without URL resolution.

import { unsendableUrl } from '../transport/target.js';
import { API_PREFIX } from '../registry/service.js';
import { invalidRequest } from './errors.js';

export const SANDBOX_BASE_URL = `sandbox://local${API_PREFIX}`;

/** A query's parameters; a list is the name repeated, once a value (a query string crm api was given as written). */
export type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

/**
 * The credentials of every URL in a text masked: `scheme://user:password@` as `scheme://user:****@`,
 * and `scheme://token@` as `scheme://****@`. A password (or token) in a base URL is never shown.
 */
export function maskCredentials(text: string): string {
  // Found by their `://`, not by a scheme: a scheme's pattern tried at each letter of a long word
  // took time growing with the square of its length (a message of 3 MB, hours).
  return text.replace(/:\/\/([^\s/?#]*)@/g, (_, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return `://${colon >= 0 ? `${userinfo.slice(0, colon)}:****` : '****'}@`;
  });
}

/** A host, with a port or a path perhaps, written without its scheme. */
const SCHEMELESS = /^[a-z0-9.-]+(:\d+)?(\/[^\s?#]*)?$/i;

function startsWithWebScheme(text: string): boolean {
  const start = text.slice(0, 8).toLowerCase();
  return start.startsWith('http://') || start.startsWith('https://');
}

/** What a host without its scheme most likely meant: http for this machine (crm sandbox serve), https for any other. */
function schemeFor(hostAndRest: string): 'http' | 'https' {
  const host = hostAndRest.split(/[:/]/)[0]!.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) ? 'http' : 'https';
}

/**
 * Normalises a user-given base URL: scheme required (http, https), no trailing slash,
 * and a URL with no path gets the spec's /api/v1 appended.
 */
export function normalizeBaseUrl(input: string): string {
  const shown = maskCredentials(input);
  // The URL parser would drop a line break or a tab silently: such a URL is refused, not cleaned up.
  const unsendable = unsendableUrl(input.trim());
  if (unsendable) throw invalidRequest(`invalid base URL ${JSON.stringify(shown)}: ${unsendable}`);
  // A host with no scheme: localhost:3000 would parse as the scheme "localhost:", crm.example.com as
  // nothing. A URL that starts with http:// or https:// (as every stored profile's does) is not one:
  // the pattern, whose compiling costs a start 0.1 ms, is not tried on it.
  if (!startsWithWebScheme(input.trim()) && SCHEMELESS.test(input.trim())) throw invalidRequest(`invalid base URL: ${shown} (no scheme)`, `give a full URL with its scheme: ${schemeFor(input.trim())}://${input.trim()}`);
  let url: URL;
  try {
    url = new URL(input.trim());
  } catch {
    throw invalidRequest(`invalid base URL: ${shown}`, 'give a full URL with its scheme, such as https://crm.example.com');
  }
  if (url.protocol === 'sandbox:') return SANDBOX_BASE_URL;
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw invalidRequest(`invalid base URL: ${shown} (scheme must be http or https)`);
  }
  if (url.search || url.hash) throw invalidRequest(`invalid base URL: ${shown} (no query or fragment allowed)`);
  if (url.username || url.password) throw invalidRequest(`invalid base URL: ${shown} (no user or password in the URL)`);
  const path = url.pathname.replace(/\/+$/, '');
  // The API base ends in /api/v1: more after it is an endpoint's path, copied with it (/api/v1/contacts).
  const beyond = path.indexOf(`${API_PREFIX}/`);
  if (beyond >= 0) {
    const base = `${url.protocol}//${url.host}${path.slice(0, beyond + API_PREFIX.length)}`;
    throw invalidRequest(`invalid base URL: ${shown} (the API base ends in ${API_PREFIX}; ${path.slice(beyond + API_PREFIX.length)} is an endpoint's path)`, `give ${base}${beyond === 0 ? ', or the origin alone' : ''}`);
  }
  return `${url.protocol}//${url.host}${path === '' ? API_PREFIX : path}`;
}

/** Encodes one path parameter so that no value can change which path is called. */
export function encodePathParam(name: string, value: string): string {
  if (value === '' || value === '.' || value === '..') {
    throw invalidRequest(`invalid ${name}: ${JSON.stringify(value)}`);
  }
  return encodeURIComponent(value);
}

/** Fills `{name}` placeholders of a path template, e.g. /contacts/{id}. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw invalidRequest(`missing ${name}`);
    return encodePathParam(name, value);
  });
}

function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === false) continue;
    for (const one of typeof value === 'object' ? value : [value]) params.append(key, String(one));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Joins base URL, path and query by string: URL resolution would treat `..` in a path as a step up. */
export function buildUrl(baseUrl: string, path: string, query?: Query): string {
  const base = baseUrl.replace(/\/+$/, '');
  const rest = path.startsWith('/') ? path : `/${path}`;
  return `${base}${rest}${queryString(query)}`;
}

/** This machine, by name or address: the only place plain HTTP may carry the key. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost') return true;
  if (!host.includes(':')) return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  if (host === '::1' || host === '0:0:0:0:0:0:0:1') return true;
  // IPv4-mapped IPv6, as the URL parser writes it: ::ffff:7f00:1 for ::ffff:127.0.0.1.
  return /^::ffff:(?:7f[0-9a-f]{2}:[0-9a-f]{1,4}|127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/.test(host);
}

/** The key travels only over HTTPS or to this machine, unless the user passed --insecure. */
export function assertSafeTransport(baseUrl: string, insecure: boolean): void {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || insecure || isLoopbackHost(url.hostname)) return;
  throw invalidRequest(
    `refusing to send the API key over plain HTTP to ${url.host}`,
    'use an https:// base URL, or pass --insecure if you accept the risk',
  );
}
