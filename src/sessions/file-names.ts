/** The longest file name most file systems take (ext4, APFS, NTFS: 255 bytes). */
const NAME_MAX = 255;
/** What a session's longest file name adds to its encoded id (a temporary file's suffix). */
const LONGEST_SUFFIX = '.4294967295-ffffffff.tmp'.length;
/** Starts the name of an id too long to percent-encode; '=' is never left as it is by percent-encoding. */
const PACKED = '=';

/**
 * The file-name form of a session id, unique per id and reversible: percent-encoded (dots
 * included, so no name is another's prefix plus a suffix) when that fits a file name, else
 * `=` and the id's UTF-8 bytes in base64url (which fits any id of MAX_SESSION_ID_BYTES).
 */
export function fileNameOf(id: string): string {
  const name = encodeURIComponent(id).replace(/\./g, '%2E');
  if (Buffer.byteLength(name) + LONGEST_SUFFIX <= NAME_MAX) return name;
  return PACKED + Buffer.from(id, 'utf8').toString('base64url');
}

/** The id a file name (without its suffix) was made from; undefined for a name no id gives. */
export function idOfFileName(name: string): string | undefined {
  try {
    const id = name.startsWith(PACKED)
      ? Buffer.from(name.slice(PACKED.length), 'base64url').toString('utf8')
      : decodeURIComponent(name);
    return fileNameOf(id) === name ? id : undefined;
  } catch {
    return undefined;
  }
}
