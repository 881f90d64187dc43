/**
 * A write the disk refused, as the node tells it apart from every other failure: the
 * operating system's ENOSPC (a full disk; level reports it as LEVEL_IO_ERROR with the system's
 * text, "No space left on device"), the other system errors of a write (EIO, EDQUOT, EROFS), and
 * the fault layer's full disk (layer.ts), which carries the same code and text as the system's.
 */

/** The fault layer's full disk: what Node's fs gives for ENOSPC (code, errno, syscall, text). */
export class DiskFullError extends Error {
  override readonly name = 'Error';
  readonly code = 'ENOSPC';
  readonly errno = -28;
  constructor(readonly syscall: string) {
    super(`ENOSPC: no space left on device, ${syscall} (disk_faults.json: full)`);
  }
}

const WRITE_CODES = new Set(['ENOSPC', 'EDQUOT', 'EIO', 'EROFS', 'EFBIG']);
const FULL_TEXT = /no space left on device|disk quota exceeded/i;

/** The system error behind `e` (level wraps it in its own: LEVEL_IO_ERROR, the text kept). */
function codeOf(e: unknown): string | null {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : null;
}

const textOf = (e: unknown): string => {
  const err = e as { message?: unknown; cause?: { message?: unknown } } | null;
  return `${String(err?.message ?? e)} ${String(err?.cause?.message ?? '')}`;
};

/** Whether `e` says the disk is full (ENOSPC or a quota). */
export function isDiskFull(e: unknown): boolean {
  const code = codeOf(e);
  return code === 'ENOSPC' || code === 'EDQUOT' || FULL_TEXT.test(textOf(e));
}

/** Whether `e` is the disk refusing a write (full, or another system error of a write). */
export function isWriteFailure(e: unknown): boolean {
  const code = codeOf(e);
  return isDiskFull(e) || (code !== null && WRITE_CODES.has(code)) || code === 'LEVEL_IO_ERROR';
}

/** One line for the log and the status: "disk full: <the system's text>" or "disk write failed: …". */
export function describeWriteFailure(e: unknown): string {
  const text = (e as { message?: unknown } | null)?.message;
  return `${isDiskFull(e) ? 'disk full' : 'disk write failed'}: ${String(text ?? e)}`;
}
