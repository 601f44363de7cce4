/** `Content-Disposition` for downloads (RFC 6266 with the RFC 8187 `filename*` form for any character). */

/**
 * `attachment; filename="<ASCII fallback>"; filename*=UTF-8''<percent-encoded name>`. The fallback replaces
 * every character outside printable ASCII, and `"` and `\`, with `_`, so the header can never be broken
 * out of.
 */
export function contentDisposition(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
