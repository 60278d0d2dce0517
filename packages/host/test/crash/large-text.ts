/** A text of about 600 KB that begins and ends with `token`: over the store's large-value threshold. */
export function largeText(token: string): string {
  return `${token}|${'x'.repeat(600 * 1024)}|${token}`;
}
