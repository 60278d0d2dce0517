/**
 * The order of each product's variants as db.json lists them. JavaScript objects put keys that
 * look like array indices (item ids below 2^32) first, in numeric order, so a database read into
 * objects has lost it; the reference (a Python dict) keeps it, and `get_product_details` shows the
 * variants in it. It is recorded here whenever a db.json text is read (the suite's data, the kind's
 * import), and the tool lists a product's variants in it when the product still has exactly those
 * variants (no tool changes products). Nothing else depends on key order: equality of databases
 * ignores it.
 */
const variantOrder = new Map<string, readonly string[]>();

/** Reads the key order out of a db.json text (keys made non-numeric for the parse, so objects keep their order). */
export function recordKeyOrder(text: string): void {
  let parsed: { products?: Record<string, { product_id?: unknown; variants?: Record<string, unknown> }> };
  try {
    parsed = JSON.parse(text.replace(/"(\d+)"(\s*):/g, '"k$1"$2:')) as typeof parsed;
  } catch {
    return;
  }
  for (const [key, product] of Object.entries(parsed.products ?? {})) {
    if (typeof product?.variants !== 'object' || product.variants === null) continue;
    variantOrder.set(key.replace(/^k/, ''), Object.keys(product.variants).map((k) => k.replace(/^k/, '')));
  }
}

/** A product's variant ids in db.json's order, when known and still the product's variants; else their own order. */
export function orderedVariantIds(productId: string, variants: Readonly<Record<string, unknown>>): string[] {
  const own = Object.keys(variants);
  const known = variantOrder.get(productId);
  if (!known || known.length !== own.length || !known.every((id) => Object.hasOwn(variants, id))) return own;
  return [...known];
}
