import { setImmediate as nextTurn } from 'node:timers/promises';

/**
 * A large JSON value sent from a worker thread as JSON texts: the value with its long list (a
 * document's blocks, a deck's slides) left empty, and that list's items in runs of about
 * `PIECE_CHARS` characters. The calling thread parses one run per turn of its event loop. Handed
 * over whole, the value is decoded on the calling thread in one stretch (structured clone: 20-90 ms
 * for the 2.8 MB document of a docx at the 8 MiB import limit, more than JSON.parse of it), during
 * which no other request is answered. Parsing here also makes the objects of the caller's own realm,
 * as a content made on its thread would be (the host's JSON checks compare prototypes).
 */
export type JsonPieces = { readonly head: string; readonly field: string; readonly pieces: readonly string[] };

/** About 256 KiB of JSON per run: 1-3 ms to parse. */
const PIECE_CHARS = 256 * 1024;

/** `value` as pieces, its list `field` cut into runs of items. */
export function toPieces(value: Record<string, unknown>, field: string): JsonPieces {
  const items = value[field];
  if (!Array.isArray(items)) return { head: JSON.stringify(value), field, pieces: [] };
  const pieces: string[] = [];
  let run: string[] = [];
  let chars = 0;
  for (const item of items) {
    const text = JSON.stringify(item) ?? 'null';
    run.push(text);
    chars += text.length + 1;
    if (chars >= PIECE_CHARS) {
      pieces.push(`[${run.join(',')}]`);
      run = [];
      chars = 0;
    }
  }
  if (run.length > 0) pieces.push(`[${run.join(',')}]`);
  return { head: JSON.stringify({ ...value, [field]: [] }), field, pieces };
}

/** The value the pieces stand for, parsed a run at a time. */
export async function fromPieces<T>({ head, field, pieces }: JsonPieces): Promise<T> {
  const value = JSON.parse(head) as Record<string, unknown>;
  const items = value[field] as unknown[];
  for (const piece of pieces) {
    await nextTurn();
    for (const item of JSON.parse(piece) as unknown[]) items.push(item);
  }
  return value as T;
}
