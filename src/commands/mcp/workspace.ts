// Which workspace crm mcp serves and where that came from, as the agent is told (instructions) and
// as a refused key is explained in tool errors: an agent cannot run `crm auth login`, and the person
// who configured the MCP client must know which setting to fix.

import type { Context } from '../../cli/context.js';
import { maskCredentials } from '../../http/url.js';

export interface Workspace {
  /** "the workspace at https://crm.example.com/api/v1 (CRM_BASE_URL / CRM_API_KEY)". */
  description: string;
  /** Where the key came from: CRM_API_KEY, or the profile; undefined for the local sandbox. */
  keyFrom?: string;
  /** The host that checks the key. */
  host?: string;
  /** Where the base URL came from: --base-url, CRM_BASE_URL, or the profile. */
  urlFrom?: string;
  /** The host refused the key when the server started (set by the start-up check). */
  keyRefused?: boolean;
}

export function workspaceOf(ctx: Context): Workspace {
  const target = ctx.target();
  if (target.kind === 'sandbox') return { description: 'the local sandbox workspace (demo data on this machine)' };
  const profile = `profile ${target.profile}`;
  const urlFrom = ctx.options.baseUrl ? '--base-url' : ctx.env.CRM_BASE_URL ? 'CRM_BASE_URL' : profile;
  const keyFrom = target.keySource === 'env' ? 'CRM_API_KEY' : profile;
  const from = urlFrom === keyFrom ? urlFrom : `${urlFrom} / ${keyFrom}`;
  return { description: `the workspace at ${maskCredentials(target.baseUrl)} (${from})`, keyFrom, host: hostOf(target.baseUrl), urlFrom };
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return maskCredentials(baseUrl);
  }
}

/** What a tool error adds when the host refuses the key (401): who can fix it, and that calling again will not. */
export function refusedKeyAdvice(workspace: Workspace): string {
  const where = workspace.keyFrom ? ` (${workspace.keyFrom})` : '';
  return `the API key in this server's configuration${where} was refused by ${workspace.host ?? 'the service'}: it must be replaced where this MCP server is configured; calling again will not help`;
}

/** What a tool error adds when the workspace's host is not there (not found, nothing listening): who can fix the URL. */
export function unreachableAdvice(workspace: Workspace): string {
  const where = workspace.urlFrom ? ` (${workspace.urlFrom})` : '';
  return `the base URL in this server's configuration${where} names ${workspace.host ?? 'a host'}, which cannot be reached: check it where this MCP server is configured, and that the service is up`;
}
