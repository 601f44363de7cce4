/**
 * IPv6 forms that carry an IPv4 address (docs/webhooks.md#url-safety): each form is judged by the IPv4
 * address it carries, or refused outright, the same way at create time (`checkWebhookUrl`, literal hosts and
 * resolved names) and at connect time (`send`, which refuses a literal host before connecting and checks the
 * resolved addresses in its `lookup` with the same {@link isPublicAddress}).
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkWebhookUrl, UnsafeWebhookUrl } from '../../src/modules/webhook/url-safety.ts';
import { isPublicAddress } from '../../src/shared/public-address.ts';
import { post } from '../../src/shared/http-client.ts';

/** [address, public?, why] */
const FORMS: [string, boolean, string][] = [
  // IPv4-compatible ::/96 (deprecated): refused outright, whatever it carries
  ['::127.0.0.1', false, 'IPv4-compatible loopback'],
  ['::7f00:1', false, 'IPv4-compatible loopback, hexadecimal'],
  ['::10.0.0.1', false, 'IPv4-compatible private'],
  ['::8.8.8.8', false, 'IPv4-compatible, even of a public address'],
  ['::169.254.169.254', false, 'IPv4-compatible metadata address'],
  // IPv4-mapped ::ffff:0:0/96: judged as the IPv4 address
  ['::ffff:127.0.0.1', false, 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', false, 'IPv4-mapped loopback, hexadecimal'],
  ['::ffff:169.254.169.254', false, 'IPv4-mapped metadata address'],
  ['::ffff:8.8.8.8', true, 'IPv4-mapped public'],
  // IPv4-translated ::ffff:0:0:0/96 (RFC 6145): refused outright
  ['::ffff:0:8.8.8.8', false, 'IPv4-translated'],
  // NAT64 well-known prefix 64:ff9b::/96: judged by its last 32 bits
  ['64:ff9b::127.0.0.1', false, 'NAT64 of loopback'],
  ['64:ff9b::a00:1', false, 'NAT64 of 10.0.0.1'],
  ['64:ff9b::a9fe:a9fe', false, 'NAT64 of the metadata address'],
  ['64:ff9b::8.8.8.8', true, 'NAT64 of a public address (DNS64 on an IPv6-only network)'],
  // NAT64 local-use 64:ff9b:1::/48: refused outright
  ['64:ff9b:1::808:808', false, 'NAT64 local-use prefix'],
  ['64:ff9b:1:7f00:1::', false, 'NAT64 local-use prefix, /48 layout'],
  // 6to4 2002::/16: judged by bits 16–47
  ['2002:7f00:1::1', false, '6to4 of loopback'],
  ['2002:a00:1::', false, '6to4 of 10.0.0.1'],
  ['2002:c0a8:101::1', false, '6to4 of 192.168.1.1'],
  ['2002:808:808::1', true, '6to4 of a public address'],
  // Teredo 2001:0::/32: server bits 32–63, client the last 32 bits XOR 0xffffffff; both must be public
  ['2001:0:4136:e378:8000:63bf:f7f7:f7f7', true, 'Teredo, public server and client (8.8.8.8)'],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', false, 'Teredo, client 127.0.0.1'],
  ['2001:0:4136:e378:8000:63bf:f5ff:fffe', false, 'Teredo, client 10.0.0.1'],
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', false, 'Teredo, server 10.0.0.1'],
  // plain IPv6 for comparison
  ['2606:4700:4700::1111', true, 'public IPv6'],
  ['::1', false, 'loopback'],
  ['::', false, 'unspecified'],
];

describe('isPublicAddress: IPv6 forms embedding IPv4', () => {
  for (const [ip, expected, why] of FORMS) {
    it(`${ip} (${why}) is ${expected ? 'public' : 'refused'}`, () => {
      expect(isPublicAddress(ip)).toBe(expected);
      expect(isPublicAddress(`[${ip}]`)).toBe(expected);
    });
  }
});

describe('checkWebhookUrl (create time)', () => {
  it('refuses each non-public form as a literal host, and as the address a name resolves to', async () => {
    for (const [ip, expected] of FORMS) {
      const literal = checkWebhookUrl(`http://[${ip}]/hook`, { allowPrivate: false });
      const named = checkWebhookUrl('https://hooks.example/hook', {
        allowPrivate: false,
        lookup: async () => [{ address: ip, family: 6 }],
      });
      if (expected) {
        // the URL parser writes the host in hexadecimal (`::ffff:808:808`)
        expect((await literal).addresses, ip).toHaveLength(1);
        await expect(named, ip).resolves.toMatchObject({ addresses: [ip] });
      } else {
        await expect(literal, ip).rejects.toThrow(UnsafeWebhookUrl);
        await expect(named, ip).rejects.toThrow('resolves to an address that is not public');
      }
    }
  });

  it('http://[::127.0.0.1]/ names the refused host', async () => {
    await expect(checkWebhookUrl('http://[::127.0.0.1]/', { allowPrivate: false })).rejects.toThrow(/::7f00:1/);
  });
});

describe('send (connect time)', () => {
  let server: net.Server;
  let port: number;
  let connections = 0;
  beforeAll(async () => {
    server = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '::', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  it('refuses a literal IPv4-compatible or other embedding host without connecting', async () => {
    for (const host of ['::127.0.0.1', '::ffff:127.0.0.1', '64:ff9b::127.0.0.1', '2002:7f00:1::1']) {
      const r = await post(`http://[${host}]:${port}/`, '{}', {}, { allowPrivate: false, timeoutMs: 2000 });
      expect(r.statusCode, host).toBeNull();
      expect(r.error, host).toMatch(/is not a public address/);
    }
    expect(connections).toBe(0);
  });
});
