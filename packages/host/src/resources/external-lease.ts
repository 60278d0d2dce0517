import { CoworkError } from '../errors';
import type { LeaseRecord } from '../store/lease-records';
import type { LeaseHandle, Leases } from '../store/leases/leases';

/** The lease of the host that drives a resource's application. */
export function externalLeaseKey(resourceId: string): string {
  return `external:${resourceId}`;
}

/**
 * One host at a time drives an external resource's application: two hosts (a server and a CLI
 * command on one machine, or servers on several machines sharing a PostgreSQL database) each
 * taking its own per-resource lock would interleave their ops. The lease is in the store, so every
 * host on the workspace sees it; it is renewed while this host's session is open, released when
 * the session closes, and a holder that died loses it (at once when it ran on this machine and
 * its pid is gone, else when its lease ends). `onLost`: a renewal failed, another host may drive
 * the application now. Refused with `external_unavailable` (`held_by_another_host`).
 */
export async function holdExternalLease(leases: Leases, resourceId: string, onLost: () => void): Promise<LeaseHandle> {
  const taken = await leases.hold(externalLeaseKey(resourceId), onLost);
  if ('held' in taken) return taken.held;
  throw externalHeldError(resourceId, taken.other);
}

function externalHeldError(resourceId: string, lease: LeaseRecord): CoworkError {
  const endsAt = new Date(lease.expiresAt).toISOString();
  const inSeconds = Math.max(0, Math.ceil((lease.expiresAt - lease.now) / 1000));
  return new CoworkError(
    'external_unavailable',
    `the application of resource ${resourceId} is driven by another host (${lease.holder}), whose lease ends at ${endsAt} (in ${inSeconds} s) unless it renews it: ` +
      'make the change through that host, or stop it; this host can drive the application once that host has stopped and its lease has ended',
    { reason: 'held_by_another_host', resourceId, holder: lease.holder, leaseExpiresAt: endsAt },
  );
}
