/**
 * Webhook URL safety (docs/webhooks.md#url-safety): a webhook URL is `http` or `https`, carries no
 * credentials, and its host is, or resolves only to, public unicast addresses — never loopback, private,
 * link-local (cloud metadata included), multicast, unspecified, reserved, carrier-grade NAT or any other
 * special-purpose range. Checked when an endpoint is created or its URL changes, and again by the delivery
 * side against the address it actually connects to ({@link isPublicAddress}), so that a host re-pointed at
 * an internal address after the check is still refused. `BIZAPI_WEBHOOK_ALLOW_PRIVATE=true` lifts the
 * address check (intranets, tests), never the scheme and credentials checks.
 */
import dns from 'node:dns';
import net from 'node:net';
import { isPublicAddress } from '../../shared/public-address.ts';

/** How long a host name may take to resolve before the URL is refused (milliseconds). */
export const DNS_TIMEOUT_MS = 3000;

/** Why a URL was refused: its message is the one the API answers under `url`. */
export class UnsafeWebhookUrl extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafeWebhookUrl';
  }
}

/** A name resolver: every address of `hostname` (as `dns.promises.lookup(hostname, {all: true})`). */
export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (hostname) => dns.promises.lookup(hostname, { all: true, verbatim: true });

/** Options of {@link checkWebhookUrl}. */
export interface WebhookUrlCheckOptions {
  /** `BIZAPI_WEBHOOK_ALLOW_PRIVATE`: skip the address check (and so the name resolution). */
  allowPrivate: boolean;
  /** The resolver (default: the system's, `dns.promises.lookup`); tests pass their own. */
  lookup?: Lookup;
  /** Resolution timeout in milliseconds (default {@link DNS_TIMEOUT_MS}). */
  timeoutMs?: number;
}

/** A URL that passed {@link checkWebhookUrl}. */
export interface CheckedWebhookUrl {
  url: URL;
  /**
   * The addresses the host is or resolved to, all public; empty when the address check was skipped
   * (`allowPrivate`).
   */
  addresses: string[];
}

/** Rejects after `ms` milliseconds unless `promise` settles first; the timer never keeps the process alive. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), ms);
    timer.unref();
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks the syntax of a webhook URL: absolute, `http` or `https`, with a host, without a user name or
 * password.
 * @returns the parsed URL
 * @throws UnsafeWebhookUrl naming the problem
 */
export function parseWebhookUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UnsafeWebhookUrl('Enter a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UnsafeWebhookUrl('The URL must use the http or https scheme.');
  if (url.hostname === '') throw new UnsafeWebhookUrl('Enter a valid URL.');
  if (url.username !== '' || url.password !== '')
    throw new UnsafeWebhookUrl('The URL must not contain a user name or password.');
  return url;
}

/** The setting that changes the refusal of a private address (docs/webhooks.md#url-safety). */
const ALLOW_PRIVATE_HINT =
  'To deliver to a receiver on this machine or a private network, set BIZAPI_WEBHOOK_ALLOW_PRIVATE=true on the server.';

/**
 * Checks a webhook URL (docs/webhooks.md#url-safety): {@link parseWebhookUrl}, then, unless
 * `allowPrivate`, that its host is a public address or a name all of whose addresses are public
 * ({@link isPublicAddress}), resolved within `timeoutMs` (3 s).
 * @returns the URL and the public addresses it names
 * @throws UnsafeWebhookUrl for a bad scheme, credentials, a non-public address, or a name that does not
 *   resolve (in time)
 */
export async function checkWebhookUrl(text: string, options: WebhookUrlCheckOptions): Promise<CheckedWebhookUrl> {
  const url = parseWebhookUrl(text);
  if (options.allowPrivate) return { url, addresses: [] };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (net.isIP(host) !== 0) {
    if (!isPublicAddress(host))
      throw new UnsafeWebhookUrl(`The host ${host} is not a public address. ${ALLOW_PRIVATE_HINT}`);
    return { url, addresses: [host] };
  }
  let found: { address: string }[];
  try {
    found = await withTimeout((options.lookup ?? systemLookup)(host), options.timeoutMs ?? DNS_TIMEOUT_MS);
  } catch {
    throw new UnsafeWebhookUrl(`The host name ${host} could not be resolved.`);
  }
  if (found.length === 0) throw new UnsafeWebhookUrl(`The host name ${host} could not be resolved.`);
  const addresses = found.map((a) => a.address);
  const refused = addresses.find((a) => !isPublicAddress(a));
  if (refused !== undefined)
    throw new UnsafeWebhookUrl(
      `The host name ${host} resolves to an address that is not public. ${ALLOW_PRIVATE_HINT}`,
    );
  return { url, addresses };
}
