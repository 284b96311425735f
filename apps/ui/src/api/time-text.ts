/** A time of the API (RFC 3339, to the millisecond) as it reads: `…:05Z` rather than `…:05.000Z`. */
export function timeText(at: string): string {
  return at.replace('.000Z', 'Z');
}
