import { gzipSync } from 'node:zlib';

const BLOCK = 512;

/** A field of a ustar header: the text, NUL-padded to its width. */
function field(header: Buffer, offset: number, width: number, text: string): void {
  header.write(text, offset, width, 'utf8');
}

const octal = (value: number, width: number) => `${value.toString(8).padStart(width - 1, '0')}\0`;

/** One regular file's ustar header (POSIX.1-1988): names up to 100 bytes, mode 0644, a fixed mtime. */
function header(name: string, size: number, mtime: number): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar: the name ${name} is longer than 100 bytes`);
  const block = Buffer.alloc(BLOCK);
  field(block, 0, 100, name);
  field(block, 100, 8, octal(0o644, 8));
  field(block, 108, 8, octal(0, 8));
  field(block, 116, 8, octal(0, 8));
  field(block, 124, 12, octal(size, 12));
  field(block, 136, 12, octal(Math.floor(mtime / 1000), 12));
  field(block, 148, 8, ' '.repeat(8));
  field(block, 156, 1, '0');
  field(block, 257, 6, 'ustar\0');
  field(block, 263, 2, '00');
  let sum = 0;
  for (const byte of block) sum += byte;
  field(block, 148, 8, `${sum.toString(8).padStart(6, '0')}\0 `);
  return block;
}

/**
 * Files as a gzipped tar archive, the format of `npm pack`: each file a header and its bytes padded to
 * 512, then two empty blocks. The same files give the same bytes (fixed mtime), so the ETag is stable.
 */
export function tarGz(files: ReadonlyMap<string, Buffer>, mtime = Date.UTC(1985, 9, 26, 8, 15)): Buffer {
  const parts: Buffer[] = [];
  for (const [name, body] of files) {
    parts.push(header(name, body.length, mtime), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
