/**
 * Object paths (docs/api.md#attachments). They are issued by the server only, in one strict form,
 * `<businessId>/<32 lowercase hex>.<ext>`: scoped to the business that asked for it, unguessable (128 random
 * bits), and free of anything a file system or a URL could interpret (`..`, a leading `/`, `\`, NUL, `%`).
 * {@link parseObjectPath} is the one gate every path from outside goes through.
 */
import { randomBytes } from 'node:crypto';
import { ALLOWED_EXTENSIONS, type Extension } from './file-types.ts';

const PATH_PATTERN = new RegExp(`^([1-9][0-9]{0,15})/([0-9a-f]{32})\\.(${ALLOWED_EXTENSIONS.join('|')})$`);

/** A valid object path, taken apart. */
export interface ObjectPath {
  businessId: number;
  extension: Extension;
}

/**
 * Prefix of the storage keys of sealed attachments (S3: the copy an attached file is served from, see
 * `Storage.seal`). Never a valid object path, so no upload URL is ever issued for such a key.
 */
export const SEALED_PREFIX = 'attached/';

/**
 * A new key for the sealed copy of the object at `uploadPath` (a valid object path):
 * `attached/<businessId>/<32 new random hex>.<ext>`, unguessable and different on every call (two requests
 * sealing the same upload at once never write the same key).
 */
export function newSealedPath(uploadPath: string): string {
  const parsed = parseObjectPath(uploadPath);
  if (!parsed) throw new Error('Invalid object path');
  return `${SEALED_PREFIX}${newObjectPath(parsed.businessId, parsed.extension)}`;
}

/** A new, unguessable object path for a business: `<businessId>/<32 hex>.<ext>`. */
export function newObjectPath(businessId: number, extension: Extension): string {
  return `${businessId}/${randomBytes(16).toString('hex')}.${extension}`;
}

/**
 * Takes a path from outside apart, or returns `undefined` when it is not exactly of the form the server
 * issues (anything else — traversal, absolute paths, backslashes, NUL, percent-encoding, upper case,
 * other extensions — is refused here).
 */
export function parseObjectPath(text: string): ObjectPath | undefined {
  const m = PATH_PATTERN.exec(text);
  if (!m) return undefined;
  const businessId = Number(m[1]);
  if (!Number.isSafeInteger(businessId)) return undefined;
  return { businessId, extension: m[3] as Extension };
}
