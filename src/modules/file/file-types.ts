/**
 * The file types an attachment may have (docs/api.md#attachments: pdf, doc, docx, xls, xlsx, ppt,
 * pptx, hwp, jpg, jpeg, png, gif, zip) and the media type each is served with.
 *
 * The media type of a stored object always comes from this table, never from the uploader's
 * `Content-Type`: a download can only ever be one of these types (no HTML, no SVG), so an attachment cannot
 * run script in a browser that opens it.
 */

/** Extension (lower case, without the dot) → media type, for the 13 extensions of the reference. */
export const MEDIA_TYPES = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ppt: 'application/vnd.ms-powerpoint',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  hwp: 'application/x-hwp',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  zip: 'application/zip',
} as const;

/** One of the 13 allowed extensions, lower case. */
export type Extension = keyof typeof MEDIA_TYPES;

/** The allowed extensions in the reference's order. */
export const ALLOWED_EXTENSIONS = Object.keys(MEDIA_TYPES) as Extension[];

/**
 * The allowed extension of a file name, lower-cased (`Report.PDF` → `pdf`), or `undefined` when the name
 * has no extension or one that is not allowed.
 */
export function extensionOf(name: string): Extension | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return Object.hasOwn(MEDIA_TYPES, ext) ? (ext as Extension) : undefined;
}

/** The raw extension of a name as the user wrote it (for messages), `""` when there is none. */
export function rawExtensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1);
}

/** The media type a stored object of this extension is served with. */
export function mediaTypeOf(ext: Extension): string {
  return MEDIA_TYPES[ext];
}
