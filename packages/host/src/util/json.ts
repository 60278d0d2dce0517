/** JSON values: everything the store persists as content, ops and event data. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Parses JSON stored by the store. Stored text was produced by `JSON.stringify`, so it is trusted. */
export function parseStored<T = Json>(text: string): T {
  return JSON.parse(text) as T;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality over JSON values (key order ignored). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) {
    return Array.isArray(b) && a.length === b.length && a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && jsonEqual(a[k], b[k]));
  }
  return false;
}

/** JSON text with object keys sorted at every depth: equal for values that are `jsonEqual`. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) => {
    if (!isPlainObject(item)) return item;
    const sorted: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(item).sort()) sorted[key] = item[key];
    return sorted;
  });
}

/**
 * A value whose type is made of JSON values (a record, a message, an error body) as `Json`. Such
 * interfaces are not assignable to `Json` only because TypeScript gives them no index signature;
 * this is the one place that says so, instead of a cast at each use.
 */
export function asJson<T extends object>(value: T): Json {
  return value as unknown as Json;
}
