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
import ipaddr from 'ipaddr.js';

/** How long a host name may take to resolve before the URL is refused (milliseconds). */
export const DNS_TIMEOUT_MS = 3000;

/** Addresses refused whatever their range says: the cloud metadata services. */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(['169.254.169.254', 'fd00:ec2::254']);

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

/** An IPv4 address from the 32 bits `hi << 16 | lo` of two IPv6 parts. */
function ipv4Of(hi: number, lo: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);
}

/** Whether an IPv4 address is public unicast and not a metadata address. */
function isPublicIpv4(addr: ipaddr.IPv4): boolean {
  return addr.range() === 'unicast' && !METADATA_ADDRESSES.has(addr.toString());
}

/**
 * How an IPv6 address that carries an IPv4 address is judged (docs/webhooks.md#url-safety):
 * - IPv4-compatible `::a.b.c.d` (`::/96`, deprecated by RFC 4291, routed by no one): refused outright;
 * - NAT64 well-known prefix `64:ff9b::a.b.c.d` (`64:ff9b::/96`, RFC 6052; what DNS64 answers on an
 *   IPv6-only network): judged as the IPv4 address in its last 32 bits;
 * - NAT64 local-use `64:ff9b:1::/48` (RFC 8215: a translator of the operator's own network, where the IPv4
 *   bits sit at a place the prefix length decides): refused outright;
 * - 6to4 `2002:AABB:CCDD::/48` (RFC 3056): judged as the IPv4 address `AA.BB.CC.DD` of bits 16–47;
 * - Teredo `2001:0::/32` (RFC 4380): judged as both IPv4 addresses it carries, the server's (bits 32–63)
 *   and the client's (the last 32 bits XOR `0xffffffff`);
 * - IPv4-translated `::ffff:0:a.b.c.d` (RFC 6145, a translator's internal form): refused outright.
 * IPv4-mapped `::ffff:a.b.c.d` is turned into its IPv4 address before.
 * @returns `undefined` when `addr` is none of these forms, else whether it is public
 */
function embeddedIpv4Verdict(addr: ipaddr.IPv6): boolean | undefined {
  const p = addr.parts;
  if (p[0] === 0 && p[1] === 0 && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return false;
  switch (addr.range()) {
    case 'rfc6052':
      if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0) return isPublicIpv4(ipv4Of(p[6]!, p[7]!));
      return false;
    case '6to4':
      return isPublicIpv4(ipv4Of(p[1]!, p[2]!));
    case 'teredo':
      return isPublicIpv4(ipv4Of(p[2]!, p[3]!)) && isPublicIpv4(ipv4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff));
    case 'rfc6145':
      return false;
    default:
      return undefined;
  }
}

/**
 * Whether `ip` (IPv4 or IPv6 text) is a public unicast address a webhook may be sent to: ipaddr.js's range
 * `unicast`, and not a metadata address. An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is judged as the
 * IPv4 address it carries; the other IPv6 forms that embed an IPv4 address are judged by it or refused
 * outright, as {@link embeddedIpv4Verdict} says (`::127.0.0.1`, `64:ff9b::a00:1`, `2002:a00:1::` are not
 * public). Text that is not an address is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  // A zone id (`fe80::1%eth0`) only ever names a link-local address.
  if (text.includes('%')) return false;
  const family = net.isIP(text);
  if (family === 0 || !ipaddr.isValid(text)) return false;
  // IPv6 is parsed from its canonical hexadecimal form (the WHATWG URL parser's): ipaddr.js reads any dotted
  // tail as IPv4-mapped, `::8.8.8.8` (IPv4-compatible, `::808:808`) as `::ffff:8.8.8.8`.
  let addr: ipaddr.IPv4 | ipaddr.IPv6 = family === 4 ? ipaddr.IPv4.parse(text) : ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress()) addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.has(addr.toString())) return false;
  if (addr.kind() === 'ipv6') {
    const verdict = embeddedIpv4Verdict(addr as ipaddr.IPv6);
    if (verdict !== undefined) return verdict;
  }
  return addr.range() === 'unicast';
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UnsafeWebhookUrl('The URL must use the http or https scheme.');
  if (url.hostname === '') throw new UnsafeWebhookUrl('Enter a valid URL.');
  if (url.username !== '' || url.password !== '') throw new UnsafeWebhookUrl('The URL must not contain a user name or password.');
  return url;
}

/** The setting that changes the refusal of a private address (docs/webhooks.md#url-safety). */
const ALLOW_PRIVATE_HINT = 'To deliver to a receiver on this machine or a private network, set BIZAPI_WEBHOOK_ALLOW_PRIVATE=true on the server.';

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
    if (!isPublicAddress(host)) throw new UnsafeWebhookUrl(`The host ${host} is not a public address. ${ALLOW_PRIVATE_HINT}`);
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
  if (refused !== undefined) throw new UnsafeWebhookUrl(`The host name ${host} resolves to an address that is not public. ${ALLOW_PRIVATE_HINT}`);
  return { url, addresses };
}
