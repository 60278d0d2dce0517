import { rejectOp } from '@cowork/host';

/** The schema of an op's optional `was`: the text its author saw at the position the op names. */
export const WAS_SCHEMA = { type: 'string', maxLength: 10_000 } as const;

/**
 * Bullets, list items and table cells are addressed by position, and a position can hold another
 * item by the time an op lands (an op kept as a candidate and accepted on a newer revision). An op
 * that says what its author saw there (`was`) is refused rather than applied to another item.
 */
export function checkWas(where: string, actual: string, was: string | undefined): void {
  if (was === undefined || was === actual) return;
  throw rejectOp(
    `${where} now reads ${JSON.stringify(clip(actual))}, not ${JSON.stringify(clip(was))}: it changed since the op was made; read it again and make the op on what is there now`,
    { actual, was },
  );
}

function clip(text: string): string {
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
