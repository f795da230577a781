import type { LookupAddress } from 'node:dns';
import { request } from 'undici';
import { extraHostsOf } from './endpoint';
import { createGuardedAgent, guardedAddresses, isPublicAddress, isRefusedAddress } from './guard';
import type { Resolve } from './guard';
import { startFakePushService } from './testing/fake-push-service';
import type { FakePushService } from './testing/fake-push-service';

/** A resolver that answers `addresses` for every name. */
const resolvingTo =
  (...addresses: string[]): Resolve =>
  () =>
    Promise.resolve(addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 })));

const NOT_PUBLIC = [
  '127.0.0.1',
  '127.255.0.9',
  '10.1.2.3',
  '172.16.0.1',
  '172.31.255.255',
  '192.168.1.1',
  '169.254.169.254',
  '100.64.0.1',
  '100.127.255.254',
  '0.0.0.0',
  '224.0.0.1',
  '255.255.255.255',
  '192.0.2.10',
  '198.18.0.1',
  '::',
  '::1',
  'fe80::1',
  'fe80::1%eth0',
  'fc00::1',
  'fd12:3456:789a::1',
  'ff02::1',
  '::ffff:127.0.0.1',
  '::ffff:7f00:1',
  '::ffff:10.0.0.1',
  '::ffff:169.254.169.254',
  '::ffff:100.64.0.1',
  '::127.0.0.1',
  '64:ff9b::7f00:1',
  '64:ff9b::10.0.0.1',
  '2002:7f00:1::1',
  '2001::1',
  '2001:db8::1',
  '[::1]',
  'pas une adresse',
  '',
];

const PUBLIC = [
  '142.250.179.74',
  '8.8.8.8',
  '100.63.255.255',
  '100.128.0.1',
  '172.32.0.1',
  '2a00:1450:4007:80f::200a',
  '2606:4700::1111',
  '::ffff:8.8.8.8',
  '64:ff9b::8.8.8.8',
];

describe('the address guard', () => {
  it.each(NOT_PUBLIC)('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(PUBLIC)('lets %s through', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('refuses a name when any of its addresses is not public, and lets a public one through', async () => {
    const extra = extraHostsOf([]);
    await expect(
      guardedAddresses('fcm.googleapis.com', { extra, resolve: resolvingTo('142.250.179.74', '2a00:1450::200a') }),
    ).resolves.toHaveLength(2);
    await expect(
      guardedAddresses('fcm.googleapis.com', { extra, resolve: resolvingTo('142.250.179.74', '10.0.0.1') }),
    ).rejects.toMatchObject({ code: 'PUSH_ADDRESS_REFUSED', host: 'fcm.googleapis.com' });
    await expect(guardedAddresses('fcm.googleapis.com', { extra, resolve: resolvingTo() })).rejects.toMatchObject({
      code: 'PUSH_ADDRESS_REFUSED',
    });
  });

  it('lets a host of the extra list reach the loopback: the admin vouches for it', async () => {
    const extra = extraHostsOf(['push.local.example:8443', '127.0.0.1:4430']);
    await expect(guardedAddresses('push.local.example', { extra, resolve: resolvingTo('127.0.0.1') })).resolves.toEqual(
      [{ address: '127.0.0.1', family: 4 }],
    );
    await expect(guardedAddresses('127.0.0.1', { extra })).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(guardedAddresses('127.0.0.2', { extra })).rejects.toMatchObject({ code: 'PUSH_ADDRESS_REFUSED' });
  });

  describe('at each connection', () => {
    let fake: FakePushService;
    beforeAll(async () => {
      fake = await startFakePushService();
    });
    afterAll(() => fake.close());

    /** Posts to the fake through a guarded agent, naming it `host`, resolved by `resolve`. */
    async function post(host: string, extraHosts: string[], resolve: Resolve): Promise<unknown> {
      const agent = createGuardedAgent({
        extra: extraHostsOf(extraHosts),
        resolve,
        connectTimeoutMs: 2000,
        ca: fake.ca,
      });
      const port = new URL(fake.origin).port;
      try {
        // The certificate names 127.0.0.1: the name the test gives is checked against it.
        const answer = await request(`https://${host}:${port}/push/personne`, {
          method: 'POST',
          dispatcher: agent,
          body: 'x',
        });
        await answer.body.dump();
        return answer.statusCode;
      } catch (error) {
        return error;
      } finally {
        await agent.close();
      }
    }

    it.each([
      '127.0.0.1',
      '10.0.0.1',
      '169.254.169.254',
      '::1',
      'fe80::1',
      'fc00::1',
      '::ffff:127.0.0.1',
      '100.64.0.1',
    ])('refuses a name resolving to %s: nothing reaches the fake', async (address) => {
      const before = fake.connections;
      const failure = await post('push.rebinding.example', [], resolvingTo(address));
      expect(isRefusedAddress(failure)).toBe(true);
      expect(fake.connections).toBe(before);
    });

    it('refuses a literal loopback address that the extra list does not name', async () => {
      const failure = await post('127.0.0.1', [], resolvingTo('127.0.0.1'));
      expect(isRefusedAddress(failure)).toBe(true);
      expect(fake.connections).toBe(0);
    });

    it('lets a name of the extra list resolving to the loopback connect (the control of the test above)', async () => {
      // The connection reaches the fake; its certificate, which names 127.0.0.1 only, then fails TLS.
      const failure = await post('push.rebinding.example', ['push.rebinding.example'], resolvingTo('127.0.0.1'));
      expect(isRefusedAddress(failure)).toBe(false);
      expect(fake.connections).toBe(1);
    });

    it('reaches the fake when the extra list names its address (the test itself would see a leak)', async () => {
      await expect(post('127.0.0.1', [fake.host], resolvingTo())).resolves.toBe(404);
      expect(fake.connections).toBe(2);
      expect(fake.requests).toEqual([expect.objectContaining({ id: 'personne', status: 404 })]);
    });
  });
});
