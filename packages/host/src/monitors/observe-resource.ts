import type { Json } from '../store/records';
import type { Store } from '../store/store';
import type { Observer } from './observer';

/** A resource's revision: `{revision}`, or `{missing: true}`. One indexed read per poll. */
export function resourceObserver(target: { resourceId: string }, store: Store): Observer {
  return {
    async observe(): Promise<Json> {
      const revision = await store.read((tx) => tx.resources.headRevision(target.resourceId));
      return revision === undefined ? { missing: true } : { revision };
    },
  };
}
