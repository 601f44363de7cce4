/**
 * Which addresses bizapi may send to when the receiver is a tenant's (docs/webhooks.md#url-safety): public
 * unicast only — never loopback, private, link-local (cloud metadata included), multicast, unspecified,
 * reserved, carrier-grade NAT or another special-purpose range. The webhook URL check
 * (src/modules/webhook/url-safety.ts) and the HTTP client's public-only lookup (src/shared/http-client.ts)
 * both judge by {@link isPublicAddress}.
 */
import net from 'node:net';
import ipaddr from 'ipaddr.js';

/** Addresses refused whatever their range says: the cloud metadata services. */
const METADATA_ADDRESSES: ReadonlySet<string> = new Set(['169.254.169.254', 'fd00:ec2::254']);

/**
 * Whether `ip` is a cloud metadata address (`169.254.169.254`, `fd00:ec2::254`, also IPv4-mapped), refused even
 * where the operator admits private addresses (`BIZAPI_IMPORT_ALLOW_PRIVATE`, docs/deployment.md#source-limits).
 */
export function isMetadataAddress(ip: string): boolean {
  const text = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (!ipaddr.isValid(text)) return false;
  let addr: ipaddr.IPv4 | ipaddr.IPv6 = ipaddr.parse(text);
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  return METADATA_ADDRESSES.has(addr.toString());
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
      if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 0 && p[3] === 0 && p[4] === 0 && p[5] === 0)
        return isPublicIpv4(ipv4Of(p[6]!, p[7]!));
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
  let addr: ipaddr.IPv4 | ipaddr.IPv6 =
    family === 4 ? ipaddr.IPv4.parse(text) : ipaddr.IPv6.parse(new URL(`http://[${text}]/`).hostname.slice(1, -1));
  if (addr.kind() === 'ipv6' && (addr as ipaddr.IPv6).isIPv4MappedAddress())
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  if (METADATA_ADDRESSES.has(addr.toString())) return false;
  if (addr.kind() === 'ipv6') {
    const verdict = embeddedIpv4Verdict(addr as ipaddr.IPv6);
    if (verdict !== undefined) return verdict;
  }
  return addr.range() === 'unicast';
}
